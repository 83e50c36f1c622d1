// Red team (issue 39, round 7, lead): the order case of round7-order-adapters with the link refused inside a JSON text
// item or `structuredContent` (the proxy decides those itself and notes the refusal as it judges the answer): the
// later call answered first with the refused link, then, in the same chunk, the earlier call's answer naming its
// address. The earlier answer must wait for the refusal to be noted, whichever part of the result refused it.
//
// Got through when written (older than this session: it fails on c99580b^ too), `test.fails` until mended: one server
// batch answering two calls through the proxy, the address in the first answer and the link refused inside a JSON text
// item or `structuredContent` of the second. The decorator passes a member with no `content` link on at once while
// nothing is refused yet (`src/sdk/route-tool-result.ts`, the `found.length === 0` route), and the batch's sibling
// search (`src/sdk/batch-refusals.ts`) knows only the links the decorator decided, not those the proxy decides itself
// in JSON texts and `structuredContent` (`src/proxy/gate-result-items.ts`), so the first answer has gone on before the
// second's refusal is noted. A mend: a batch member waits for every sibling's noting, the proxy's own included.
import { afterEach, describe, expect, test } from 'vitest';
import { call, closeAll, hostPath, link, metadata, proxied, settled } from './scripted-host.ts';
import { decoratorTwoCalls, proxyTwoCalls } from './two-calls.ts';

afterEach(closeAll);

const prose = (text: string) => ({ type: 'text', text });
const told = `the keys are at ${metadata} now`;
const refusals: [string, (id: unknown) => Record<string, unknown>][] = [
  [
    'a JSON text item',
    (id) => ({ jsonrpc: '2.0', id, result: { content: [prose(JSON.stringify({ link: link(metadata, 'creds') }))] } }),
  ],
  [
    'structuredContent',
    (id) => ({
      jsonrpc: '2.0',
      id,
      result: { content: [prose('see the data')], structuredContent: { link: link(metadata, 'creds') } },
    }),
  ],
];

describe('red team, order (round 7): a refusal inside a JSON text or structuredContent, then an answer naming it', () => {
  for (const [where, refusing] of refusals) {
    test(`proxy: refused in ${where}, the earlier call's answer after it names the address`, async () => {
      expect(await proxyTwoCalls(refusing('$id'), { content: [prose(told)] })).not.toContain(hostPath);
    });

    test(`decorator: refused in ${where}, the earlier call's answer after it names the address`, async () => {
      const got = await decoratorTwoCalls(refusing('$id'), { content: [prose(told)] });
      expect(got.later).not.toContain(hostPath);
      expect(got.earlier).not.toContain(hostPath);
    });
  }
});

const open = new Set<string>(['two answers a JSON text item', 'two answers structuredContent']);
const it = (key: string) => (open.has(key) ? test.fails : test);

// round 6's batch cases with the refusal inside a JSON text item or structuredContent
const log = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `see ${metadata}` } };
describe('red team, order (round 7): server batches, the refusal inside a JSON text or structuredContent', () => {
  for (const [where, refusing] of refusals) {
    test(`proxy: one batch, the answer refused in ${where}, then a log naming its address`, async () => {
      const { host } = await proxied();
      await call(host, { answer: false, after: [[refusing('$id'), log]] });
      expect(await settled(host)).not.toContain(hostPath);
    });

    test(`proxy: one batch, a log naming the address, then the answer refused in ${where}`, async () => {
      const { host } = await proxied();
      await call(host, { answer: false, after: [[log, refusing('$id')]] });
      expect(await settled(host)).not.toContain(hostPath);
    });

    it(`two answers ${where}`)(
      `proxy: one batch answering two calls, the address in the first, the refusal in ${where} of the second`,
      async () => {
        const { host } = await proxied();
        host.send({
          jsonrpc: '2.0',
          id: 'c1',
          method: 'tools/call',
          params: { name: 'result', arguments: { answer: false } },
        });
        const both = [{ jsonrpc: '2.0', id: 'c1', result: { content: [prose(`curl ${metadata}`)] } }, refusing('$id')];
        await call(host, { answer: false, after: [both] });
        expect(await settled(host)).not.toContain(hostPath);
      },
    );
  }
});
