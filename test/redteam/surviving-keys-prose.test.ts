// Red team, surviving links: a uri the gate refuses as a link of a tool result must not reach the host elsewhere in
// the same result. `structuredContent` strings and JSON text values holding it were replaced; two places were not:
// an object's key (a map keyed by uri: `{"http://169.254.169.254/…": {…}}`, or a key of prose naming it), and a text
// item that is not JSON ("the credentials are at http://169.254.169.254/…", word for word). Both reached the host
// whole, through the proxy and the decorator. A key cannot be replaced in place: the value that holds it is withheld
// with the refused link's notice; prose becomes the notice, as a prose string in `structuredContent` does.
import { afterEach, describe, expect, test } from 'vitest';
import { call, closeAll, decorated, hostPath, link, metadata, proxied } from './scripted-host.ts';

afterEach(closeAll);

const safe = 'https://docs.example.com/guide';
const cases: [string, Record<string, unknown>][] = [
  [
    'a structuredContent key that is the refused uri',
    { content: [link(metadata)], structuredContent: { [metadata]: { role: 'x' } } },
  ],
  [
    'a structuredContent key of prose naming it',
    { content: [link(metadata)], structuredContent: { nested: { [`creds at ${metadata}`]: 1 } } },
  ],
  [
    'a JSON text item whose key is the refused uri',
    { content: [link(metadata), { type: 'text', text: JSON.stringify({ [metadata]: 1 }) }] },
  ],
  [
    'a prose text item naming it',
    { content: [link(metadata), { type: 'text', text: `the credentials are at ${metadata} today` }] },
  ],
  [
    'a prose text item naming it, uppercased and without its scheme',
    { content: [link(metadata), { type: 'text', text: `see ${metadata.slice(7).toUpperCase()}` }] },
  ],
];

for (const [front, answer] of [
  ['proxy', async (result: unknown) => call((await proxied()).host, { result })],
  [
    'decorator',
    async (result: unknown) => (await decorated()).client.callTool({ name: 'result', arguments: { result } }),
  ],
] as const)
  describe(`red team, surviving links through the ${front}`, () => {
    for (const [label, result] of cases)
      test(label, async () => {
        const got = JSON.stringify(await answer(result));
        expect(got).not.toContain(hostPath);
        expect(got.toLowerCase()).not.toContain(hostPath);
        expect(got).toContain('linkgate refused the link');
      });

    test('controls: prose, keys and uris of allowed links pass as they came', async () => {
      const result = {
        content: [link(safe, 'guide'), { type: 'text', text: `read ${safe} first` }],
        structuredContent: { [safe]: { note: `see ${safe}` } },
      };
      const got = JSON.stringify(await answer(result));
      expect(got).toContain(`read ${safe} first`);
      expect(got).toContain(JSON.stringify({ [safe]: { note: `see ${safe}` } }));
      expect(got).not.toContain('linkgate refused');
    });
  });
