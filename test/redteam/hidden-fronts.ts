// What the hidden-style red team's proxy and decorator cases share: both front ends before the answering server
// (answering-server.ts), each giving one `request` (the raw answer: `result` or `error`) and `got`, everything the
// front end handed the host so far, as one string, taken once the host's `ping` came back (the server answers in
// order: a barrier). The decorator is a real SDK client over `gateTransport` (form elicitation and sampling capable),
// its host side tapped where the transport hands messages to the client.
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
import { call, decorated, onClose, policyFile, proxied, scratch } from './scripted-host.ts';

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

/**
 * A real SDK client over `gateTransport` before the stdio server `file` (its environment `env`), form elicitation
 * declared and declined, sampling (and URL elicitation) declared and answered at once when `sampling` is set, its host
 * side tapped where the transport hands messages to the client.
 */
export async function gatedClientFront(
  file: string,
  env: Record<string, string> = {},
  sampling = false,
): Promise<Front> {
  const [command, ...args] = tsServerCommand(file) as [string, ...string[]];
  const inner = new StdioClientTransport({
    command,
    args,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stderr: 'ignore',
  });
  const gate = createGate(await loadPolicy(policyFile));
  const capabilities = sampling ? { sampling: {}, elicitation: { form: {}, url: {} } } : { elicitation: { form: {} } };
  const client = new Client({ name: 'rt', version: '1' }, { capabilities });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
  if (sampling)
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

const decoratorFront = async () =>
  gatedClientFront(answeringServer, { RT_REQUEST_LOG: path.join(await scratch(), 'r.jsonl') });

/** The proxy and the decorator, each started on demand. */
export const fronts = [
  ['proxy', proxyFront],
  ['decorator', decoratorFront],
] as const;

/**
 * Both front ends before the scripted server, each a `call` of its tool `result` and a `get` of a task by id (the
 * scripted server keeps tasks): a task handle, then its task from `tasks/get`.
 */
export const taskFronts = [
  [
    'proxy',
    async () => {
      const { host } = await proxied();
      return {
        call: (args: Json) => call(host, args),
        get: (taskId: string) => host.request('tasks/get', { taskId }),
      };
    },
  ],
  [
    'decorator',
    async () => {
      const { client } = await decorated();
      return {
        call: (args: Json) =>
          client.request({ method: 'tools/call', params: { name: 'result', arguments: args } }, ResultSchema),
        get: (taskId: string) =>
          client.request({ method: 'tasks/get', params: { taskId } }, ResultSchema).catch((e: Error) => e.message),
      };
    },
  ],
] as const;

/** The notices (text items and error messages, from `linkgate `) in `answer`. */
export function noticesIn(answer: unknown): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      // an SDK error's message starts `MCP error -32080: `
      const at = value.indexOf('linkgate ');
      if (at !== -1) found.push(value.slice(at));
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(answer);
  return found;
}
