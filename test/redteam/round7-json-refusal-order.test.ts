// Red team (issue 39, round 7, lead): the order case of round7-order-adapters with the link refused inside a JSON text
// item or `structuredContent` (the proxy decides those itself and notes the refusal as it judges the answer): the
// later call answered first with the refused link, then, in the same chunk, the earlier call's answer naming its
// address. The earlier answer must wait for the refusal to be noted, whichever part of the result refused it.
//
// Got through when written (older than session 9: it failed on c99580b^ too), mended by one ledger of a batch's
// refusals (`src/sdk/batch-refusals.ts`): one server batch answering two calls through the proxy, the address in the
// first answer and the link refused inside a JSON text item or `structuredContent` of the second. The decorator passed
// a member with no `content` link on at once, and the batch's sibling search knew only the links the decorator
// decided, not those the proxy decides itself (`src/proxy/gate-result-items.ts`). Now the proxy notes those in the
// batch's ledger too and hands no member to the host before every member was judged; a batch whose two answers name
// each other's refused address is answered (no member waits for another to be handed on) and withheld whole.
import { afterEach, describe, expect, test } from 'vitest';
import { call, closeAll, hostPath, link, metadata, proxied, settled } from './scripted-host.ts';
import { decoratorTwoCalls, proxyTwoCalls } from './two-calls.ts';
import { prose, told } from './round-cases.ts';

afterEach(closeAll);

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

    test(`proxy: one batch answering two calls, the address in the first, the refusal in ${where} of the second`, async () => {
      const got = await proxyBatch(naming(metadata), refusing('$id'));
      expect(got.lines).not.toContain(hostPath);
      // the first answer is the gate's error, the second its notice: both answered, in the server's batch
      expect(withheld(got.earlier)).toBe(true);
      expect(JSON.stringify(got.later)).toContain('linkgate');
    });
  }
});

// two answers of one batch, each refusing a link inside a JSON text and naming the address the other refused: each
// waits for the other's judging before it goes on, and neither waits for the other to go on (no deadlock)
const other = 'http://10.0.0.7/admin/keys';
describe('red team, order (round 7): a batch whose two answers name what the other refused', () => {
  const both = (id: unknown, refused: string, named: string) => ({
    jsonrpc: '2.0',
    id,
    result: { content: [prose(JSON.stringify({ link: link(refused, 'creds') })), prose(`curl ${named}`)] },
  });

  test('proxy: both answered, both withheld', async () => {
    const got = await proxyBatch(both('c1', other, metadata), both('$id', metadata, other));
    expect(got.lines).not.toContain(hostPath);
    expect(got.lines).not.toContain('10.0.0.7/admin');
    expect(withheld(got.earlier)).toBe(true);
    expect(withheld(got.later)).toBe(true);
  });
});

type Json = Record<string, unknown>;

// the earlier call's answer, naming `uri` in prose
function naming(uri: string): Json {
  return { jsonrpc: '2.0', id: 'c1', result: { content: [prose(`curl ${uri}`)] } };
}

// whether `answer` is the gate's error withholding an answer that names a refused address
function withheld(answer: Json): boolean {
  return JSON.stringify(answer['error'] ?? null).includes('linkgate withheld the answer');
}

// through the proxy: a call `c1` left waiting, then a call whose answer is one server batch of `earlier` (answering
// `c1`) and `later` (`"$id"`: answering that call); both answers and every line the host got
async function proxyBatch(earlier: Json, later: Json): Promise<{ earlier: Json; later: Json; lines: string }> {
  const { host } = await proxied();
  host.send({
    jsonrpc: '2.0',
    id: 'c1',
    method: 'tools/call',
    params: { name: 'result', arguments: { answer: false } },
  });
  const answer = await call(host, { answer: false, after: [[earlier, later]] });
  const first = await host.waitFor((m) => m['id'] === 'c1');
  return { earlier: first, later: answer, lines: await settled(host) };
}
