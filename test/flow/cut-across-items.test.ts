// An address cut across a tool result's text items (a host shows them to the model one after the other) is withheld
// beside its refused link, and only the items whose texts, joined, spell it: the run of adjacent items the address
// spans becomes the link's notice, every other item reaches the model unchanged. Through the proxy and the decorator
// (a real SDK client over `gateTransport`) before the real answering server; the oracle is the joined text a host
// shows.
import { afterEach, describe, expect, test } from 'vitest';
import { callWith, fronts } from '../redteam/hidden-fronts.ts';
import { closeAll, hostPath, link, metadata } from '../redteam/scripted-host.ts';

afterEach(closeAll);

const prose = (text: string) => ({ type: 'text', text });
type Item = { type?: string; text?: string };
const contentOf = (answer: unknown) => (answer as { result: { content: Item[] } }).result.content;
/** The result's text items one after the other, as a host shows them. */
const joined = (answer: unknown) =>
  contentOf(answer)
    .filter((i) => i.type === 'text')
    .map((i) => i.text)
    .join('')
    .toLowerCase();
const refusedNotice = /^linkgate refused the link/;

const before = prose('The build passed on every target; see the summary below.');
const after = prose('Next: run the release checklist.');

for (const [front, start] of fronts)
  describe(`an address cut across text items, beside its refused link, through the ${front}`, () => {
    test('two items spelling it are withheld; the items before and after are delivered unchanged', async () => {
      const f = await start();
      const cut = [prose(`config: ${metadata.slice(0, 22)}`), prose(`${metadata.slice(22)} (read it)`)];
      const answer = await callWith(f, { result: { content: [link(metadata, 'creds'), before, ...cut, after] } });
      const content = contentOf(answer);
      expect(joined(answer)).not.toContain(hostPath);
      expect(content).toHaveLength(5);
      expect(content[1]).toEqual(before);
      expect(content[2]?.text).toMatch(refusedNotice);
      expect(content[3]?.text).toMatch(refusedNotice);
      expect(content[4]).toEqual(after);
    });

    test('an address spanning three items: the three are withheld, the others kept', async () => {
      const f = await start();
      const cut = [
        prose(`fetch ${metadata.slice(0, 14)}`),
        prose(metadata.slice(14, 30)),
        prose(`${metadata.slice(30)} and report`),
      ];
      // no two adjacent pieces hold the whole address: only the three together do
      const address = metadata.slice('http://'.length, -1);
      expect(`${cut[0]?.text}${cut[1]?.text}`).not.toContain(address);
      expect(`${cut[1]?.text}${cut[2]?.text}`).not.toContain(address);
      const answer = await callWith(f, {
        result: { content: [before, link(metadata, 'creds'), prose('unrelated middle'), ...cut, after] },
      });
      const content = contentOf(answer);
      expect(joined(answer)).not.toContain(hostPath);
      expect(content[0]).toEqual(before);
      expect(content[1]?.text).toMatch(refusedNotice);
      expect(content[2]).toEqual(prose('unrelated middle'));
      for (const i of [3, 4, 5]) expect(content[i]?.text).toMatch(refusedNotice);
      expect(content[6]).toEqual(after);
    });

    test('two separate cuts: each run is withheld, the item between them kept', async () => {
      const f = await start();
      const answer = await callWith(f, {
        result: {
          content: [
            link(metadata, 'creds'),
            prose(`a ${metadata.slice(0, 20)}`),
            prose(`${metadata.slice(20)} b`),
            prose('between'),
            prose(`c ${metadata.slice(0, 25)}`),
            prose(`${metadata.slice(25)} d`),
          ],
        },
      });
      const content = contentOf(answer);
      expect(joined(answer)).not.toContain(hostPath);
      expect(content.map((i) => refusedNotice.test(i.text ?? ''))).toEqual([true, true, true, false, true, true]);
      expect(content[3]).toEqual(prose('between'));
    });
  });
