// Red team (issue 39, hidden-style round 6), order: one server batch holding the answer that refuses a link and, after
// it, a log naming the refused address (the batch is noted in order, so the log is searched); a progress notification
// whose progress token is the refused address; a progress message for the host's own token naming the address, right
// after the answer refusing it; the refused answer and the log in one batch the other way round (the log first), and
// one batch answering two pending calls, the address in the first and its refusal in the second. Through the proxy
// (raw bytes from the real scripted stdio server) and, for progress, the decorator (the answering server).
import { afterEach, describe, expect } from 'vitest';
import { callWith, fronts } from './hidden-fronts.ts';
import { call, closeAll, hostPath, link, metadata, proxied, settled } from './scripted-host.ts';
import { caseKeys } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`). Fixed: a
// log before the refusing answer in one batch (the batch is noted as a whole while it is taken apart); one batch
// answering two calls, the address in the first (each tool result of a batch is searched for what the others refused,
// once all are decided: src/sdk/batch-refusals.ts; the decorator alone: round6-order-decorator.test.ts).
const open = new Set<string>();
const it = caseKeys(open);

const refusing = { jsonrpc: '2.0', id: '$id', result: { content: [link(metadata, 'creds')] } };
const log = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `see ${metadata}` } };

describe('red team, order (round 6) through the proxy: server batches', () => {
  it('batch answer then log')('one batch: the answer refusing the link, then a log naming its address', async () => {
    const { host } = await proxied();
    await call(host, { answer: false, after: [[refusing, log]] });
    expect(await settled(host)).not.toContain(hostPath);
  });

  it('batch log then answer')('one batch: a log naming the address, then the answer refusing its link', async () => {
    const { host } = await proxied();
    await call(host, { answer: false, after: [[log, refusing]] });
    expect(await settled(host)).not.toContain(hostPath);
  });

  it('batch two answers')(
    'one batch answering two pending calls: the refusal in the second, the address in the first',
    async () => {
      const { host } = await proxied();
      host.send({
        jsonrpc: '2.0',
        id: 'c1',
        method: 'tools/call',
        params: { name: 'result', arguments: { answer: false } },
      });
      const both = [
        { jsonrpc: '2.0', id: 'c1', result: { content: [{ type: 'text', text: `curl ${metadata}` }] } },
        refusing,
      ];
      await call(host, { answer: false, after: [both] });
      expect(await settled(host)).not.toContain(hostPath);
    },
  );
});

for (const [front, start] of fronts)
  describe(`red team, order (round 6) through the ${front}: progress tokens`, () => {
    it(`token ${front}`)('a progress notification whose token is the refused address', async () => {
      const f = await start();
      await callWith(f, { result: { content: [link(metadata, 'creds')] } });
      const progress = {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: metadata, progress: 1, total: 2 },
      };
      await callWith(f, { notify: [progress] });
      expect(await f.got()).not.toContain(hostPath);
    });

    it(`progress before answer ${front}`)(
      "a progress message naming the address, sent after the refusing answer but for the host's own token",
      async () => {
        const f = await start();
        const progress = {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 7, progress: 1, message: `reading ${metadata}` },
        };
        await f.request('tools/call', {
          name: 'result',
          arguments: { result: { content: [link(metadata, 'creds')] }, notify: [progress] },
          _meta: { progressToken: 7 },
        });
        expect(await f.got()).not.toContain(hostPath);
      },
    );
  });
