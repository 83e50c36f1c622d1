import { beforeAll, describe, expect, test } from 'vitest';
import type { LinkReader } from '../../src/flow/link-reader.ts';
import type { FlowMode } from '../../src/flow/link-steps.ts';
import { runLinkFlow } from '../../src/flow/run-link-flow.ts';
import { structuredLimits } from '../../src/flow/structured-links.ts';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { flowContext } from './flow-context.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { defaultPolicyWith } from '../sdk/fake-gate.ts';

// A read's body whose whole text is one JSON object or array is structured data (lead's design call, issue 39): its
// MCP link shapes are judged as links the answering server returned, a refused one replaced by its notice in place,
// the read `partial` with the link's reason; past the limits or naming a member twice the item is withheld. A body
// that is not JSON is a document, untouched.

const context = flowContext;
const doc = 'https://docs.example/r.json';
const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
const hostPath = '169.254.169.254/latest';
const ordinary = 'https://docs.example/guide/a.txt';
const linkTo = (uri: string, name = 'next') => ({ type: 'resource_link', uri, name, mimeType: 'text/plain' });
const resultText = (uri: string) => JSON.stringify({ content: [linkTo(uri)] });
const b64 = (text: string) => Buffer.from(text).toString('base64');

let gate: Gate;
beforeAll(async () => {
  gate = createGate(await defaultPolicyWith());
});

/** Reads `doc` through the flow, the server answering `contents`. */
async function read(contents: Record<string, unknown>[], mode: FlowMode = 'enforce', through: Gate = gate) {
  const reader: LinkReader = async () => ({ result: { contents } });
  const flow = await runLinkFlow({ type: 'resource_link', uri: doc, name: 'r' }, 0, {
    gate: through,
    read: reader,
    context,
    mode,
    budget: AbortSignal.timeout(10_000),
  });
  expect(recordViolations(flow.record)).toEqual([]);
  return { flow, handed: JSON.stringify(flow.contents), read: flow.record.decisions.read };
}

const codes = (reasons: readonly { code: string }[] | undefined) => (reasons ?? []).map((r) => r.code);

describe("a read's JSON body holding a refused link", () => {
  test.each([
    ['declared application/json', { mimeType: 'application/json' }],
    ['declared with parameters', { mimeType: 'application/json; charset=utf-8' }],
    ['undeclared and lexically JSON', {}],
  ])('%s: the link is replaced by its notice in place, the read is partial with its code', async (_, declared) => {
    const { flow, handed, read: decided } = await read([{ uri: doc, ...declared, text: resultText(metadata) }]);
    expect(handed).not.toContain(hostPath);
    const [item] = flow.contents;
    const judged = JSON.parse(String(item?.['text'])) as { content: unknown[] };
    // the item is handed on re-serialised: still one tool result, its link a text item naming it without its address
    expect(judged.content).toHaveLength(1);
    expect(judged.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('refused the link') });
    expect(item?.['uri']).toBe(doc);
    expect(decided?.effect).toBe('partial');
    expect(codes(decided?.reasons)).toContain('uri.non-public-address');
    expect(codes(decided?.items?.[0]?.reasons)).toContain('uri.non-public-address');
    expect(JSON.stringify(decided)).not.toContain(hostPath);
    expect(flow.record.verdict).toBe('partially-interpreted');
    expect(flow.record.stages.delivered?.items).toEqual([0]);
  });

  test('a JSON blob is judged as its text: it becomes a text item of its judged JSON', async () => {
    const {
      flow,
      handed,
      read: decided,
    } = await read([{ uri: doc, mimeType: 'application/json', blob: b64(resultText(metadata)) }]);
    expect(handed).not.toContain(hostPath);
    expect(flow.contents[0]).not.toHaveProperty('blob');
    expect(String(flow.contents[0]?.['text'])).toContain('refused the link');
    expect(decided?.effect).toBe('partial');
  });

  test("an embedded resource's uri in the JSON is judged as a link too", async () => {
    const body = JSON.stringify({ content: [{ type: 'resource', resource: { uri: metadata, text: 'x' } }] });
    const { handed, read: decided } = await read([{ uri: doc, mimeType: 'application/json', text: body }]);
    expect(handed).not.toContain(hostPath);
    expect(codes(decided?.reasons)).toContain('uri.non-public-address');
  });

  test('beside an ordinary item: only the item holding the refused link changes', async () => {
    const plain = { uri: doc, mimeType: 'text/plain', text: 'hello' };
    const { flow, read: decided } = await read([
      { uri: doc, mimeType: 'application/json', text: resultText(metadata) },
      plain,
    ]);
    expect(flow.contents).toHaveLength(2);
    expect(flow.contents[1]).toEqual(plain);
    expect(decided?.items?.map((i) => i.effect)).toEqual(['partial', 'allow']);
  });

  test('each link of the bodies is decided once, however often the items repeat it', async () => {
    const asked: string[] = [];
    const counting: Gate = {
      ...gate,
      decideLink: (input, reading) => {
        asked.push(JSON.stringify(input));
        return gate.decideLink(input, reading);
      },
      decide: (line) => {
        asked.push(JSON.stringify(line));
        return gate.decide(line);
      },
    };
    const twice = JSON.stringify({ content: [linkTo(metadata), linkTo(metadata)] });
    const item = { uri: doc, mimeType: 'application/json', text: twice };
    const { handed } = await read([item, item], 'enforce', counting);
    expect(handed).not.toContain(hostPath);
    expect(asked.filter((a) => a.includes('169.254.169.254'))).toHaveLength(1);
  });

  test('observe mode hands the body on as it came and records the partial decision', async () => {
    const item = { uri: doc, mimeType: 'application/json', text: resultText(metadata) };
    const { flow, read: decided } = await read([item], 'observe');
    expect(flow.contents).toEqual([item]);
    expect(decided?.effect).toBe('partial');
  });
});

