// Both front ends before the one-write server (one-write-server.ts), for the order and coverage cases of the refused
// address search: the in-process proxy under a raw host, and a real SDK client over `gateTransport` (sampling and
// elicitation capable, both answered at once), its host side tapped where the transport hands messages to the client.
// `got` is everything the front end handed the host so far, as one string, once a `ping` came back (the server
// answers in order: a barrier).
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  McpError,
  ResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { tsServerCommand } from '../real-host/fixture-process.ts';
import { onClose, policyFile, proxied } from '../redteam/scripted-host.ts';

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

async function decoratorFront(): Promise<OrderFront> {
  const [command, ...args] = tsServerCommand(oneWriteServer) as [string, ...string[]];
  const inner = new StdioClientTransport({ command, args, env: { PATH: process.env['PATH'] ?? '' }, stderr: 'ignore' });
  const gate = createGate(await loadPolicy(policyFile));
  const client = new Client(
    { name: 'rt', version: '1' },
    { capabilities: { sampling: {}, elicitation: { form: {}, url: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
  client.setRequestHandler(CreateMessageRequestSchema, () => ({
    role: 'assistant',
    content: { type: 'text', text: 'ok' },
    model: 'm',
  }));
  const seen: string[] = [];
  const transport = gateTransport(inner, { gate, server: 'a', sink: callbackSink(() => {}) });
  await client.connect(transport);
  const handOn = transport.onmessage;
  transport.onmessage = (message, extra) => {
    seen.push(JSON.stringify(message));
    handOn?.(message, extra);
  };
  onClose(() => client.close());
  return {
    request: async (method, params) => {
      try {
        return { result: await client.request({ method, params }, ResultSchema, { timeout: 60_000 }) };
      } catch (error) {
        if (error instanceof McpError) return { error: { code: error.code, message: error.message, data: error.data } };
        throw error;
      }
    },
    got: async () => {
      await client.ping();
      return seen.join('\n');
    },
  };
}

/** The proxy and the decorator, each started on demand. */
export const orderFronts = [
  ['proxy', proxyFront],
  ['decorator', decoratorFront],
] as const;
