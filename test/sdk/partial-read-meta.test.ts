// A read the gate delivers in part (one item allowed, another withheld) carries its decision under the result's
// `_meta`: as every other decision handed on beside what the gate changed (`shownDecision`), each reason whose message
// is not the policy's shows its code only, so nothing the withheld item's body spells (a pdf filter's name) reaches
// the host. The proxy and a real SDK client over `gateTransport`
// before the one-write server. Fails on main before route-read.ts's `answerHost` showed the decision.
import { afterEach, describe, expect, test } from 'vitest';
import { marker, text, uri } from '../fixtures/body-quoting-reads.ts';
import { closeAll } from '../redteam/scripted-host.ts';
import { callWith, orderFronts } from './order-fronts.ts';

afterEach(closeAll);

const listing = { content: [{ type: 'resource_link', uri, name: 'guide', mimeType: 'text/markdown' }] };
const kept = text('text/plain', 'the kept part of the guide');
// a pdf object stream under a filter the gate cannot undo is uninterpretable (partial), its finding quoting the
// filter's name, which the server wrote
const pdf = [
  '%PDF-1.4',
  `1 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /X${marker} /Length 8 >>\nstream\nabcdefgh\nendstream\nendobj`,
  'trailer\n<< /Root 1 0 R >>\n%%EOF\n',
].join('\n');
const partials: [string, Record<string, unknown>][] = [
  [
    'a pdf whose filter spells an address',
    { uri, mimeType: 'application/pdf', blob: Buffer.from(pdf).toString('base64') },
  ],
];

for (const [front, start] of orderFronts)
  describe(`a read the ${front} delivers in part`, () => {
    test.each(partials)('%s: the decision under `_meta` names none of it', async (_, withheld) => {
      const f = await start();
      await callWith(f, { result: listing, answers: { 'resources/read': { result: { contents: [kept, withheld] } } } });
      const answer = await f.request('resources/read', { uri });
      const handed = JSON.stringify(answer);
      expect(handed).toContain('the kept part of the guide');
      expect(handed).toContain('"effect":"partial"');
      expect(handed).not.toContain(marker);
      expect(await f.got()).not.toContain(marker);
    });
  });
