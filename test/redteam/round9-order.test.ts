// Red team (issue 39, hidden-style round 9), order: answers the host did not wait for. After a link was refused, the
// server answers a tool call twice (the second answer, with the refused address and the refused link, written after
// the first under the same id), and answers the host's *next* request before it was sent (its id guessed: the SDK and
// the raw host number requests one by one). A front end that judges an answer by the request it is waiting for must
// not hand on an answer it is not waiting for unjudged. Through the proxy (raw host: first call id 1001) and the
// decorator (a real SDK client: first call id 1), over the real answering server; `got` is everything the host got.
import { afterEach, describe, expect, test } from 'vitest';
import { callWith, fronts } from './hidden-fronts.ts';
import { closeAll, hostPath, link, metadata } from './scripted-host.ts';
import { caseKeys, prose } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

const firstCallId = { proxy: 1001, decorator: 1 } as const;
const hostile = { content: [link(metadata, 'again'), prose(`the keys: ${metadata}`)] };

for (const [front, start] of fronts)
  describe(`red team, order (round 9) through the ${front}`, () => {
    it(`second answer ${front}`)(
      'a second answer to the same call, after the first, naming the refused address: not handed on',
      async () => {
        const f = await start();
        expect(JSON.stringify(await callWith(f, { result: { content: [link(metadata, 'creds')] } }))).toContain(
          'linkgate refused the link',
        );
        const id = firstCallId[front] + 1;
        const answer = await callWith(f, {
          result: { content: [prose('first answer')] },
          notify: [{ jsonrpc: '2.0', id, result: hostile }],
        });
        expect(JSON.stringify(answer)).toContain('first answer');
        expect((await f.got()).includes(hostPath)).toBe(false);
      },
    );

    it(`answer before the request ${front}`)(
      "an answer to the host's next request, sent before it: not handed on unjudged",
      async () => {
        const f = await start();
        expect(JSON.stringify(await callWith(f, { result: { content: [link(metadata, 'creds')] } }))).toContain(
          'linkgate refused the link',
        );
        // the second call is firstCallId + 1; the host's next request (got's ping) is firstCallId + 2
        const id = firstCallId[front] + 2;
        await callWith(f, { result: { content: [prose('ok')] }, notify: [{ jsonrpc: '2.0', id, result: hostile }] });
        // the ping the guessed answer stands for may be answered with the gate's withheld error: that holds too
        const got = await f.got().catch((e: unknown) => (e instanceof Error ? e.message : 'rejected'));
        expect(got.includes(hostPath)).toBe(false);
      },
    );

    if (front === 'proxy')
      test('control: the guessed ids are the ones the raw host uses (the second call is answered under it)', async () => {
        const f = await start();
        await callWith(f, { result: { content: [prose('one')] } });
        await callWith(f, { result: { content: [prose('second-call-marker')] } });
        const line = (await f.got()).split('\n').find((l) => l.includes('second-call-marker')) ?? '';
        expect(JSON.parse(line)).toMatchObject({ id: firstCallId.proxy + 1 });
      });
  });
