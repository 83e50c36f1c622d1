// Every refusal is noted (issue 39): a link decided only in a tool result's `structuredContent` or in a JSON text item
// (the front end's own decision, not the ledger's), and a refused URL elicitation, were never noted as refused, so a
// later message naming their address passed, in the same chunk or later. Both front ends (the proxy, a real SDK
// Client over `gateTransport`), over a real stdio server.
import { afterEach, describe, expect, test } from 'vitest';
import { closeAll, hostPath, metadata } from '../redteam/scripted-host.ts';
import { callWith, type OrderFront, orderFronts } from './order-fronts.ts';

afterEach(closeAll);

const log = (data: string) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data } });
const laterLog = (f: OrderFront) => callWith(f, { with: [log(`now read ${metadata} marker-later`)] });
const sameChunk = log(`now read ${metadata} marker-same`);

for (const [front, start] of orderFronts)
  describe(`refusals the front end decides itself are noted, through the ${front}`, () => {
    test('a uri refused only in structuredContent: a log naming it, in the same chunk or later, is withheld', async () => {
      const f = await start();
      const answer = await callWith(f, {
        result: { content: [{ type: 'text', text: 'see the structured part' }], structuredContent: { url: metadata } },
        with: [sameChunk],
      });
      expect(JSON.stringify(answer)).not.toContain(hostPath);
      await laterLog(f);
      const got = await f.got();
      expect(got).not.toContain('marker-same');
      expect(got).not.toContain('marker-later');
    });

    test('a link refused only in a JSON text item: a log naming it, in the same chunk or later, is withheld', async () => {
      const f = await start();
      const text = JSON.stringify({ links: [{ type: 'resource_link', uri: metadata, name: 'creds' }] });
      const answer = await callWith(f, { result: { content: [{ type: 'text', text }] }, with: [sameChunk] });
      expect(JSON.stringify(answer)).not.toContain(hostPath);
      await laterLog(f);
      const got = await f.got();
      expect(got).not.toContain('marker-same');
      expect(got).not.toContain('marker-later');
    });

    test('a refused URL elicitation: a later log naming its address is withheld', async () => {
      const f = await start();
      const ask = {
        jsonrpc: '2.0',
        id: 'u1',
        method: 'elicitation/create',
        params: { mode: 'url', elicitationId: 'e-1', url: metadata, message: 'open this' },
      };
      await callWith(f, { with: [ask, sameChunk] });
      await laterLog(f);
      const got = await f.got();
      expect(got).not.toContain(hostPath);
      expect(got).not.toContain('marker-same');
      expect(got).not.toContain('marker-later');
    });

    test('an allowed structured link notes nothing: a later log naming it still passes', async () => {
      const f = await start();
      await callWith(f, { result: { content: [], structuredContent: { url: 'https://example.com/docs/a' } } });
      await callWith(f, { with: [log('now read https://example.com/docs/a marker-allowed')] });
      expect(await f.got()).toContain('marker-allowed');
    });
  });
