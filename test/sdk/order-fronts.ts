// Both front ends before the one-write server (one-write-server.ts), for the order and coverage cases of the refused
// address search: the in-process proxy under a raw host, and a real SDK client over `gateTransport` (sampling and
// elicitation capable, both answered at once), its host side tapped where the transport hands messages to the client.
// `got` is everything the front end handed the host so far, as one string, once a `ping` came back (the server
// answers in order: a barrier).
import path from 'node:path';
import { gatedClientFront } from '../redteam/hidden-fronts.ts';
import { proxied } from '../redteam/scripted-host.ts';

type Json = Record<string, unknown>;

/** The one-write server's source file. */
export const oneWriteServer = path.join(import.meta.dirname, 'one-write-server.ts');

/** One front end as a host sees it. */
export interface OrderFront {
  /** sends a request and resolves with its raw answer (`{result}` or `{error}`) */
  request(method: string, params?: Json): Promise<Json>;
  /** everything the front end handed the host so far (after a `ping` round trip) */
  got(): Promise<string>;
}

/** The server's tool `result` called with `args` (`result`, `with`, `answers`), through `front`. */
export const callWith = (front: OrderFront, args: Json) =>
  front.request('tools/call', { name: 'result', arguments: args });

async function proxyFront(): Promise<OrderFront> {
  const { host } = await proxied(undefined, oneWriteServer);
  return {
    request: (method, params) => host.request(method, params ?? {}),
    got: async () => {
      await host.request('ping');
      return host.lines.join('\n');
    },
  };
}

const decoratorFront = () => gatedClientFront(oneWriteServer, {}, true);

/** The proxy and the decorator, each started on demand. */
export const orderFronts = [
  ['proxy', proxyFront],
  ['decorator', decoratorFront],
] as const;
