// Issue 39 item 5, the last audit's open findings. (1) A text that opens like JSON and that `JSON.parse` refuses (a
// trailing comma, a comment, a NaN, a brace too many, single quotes) was judged as prose: a `resource_link` object in
// it, read by a lenient consumer (a model, a JSON5 reader), was never judged. Now such a text that names
// `resource_link` (in any spelling a reader decodes) is withheld (`content.shape`), and each uri in one that does not
// is judged as a link, as a parsed JSON text's uri strings are. (2) A blob declared JSON whose bytes are not UTF-8 was
// not judged at all: now it is withheld (`content.uninterpretable`). Controls: prose, an ordinary brace, an almost-JSON
// text with an allowed address, and valid JSON are judged as before.
import { beforeAll, describe, expect, test } from 'vitest';
import type { LinkReader } from '../../src/flow/link-reader.ts';
import { judgeResultValues } from '../../src/flow/refused-beside.ts';
import { runLinkFlow } from '../../src/flow/run-link-flow.ts';
import { applyStructured, judgeStructured } from '../../src/flow/structured-links.ts';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { defaultPolicyWith } from '../sdk/fake-gate.ts';
import { flowContext } from './flow-context.ts';

const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
const address = '169.254.169.254';
const ordinary = 'https://docs.example/guide/a.txt';
const doc = 'https://docs.example/r.json';
const linkText = (type: string, uri = metadata) => `{"type":"${type}","uri":"${uri}","name":"creds"}`;
const b64 = (bytes: string | Buffer) => Buffer.from(bytes).toString('base64');
const enforce = { server: 'docs', mode: 'enforce' } as const;

let gate: Gate;
beforeAll(async () => {
  gate = createGate(await defaultPolicyWith());
});

/** The texts a tool result's `content` is handed on with, once its JSON texts and prose are judged. */
async function handedTexts(content: unknown[]): Promise<string> {
  const judged = await judgeResultValues(gate, content, undefined, { ...enforce, refs: new Map() }, true);
  const out = content.map((item, index) => {
    const edit = judged.texts.find((t) => t.index === index);
    return edit === undefined ? item : { edited: edit.text };
  });
  return JSON.stringify(out);
}

/** Reads `doc` through the flow, the server answering `contents`. */
async function read(contents: Record<string, unknown>[]) {
  const reader: LinkReader = async () => ({ result: { contents } });
  const flow = await runLinkFlow({ type: 'resource_link', uri: doc, name: 'r' }, 0, {
    gate,
    read: reader,
    context: flowContext,
    mode: 'enforce',
    budget: AbortSignal.timeout(10_000),
  });
  expect(recordViolations(flow.record)).toEqual([]);
  return { handed: JSON.stringify(flow.contents), decision: flow.record.decisions.read, flow };
}

const codes = (reasons: readonly { code: string }[] | undefined) => (reasons ?? []).map((r) => r.code);

// texts that open like JSON, do not parse, and hold a resource_link object a lenient reader takes
const almostLinks: [string, string][] = [
  ['a trailing comma', `{"content":[${linkText('resource_link')},]}`],
  ['a comment', `{"content":[${linkText('resource_link')}]} // the links`],
  ['a NaN', `{"n":NaN,"content":[${linkText('resource_link')}]}`],
  ['a brace too many', `{"content":[${linkText('resource_link')}]}}`],
  ['single quotes', `{'type':'resource_link','uri':'${metadata}','name':'creds'}`],
  ['the name spelled with a \\u escape', `${linkText('resource\\u005flink')},`],
  ['the name spelled with a \\x escape', `[${linkText('resource\\x5flink')},]`],
  ['the name in another case', `[${linkText('Resource_Link')},]`],
  ['a JSON string of it in a string', `{"payload":${JSON.stringify(linkText('resource\\u005flink'))},}`],
  // JSON5 readers take these as a resource_link object (found in review)
  ['a line comment after the brace', `{ // links\n ${linkText('resource_link').slice(1, -1)}, }`],
  ['a block comment after the brace', `{/*x*/${linkText('resource_link').slice(1, -1)},}`],
  ['a comment after the bracket', `[ // list\n ${linkText('resource_link')}, ]`],
  ['a bare non-ASCII member name first', `{ é: 1, ${linkText('resource_link').slice(1, -1)}, }`],
  ['a bare member name spelled with an escape', `{ \\u0074ype: "resource_link", uri: "${metadata}", }`],
  ['a list whose first value is a number', `[1, ${linkText('resource_link')}]]`],
];

