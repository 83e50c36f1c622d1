// Two tool calls answered the other way round (red team round 7, order): the later call's answer, refusing a link,
// comes first, then the earlier call's answer, which names its address. Through the proxy (raw bytes from the
// scripted stdio server) and through the decorator (a real SDK client over `gateTransport`).
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { call, decorated, proxied, settled } from './scripted-host.ts';

type Json = Record<string, unknown>;

/** Through the proxy: every line the host got, once the earlier call was answered with `earlier` after `refusing` (`"$id"`: the later call's id). */
export async function proxyTwoCalls(refusing: Json, earlier: Json): Promise<string> {
  const { host } = await proxied();
  host.send({
    jsonrpc: '2.0',
    id: 'c1',
    method: 'tools/call',
    params: { name: 'result', arguments: { answer: false } },
  });
  await call(host, { answer: false, after: [refusing, { jsonrpc: '2.0', id: 'c1', result: earlier }] });
  return settled(host);
}

/** Through the decorator: what the host got for the later call and for the earlier one (its answer or its error), as text. */
export async function decoratorTwoCalls(refusing: Json, earlier: Json): Promise<{ later: string; earlier: string }> {
  const { client } = await decorated();
  const first = client.request(
    { method: 'tools/call', params: { name: 'result', arguments: { answer: false } } },
    ResultSchema,
  );
  // the SDK numbers its requests: initialize 0, the held call 1, this call 2
  const answer = { jsonrpc: '2.0', id: 1, result: earlier };
  const second = await client.request(
    { method: 'tools/call', params: { name: 'result', arguments: { answer: false, after: [refusing, answer] } } },
    ResultSchema,
  );
  return { later: JSON.stringify(second), earlier: JSON.stringify(await first.catch((e: Error) => e.message)) };
}