describe('controls and what stays a document', () => {
  test('an ordinary link in a JSON body is handed on unchanged, the read allowed', async () => {
    const item = { uri: doc, mimeType: 'application/json', text: resultText(ordinary) };
    const { flow, read: decided } = await read([item]);
    expect(flow.contents).toEqual([item]);
    expect(decided?.effect).toBe('allow');
    expect(flow.record.verdict).toBe('body-obtained');
  });

  test.each([
    ['prose naming the address', { mimeType: 'text/plain', text: `the keys are at ${metadata}` }],
    ['JSON text declared text/plain', { mimeType: 'text/plain', text: resultText(metadata) }],
  ])('%s: a document, untouched', async (_, body) => {
    const item = { uri: doc, ...body };
    const { flow, read: decided } = await read([item]);
    expect(flow.contents).toEqual([item]);
    expect(decided?.effect).toBe('allow');
  });
});

describe('fails closed', () => {
  test('a JSON body naming a member twice is withheld', async () => {
    const text = `{"content":[${JSON.stringify(linkTo(ordinary))}],"content":[${JSON.stringify(linkTo(metadata))}]}`;
    const { flow, handed, read: decided } = await read([{ uri: doc, mimeType: 'application/json', text }]);
    expect(flow.contents).toEqual([]);
    expect(handed).not.toContain(hostPath);
    expect(decided?.effect).toBe('deny');
    expect(codes(decided?.reasons)).toContain('content.shape');
  });

  test('a JSON body past the depth limit is withheld, the other items delivered', async () => {
    const deep = `${'['.repeat(structuredLimits.maxDepth + 2)}${JSON.stringify(linkTo(metadata))}${']'.repeat(structuredLimits.maxDepth + 2)}`;
    const plain = { uri: doc, mimeType: 'text/plain', text: 'hello' };
    const { flow, handed, read: decided } = await read([{ uri: doc, mimeType: 'application/json', text: deep }, plain]);
    expect(handed).not.toContain(hostPath);
    expect(flow.contents).toEqual([plain]);
    expect(decided?.effect).toBe('partial');
    expect(codes(decided?.items?.[0]?.reasons)).toContain('content.too-complex');
    expect(flow.record.stages.delivered?.dropped.map((d) => d.index)).toEqual([0]);
  });
});