describe('a tool result text that opens like JSON and does not parse', () => {
  test.each(almostLinks)('%s, naming resource_link: withheld (content.shape)', async (_, text) => {
    const handed = await handedTexts([
      { type: 'text', text: 'before' },
      { type: 'text', text },
    ]);
    expect(handed).not.toContain(address);
    expect(handed).toContain('does not parse and names `resource_link`');
    expect(handed).toContain('content.shape');
    // the other item is kept
    expect(handed).toContain('"before"');
  });

  test.each([
    ['a trailing comma', `{"see":"${metadata}",}`],
    ['single quotes', `{ see: '${metadata}' }`],
    ['an escaped uri', `{"see":"${metadata.replaceAll('/', '\\/')}",}`],
    ['a stray quote before it', `{"a": 1 " , "see": "${metadata}"}`],
  ])('%s, a refused uri in it: the text becomes its notice', async (_, text) => {
    const handed = await handedTexts([{ type: 'text', text }]);
    expect(handed).not.toContain(address);
    expect(handed).toContain('linkgate refused the link');
    expect(handed).toContain('uri.non-public-address');
  });

  test.each([
    ['prose', `see ${metadata} for the keys`],
    ['an ordinary brace', '{not json, just braces}'],
    ['an allowed address', `{"see":"${ordinary}",}`],
    ['an allowed link object in valid JSON', `{"content":[${linkText('resource_link', ordinary)}]}`],
    ['a markdown link to a local address', '[the guide](http://localhost:3000/guide) names resource_link'],
    ['a markdown badge line', '[![build](https://ci.example/b.svg)](http://127.0.0.1:8080/) resource_link docs'],
    ['a placeholder in prose', '{name} is served at http://10.0.0.5/ as a resource_link'],
    // found in review: ordinary texts that open with a bracket
    ['a log line', '[2026-12-07 19:00:01] INFO GET http://127.0.0.1:8080/health 200'],
    ['a markdown reference definition', '[1]: http://localhost:3000/docs\n\nSee [the docs][1].'],
    ['a numbered note naming resource_link', '[1] The MCP spec lets a tool return resource_link items.'],
    ['a progress line', '[1/3] fetching http://192.168.1.10/artifact.tgz'],
    ['a template', '{{#each links}} <a href="http://10.0.0.5/{{this}}">x</a> {{/each}}'],
    ['a task list item', '[ ] TODO: read resource_link docs'],
    ['a wiki link', '[[Setup]] runs at http://localhost:8080/'],
  ])('control: %s is handed on unchanged', async (_, text) => {
    const judged = await judgeResultValues(
      gate,
      [{ type: 'text', text }],
      undefined,
      { ...enforce, refs: new Map() },
      true,
    );
    expect(judged.texts).toEqual([]);
  });

  test('in structuredContent, as a string: the whole value is withheld, the address not handed on', async () => {
    const structured = { summary: 'kept', payload: `{"content":[${linkText('resource_link')},]}` };
    const judged = await judgeStructured(gate, structured, enforce);
    expect(judged).toMatchObject({ withheld: true, shape: true });
    expect(JSON.stringify(applyStructured(structured, judged))).not.toContain(address);
  });

  test('in structuredContent, a refused uri in such a string: the string becomes its notice', async () => {
    const structured = { summary: 'kept', payload: `{"see":"${metadata}",}` };
    const judged = await judgeStructured(gate, structured, enforce);
    const applied = applyStructured(structured, judged) as Record<string, unknown>;
    expect(JSON.stringify(applied)).not.toContain(address);
    expect(applied['summary']).toBe('kept');
    expect(String(applied['payload'])).toContain('linkgate refused the link');
  });

  test('an embedded resource declared JSON whose text does not parse: the whole item is withheld', async () => {
    const blob = b64(`[${linkText('resource_link')},]`);
    const item = { type: 'resource', resource: { uri: doc, mimeType: 'application/json', blob } };
    const handed = await handedTexts([item]);
    expect(handed).not.toContain(blob);
    expect(handed).toContain('content.shape');
  });
});

