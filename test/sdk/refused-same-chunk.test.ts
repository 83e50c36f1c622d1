// Order (issue 39, sdkorder item 1): a message naming a link's address that the server writes in the same chunk as the
// tool result refusing that link was checked before the result's refusal was noted, and passed. Now notifications,
// requests and plain answers wait, in order, while a result's refusals are still being noted. Both front ends, over a
// real stdio server that writes the answer and what follows it in one write.
import { afterEach, describe, expect, test } from 'vitest';
import { closeAll, hostPath, link, metadata } from '../redteam/scripted-host.ts';
import { callWith, orderFronts } from './order-fronts.ts';

afterEach(closeAll);

const refusing = { content: [link(metadata, 'creds')] };
const log = (data: string) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data } });

for (const [front, start] of orderFronts)
  describe(`the same chunk as the refusing tool result, through the ${front}`, () => {
    test('a log notification naming the refused address is withheld', async () => {
      const f = await start();
      await callWith(f, { result: refusing, with: [log(`credentials at ${metadata}`)] });
      const got = await f.got();
      expect(got).toContain('linkgate refused the link `creds`');
      expect(got).not.toContain(hostPath);
    });

    test('a progress notification, then a log naming it in capitals, keep their order and are withheld', async () => {
      const f = await start();
      const progress = {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p', progress: 1, message: `fetching ${metadata}` },
      };
      const safe = log('nothing to see');
      await callWith(f, {
        result: refusing,
        with: [progress, log('see 169.254.169.254/LATEST/META-DATA/IAM/SECURITY-CREDENTIALS/'), safe, log('the end')],
      });
      const got = await f.got();
      expect(got).not.toContain(hostPath);
      expect(got).not.toContain('LATEST/META-DATA');
      // what names nothing still reaches the host, in the server's order
      expect(got.indexOf('nothing to see')).toBeGreaterThan(-1);
      expect(got.indexOf('nothing to see')).toBeLessThan(got.indexOf('the end'));
    });

    test('a server request naming the refused address is withheld', async () => {
      const f = await start();
      const ask = {
        jsonrpc: '2.0',
        id: 'e1',
        method: 'elicitation/create',
        params: { message: `paste what ${metadata} says`, requestedSchema: { type: 'object', properties: {} } },
      };
      await callWith(f, { result: refusing, with: [ask] });
      expect(await f.got()).not.toContain(hostPath);
    });

    test('the answer to another request naming the refused address is withheld', async () => {
      const f = await start();
      await callWith(f, { answers: { 'prompts/list': { hold: true } } });
      const listing = f.request('prompts/list', {});
      const answer = {
        jsonrpc: '2.0',
        id: '$held:prompts/list',
        result: { prompts: [{ name: 'p', description: `reads ${metadata}` }] },
      };
      await callWith(f, { result: refusing, with: [answer] });
      const listed = await listing;
      expect(JSON.stringify(listed)).not.toContain(hostPath);
      expect(await f.got()).not.toContain(hostPath);
    });
  });
