// What the hidden-style red team's proxy and decorator cases share: both front ends before the answering server
// (answering-server.ts), each giving one `request` (the raw answer: `result` or `error`) and `got`, everything the
// front end handed the host so far, as one string, taken once the host's `ping` came back (the server answers in
// order: a barrier). The decorator is a real SDK client over `gateTransport` (form elicitation and sampling capable),
// its host side tapped where the transport hands messages to the client.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, McpError, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { tsServerCommand } from '../real-host/fixture-process.ts';
import { onClose, policyFile, proxied, scratch } from './scripted-host.ts';

type Json = Record<string, unknown>;

/** The answering server's source file. */
export const answeringServer = path.join(import.meta.dirname, 'answering-server.ts');

/** One front end as a host sees it. */
export interface Front {
  /** sends a request and resolves with its raw answer (`{result}` or `{error}`) */
  request(method: string, params?: Json): Promise<Json>;
  /** everything the front end handed the host so far (after a `ping` round trip) */
  got(): Promise<string>;
}

/** The answering server's tool `result` called with `args`, through `front`. */
export const callWith = (front: Front, args: Json) => front.request('tools/call', { name: 'result', arguments: args });

async function proxyFront(): Promise<Front> {
  const { host } = await proxied(undefined, answeringServer);
  return {
    request: (method, params) => host.request(method, params ?? {}),
    got: async () => {
      await host.request('ping');
      return host.lines.join('\n');
    },
  };
}

async function decoratorFront(): Promise<Front> {
  const dir = await scratch();
  const [command, ...args] = tsServerCommand(answeringServer) as [string, ...string[]];
  const inner = new StdioClientTransport({
    command,
    args,
    env: { PATH: process.env['PATH'] ?? '', RT_REQUEST_LOG: path.join(dir, 'r.jsonl') },
    stderr: 'ignore',
  });
  const gate = createGate(await loadPolicy(policyFile));
  const client = new Client({ name: 'rt', version: '1' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
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
export const fronts = [
  ['proxy', proxyFront],
  ['decorator', decoratorFront],
] as const;