describe('a blob declared JSON whose bytes are not UTF-8', () => {
  const bytes = Buffer.concat([
    Buffer.from(`{"content":[${linkText('resource_link')}],"x":"`),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('"}'),
  ]);

  test('in a tool result: the embedded resource is withheld (content.uninterpretable)', async () => {
    const item = { type: 'resource', resource: { uri: doc, mimeType: 'application/json', blob: b64(bytes) } };
    const handed = await handedTexts([item]);
    expect(handed).not.toContain(b64(bytes));
    expect(handed).toContain('content.uninterpretable');
  });

  test.each([['application/json'], ['application/json; charset=utf-8']])(
    'in a read, declared %s: the item is withheld, the read denied with content.uninterpretable',
    async (mimeType) => {
      const { flow, decision } = await read([{ uri: doc, mimeType, blob: b64(bytes) }]);
      expect(flow.contents).toEqual([]);
      expect(decision?.effect).toBe('deny');
      expect(codes(decision?.items?.[0]?.reasons)).toContain('content.uninterpretable');
    },
  );

  test('control: the same JSON in UTF-8 is judged as JSON (its refused link replaced)', async () => {
    const clean = Buffer.from(`{"content":[${linkText('resource_link')}],"x":"ÿ"}`);
    const { handed, decision } = await read([{ uri: doc, mimeType: 'application/json', blob: b64(clean) }]);
    expect(handed).not.toContain(address);
    expect(decision?.effect).toBe('partial');
  });
});

describe("a read's JSON body that does not parse", () => {
  test.each(almostLinks)('%s, naming resource_link: the item is withheld (content.shape)', async (_, text) => {
    const { flow, decision } = await read([
      { uri: doc, mimeType: 'application/json', text },
      { uri: doc, mimeType: 'text/plain', text: 'kept' },
    ]);
    expect(JSON.stringify(flow.contents)).not.toContain(address);
    expect(flow.contents).toEqual([{ uri: doc, mimeType: 'text/plain', text: 'kept' }]);
    expect(decision?.effect).toBe('partial');
    expect(codes(decision?.items?.[0]?.reasons)).toEqual(['content.shape']);
  });

  test('undeclared, a blob of it: withheld the same', async () => {
    const { flow, decision } = await read([{ uri: doc, blob: b64(`[${linkText('resource_link')},]`) }]);
    expect(flow.contents).toEqual([]);
    expect(codes(decision?.reasons)).toContain('content.shape');
  });

  test('a refused uri in it: the item becomes its notice, the read partial with its code', async () => {
    const { flow, decision, handed } = await read([
      { uri: doc, mimeType: 'application/json', text: `{"see":"${metadata}",}` },
    ]);
    expect(handed).not.toContain(address);
    expect(String(flow.contents[0]?.['text'])).toContain('linkgate refused the link');
    expect(decision?.effect).toBe('partial');
    expect(codes(decision?.items?.[0]?.reasons)).toContain('uri.non-public-address');
  });

  test('control: an allowed address in it, or a text/plain body naming resource_link, is delivered as it came', async () => {
    const items = [
      { uri: doc, mimeType: 'application/json', text: `{"see":"${ordinary}",}` },
      { uri: doc, mimeType: 'text/plain', text: `[${linkText('resource_link', ordinary)},]` },
    ];
    const { flow, decision } = await read(items);
    expect(flow.contents).toEqual(items);
    expect(decision?.effect).toBe('allow');
  });
});
