// A string of a tool result whose whole text is one JSON object or array is structured data, judged as such however
// deep (issue 39, red team round 12 F3–F6): a refused link in the JSON text of a `structuredContent` string, of an
// embedded JSON resource inside a JSON text, or of a JSON blob does not survive; an ordinary JSON string passes
// unchanged; a string past the limits withholds the whole value; and each string is parsed once (work counted in
// characters handed to `JSON.parse`, not timed).
import { afterEach, beforeAll, expect, test, vi } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { judgeJsonTexts } from '../../src/flow/json-text-links.ts';
import { applyStructured, judgeStructured, structuredLimits } from '../../src/flow/structured-links.ts';
import { judgeMessages } from '../../src/flow/judge-embedded.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';

let gate: Gate;
beforeAll(async () => {
  gate = createGate(await loadPolicy('policies/default.yaml'));
});
afterEach(() => vi.restoreAllMocks());

const refused = 'http://169.254.169.254/latest/meta-data/';
const ordinary = 'https://docs.example/guide/a.txt';
const link = (uri: string) => ({ type: 'resource_link', uri, name: 'next' });
const resultText = (uri: string) => JSON.stringify({ content: [link(uri)] });
const enforce = { server: 'docs', mode: 'enforce' } as const;

test('a structuredContent string that is the JSON of a refused link becomes its judged JSON', async () => {
  const structured = { payload: JSON.stringify(link(refused)), other: 'kept' };
  const judged = await judgeStructured(gate, structured, enforce);
  const applied = applyStructured(structured, judged) as Record<string, unknown>;
  expect(JSON.stringify(applied)).not.toContain('169.254.169.254');
  expect(applied['other']).toBe('kept');
  // still one JSON text, the link's notice item in its place
  expect((JSON.parse(applied['payload'] as string) as Record<string, unknown>)['type']).toBe('text');
});

test('JSON three strings deep: the refused link is found, and each level is serialized again', async () => {
  const inner = JSON.stringify({ content: [{ type: 'resource', resource: { text: resultText(refused) } }] });
  const structured = { a: [JSON.stringify({ b: inner })] };
  const judged = await judgeStructured(gate, structured, enforce);
  expect(judged.withheld).toBe(false);
  expect(judged.withheld ? [] : judged.edits.map((e) => e.path)).toEqual([['a', 0]]);
  expect(JSON.stringify(applyStructured(structured, judged))).not.toContain('169.254.169.254');
});

test('an ordinary JSON string (an allowed link, or no link) passes unchanged', async () => {
  const structured = { payload: JSON.stringify(link(ordinary)), data: '{"n": [1, 2, {"k": "v"}]}', brace: '{not json' };
  const judged = await judgeStructured(gate, structured, enforce);
  expect(judged).toEqual({ withheld: false, edits: [] });
});

test('a JSON string nested past the depth limit withholds the whole value, never skipped', async () => {
  const deep = `${'['.repeat(structuredLimits.maxDepth)}"${refused}"${']'.repeat(structuredLimits.maxDepth)}`;
  const judged = await judgeStructured(gate, { a: { b: deep } }, enforce);
  expect(judged.withheld).toBe(true);
  // and one naming a member twice is withheld too (readers differ on which counts)
  const twice = await judgeStructured(gate, { a: '{"type":"resource_link","type":"text"}' }, enforce);
  expect(twice.withheld).toBe(true);
});

test('an embedded resource whose blob is declared JSON is judged as its text', async () => {
  const blob = (uri: string) => ({
    type: 'resource',
    resource: {
      uri: 'rt://r.json',
      mimeType: 'application/json',
      blob: Buffer.from(resultText(uri)).toString('base64'),
    },
  });
  const edits = await judgeJsonTexts(gate, [blob(refused)], enforce, true);
  expect(edits.map((e) => e.path)).toEqual([[]]);
  expect(edits[0]?.text).not.toContain('169.254.169.254');
  expect(await judgeJsonTexts(gate, [blob(ordinary)], enforce, true)).toEqual([]);
});

test("a prompt message's embedded JSON resource holding a refused link is judged", async () => {
  const messages = (uri: string) => [
    { role: 'user', content: { type: 'resource', resource: { uri: 'rt://p.json', text: resultText(uri) } } },
  ];
  const judged = await judgeMessages(gate, messages(refused), 'enforce', 'docs');
  expect(judged.messages).not.toBeNull();
  expect(JSON.stringify(judged.messages)).not.toContain('169.254.169.254');
  expect((await judgeMessages(gate, messages(ordinary), 'enforce', 'docs')).messages).toBeNull();
});

test('a 1 MiB tool result of JSON in JSON strings is parsed once per string: work linear in its size', async () => {
  // 64 strings each holding a JSON text holding 64 strings of JSON, about 1 MiB in all
  const leaf = JSON.stringify({ items: [{ uri: ordinary, n: 1 }], note: 'word '.repeat(40) });
  const middle = JSON.stringify({ parts: Array.from({ length: 64 }, () => leaf) });
  const text = JSON.stringify({ content: Array.from({ length: 64 }, () => ({ type: 'text', text: middle })) });
  expect(text.length).toBeGreaterThan(1024 * 1024);
  const parse = vi.spyOn(JSON, 'parse');
  const edits = await judgeJsonTexts(gate, [{ type: 'text', text }], enforce, true);
  expect(edits).toEqual([]);
  const parsed = parse.mock.calls.reduce((n, [t]) => n + String(t).length, 0);
  // the outer text once, each middle string once (and its quoted literal once, by the outer text's member-name
  // scan), each leaf once: less than four times the text's characters, where a parse per level and string
  // re-opened per edit or per level would grow with the strings' count
  expect(parsed).toBeLessThan(4 * text.length);
});
