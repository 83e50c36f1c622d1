// The shared set-up of the SDK suites that gate a real stdio server: one gate from a policy file, the closers run
// after each test, the spawn parameters of the server, and a raw host's round trip to the server's sampling request.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeAll } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { tsServer } from '../e2e/run-probe.ts';

type Json = Record<string, unknown>;

/** What {@link useStdioGate} gives a suite. */
export interface StdioGateFixture {
  /** The gate built from the policy (read it inside a test). */
  readonly gate: Gate;
  /** Closers run (and emptied) after each test. */
  readonly closers: (() => Promise<void>)[];
  /** The stdio spawn parameters of the server file. */
  readonly serverParams: () => { command: string; args: string[]; stderr: 'ignore' };
}

/** Registers the suite's hooks: a gate from `policyPath` before all, the closers after each; `serverFile` is spawned. */
export function useStdioGate(policyPath: string, serverFile: string): StdioGateFixture {
  let gate: Gate;
  beforeAll(async () => {
    gate = createGate(await loadPolicy(policyPath));
  });
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  return {
    get gate() {
      return gate;
    },
    closers,
    serverParams: () => {
      const [command, ...args] = tsServer(serverFile);
      return { command: command as string, args, stderr: 'ignore' as const };
    },
  };
}

/**
 * Starts `transport` as a raw host with sampling, calls the server's `sample` tool and returns the content of the
 * first message of the sampling request the server sends back.
 */
export async function sampledContent(transport: Transport): Promise<Json[]> {
  return (await sampledMessages(transport))[0]?.content ?? [];
}

/** As {@link sampledContent}, calling the server's tool `tool`: every message of the sampling request. */
export async function sampledMessages(transport: Transport, tool = 'sample'): Promise<{ content: Json[] }[]> {
  let sampled: (message: Json) => void = () => {};
  const sampling = new Promise<Json>((resolve) => (sampled = resolve));
  transport.onmessage = (message) => {
    if ((message as Json)['method'] === 'sampling/createMessage') sampled(message);
  };
  await transport.start();
  const send = (message: Json) => transport.send(message as JSONRPCMessage);
  await send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: { sampling: {} },
      clientInfo: { name: 'raw', version: '1' },
    },
  });
  await send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool, arguments: {} } });
  const request = await sampling;
  return (request['params'] as { messages: { content: Json[] }[] }).messages;
}
