// The real SDK Clients (1.x `@modelcontextprotocol/sdk` and 2.x `@modelcontextprotocol/client`) over `gateTransport`
// on the fault server's stdio transport, behind one small interface so a test runs the same steps on both.
import path from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Gate } from '../../src/gate/create-gate.ts';
import type { EmbeddedRecord } from '../../src/record/embedded-record.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { callbackSink, type RecordSink } from '../../src/record/record-sink.ts';
import { type GateTransport, gateTransport } from '../../src/sdk/gate-transport.ts';
import { repoRoot } from './fake-gate.ts';
import { finishedInto } from './finished-records.ts';

/** Which SDK's Client a test runs. */
export type SdkMajor = '1.x' | '2.x';

/** What a test does with a connected client; each request carries `timeoutMs` as its own SDK request timeout. */
export interface FaultClient {
  callTool(
    name: string,
    timeoutMs: number,
  ): Promise<{ content: Record<string, unknown>[]; structuredContent?: unknown }>;
  readResource(uri: string, timeoutMs: number): Promise<{ contents: Record<string, unknown>[] }>;
  close(): Promise<void>;
  readonly transport: GateTransport;
  readonly records: LinkRecord[];
  readonly embedded: EmbeddedRecord[];
  /** errors the decorator reported through `onerror` */
  readonly errors: Error[];
  /** true once the connection closed */
  closed(): boolean;
}

const server = path.join(repoRoot, 'test/sdk/fault-server.ts');

/** The fault server's stdio transport for `major` (not gated), with `maxBufferSize` when given. */
export function faultStdio(major: SdkMajor, maxBufferSize?: number): Transport {
  const params = {
    command: process.execPath,
    args: ['--import', 'tsx', server],
    stderr: 'ignore' as const,
    ...(maxBufferSize === undefined ? {} : { maxBufferSize }),
  };
  return major === '1.x' ? new StdioV1(params) : new StdioV2(params);
}

/** A real Client of `major` connected through `gateTransport(inner)` with `gate`; records go to arrays (or `sink`). */
export async function connectFault(
  major: SdkMajor,
  gate: Gate,
  options: { inner?: Transport; sink?: RecordSink; mode?: 'enforce' | 'observe' } = {},
): Promise<FaultClient> {
  const records: LinkRecord[] = [];
  const embedded: EmbeddedRecord[] = [];
  const errors: Error[] = [];
  const sink = options.sink ?? callbackSink(finishedInto(records), (r) => void embedded.push(r));
  const transport = gateTransport(options.inner ?? faultStdio(major), {
    gate,
    server: 'fault',
    sink,
    ...(options.mode === undefined ? {} : { mode: options.mode }),
  });
  let closed = false;
  const info = { name: `fault-host-${major}`, version: '1.0.0' };
  const client = major === '1.x' ? new ClientV1(info) : new ClientV2(info);
  client.onerror = (error: Error) => void errors.push(error);
  client.onclose = () => {
    closed = true;
  };
  await client.connect(transport);
  const c = client as unknown as {
    callTool(params: { name: string }, schema?: unknown, options?: { timeout: number }): Promise<unknown>;
    readResource(params: { uri: string }, options?: { timeout: number }): Promise<unknown>;
  };
  return {
    transport,
    records,
    embedded,
    errors,
    closed: () => closed,
    async callTool(name, timeout) {
      // 1.x takes (params, resultSchema, options), 2.x (params, options)
      const result =
        major === '1.x'
          ? await c.callTool({ name }, undefined, { timeout })
          : await (c.callTool as (p: unknown, o: unknown) => Promise<unknown>)({ name }, { timeout });
      return result as { content: Record<string, unknown>[]; structuredContent?: unknown };
    },
    async readResource(uri, timeout) {
      return (await c.readResource({ uri }, { timeout })) as { contents: Record<string, unknown>[] };
    },
    close: () => client.close(),
  };
}
