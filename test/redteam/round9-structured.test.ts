// Red team (issue 39, hidden-style round 9), a refused address surviving where rounds 5–8 did not put it: as a JSON
// member *name* (not a value) in `structuredContent`, in the result's `_meta` and in a JSON text item; a refused link
// nested deeper than any list the search walks (40 arrays) in `structuredContent`; a link under an odd key inside an
// array of arrays; the address in the `text` of an embedded resource inside `structuredContent` (the 2026-07-28 shape:
// any JSON). After the refusal (the address is known to the search) and on first sight (the link itself must be
// judged). Through the proxy and the decorator over the real answering server; controls: the same shapes with an
// ordinary address are handed on unchanged.
import { afterEach, describe, expect, test } from 'vitest';
import { callWith, fronts } from './hidden-fronts.ts';
import { closeAll, hostPath, link, metadata } from './scripted-host.ts';
import { caseKeys, prose } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

const nested = (value: unknown, depth: number): unknown => (depth === 0 ? value : [nested(value, depth - 1)]);

/** Whether the address is anywhere in what `answer` hands on, member names included. */
const handsOn = (answer: unknown) => JSON.stringify(answer).toLowerCase().includes(hostPath);

// [key, result holding the address after it was refused]
const after: [string, (uri: string) => Record<string, unknown>][] = [
  ['member name in structuredContent', (uri) => ({ content: [], structuredContent: { endpoints: { [uri]: 'ok' } } })],
  ['member name in _meta', (uri) => ({ content: [prose('done')], _meta: { 'x.example/next': { [uri]: true } } })],
  ['member name in a JSON text', (uri) => ({ content: [prose(JSON.stringify({ [uri]: { status: 200 } }))] })],
  ['40 arrays deep in structuredContent', (uri) => ({ content: [], structuredContent: { data: nested(uri, 40) } })],
  [
    'embedded resource text in structuredContent',
    (uri) => ({
      content: [],
      structuredContent: { items: [{ type: 'resource', resource: { uri: 'rt://a.txt', text: `see ${uri}` } }] },
    }),
  ],
];

// [key, result holding the refused link on first sight]
const first: [string, (uri: string) => Record<string, unknown>][] = [
  ['link 40 arrays deep', (uri) => ({ content: [], structuredContent: { data: nested(link(uri, 'x'), 40) } })],
  ['link under an odd key', (uri) => ({ content: [], structuredContent: { '': [[{ '\u0000': link(uri, 'x') }]] } })],
];

for (const [front, start] of fronts)
  describe(`red team, structured places (round 9) through the ${front}`, () => {
    for (const [key, result] of after)
      it(`${key} ${front}`)(`${key}, after the refusal, does not survive`, async () => {
        const f = await start();
        expect(JSON.stringify(await callWith(f, { result: { content: [link(metadata, 'creds')] } }))).toContain(
          'linkgate refused the link',
        );
        expect(handsOn(await callWith(f, { result: result(metadata) }))).toBe(false);
        expect(handsOn(await f.got())).toBe(false);
      });

    for (const [key, result] of first)
      it(`${key} ${front}`)(`a refused ${key} is judged`, async () => {
        const f = await start();
        expect(handsOn(await callWith(f, { result: result(metadata) }))).toBe(false);
      });

    test(`control: the same shapes with an ordinary address pass unchanged through the ${front}`, async () => {
      const f = await start();
      await callWith(f, { result: { content: [link(metadata, 'creds')] } });
      for (const [, result] of after) {
        const given = result('https://example.com/docs/a');
        const answer = (await callWith(f, { result: given })) as { result: Record<string, unknown> };
        expect(JSON.stringify(answer.result)).toContain('https://example.com/docs/a');
        expect(JSON.stringify(answer.result)).not.toMatch(/linkgate (?:refused|withheld)/);
      }
    });
  });
