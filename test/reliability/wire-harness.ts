import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import { connectionByteCap } from '../../src/sdk/connection-byte-cap.ts';
import type { Policy } from '../../src/policy/policy.ts';
import { tsServer } from '../e2e/run-probe.ts';

/** The hand-written JSON-RPC server the reliability tests start. */
export const wireServerFile = 'test/fixtures/servers/wire-hostile-server.ts';

const permissive = z.looseObject({});

/** One event the wire server logged (`read`, `flood-stopped`, `stdin-closed`, …). */
export interface ServerEvent {
  pid: number;
  event: string;
  uri?: string;
  written?: number;
  complete?: boolean;
}

/** A started wire server with an SDK Client connected over stdio (optionally through `wrap`). */
export interface WireConnection {
  client: Client;
  stdio: StdioClientTransport;
  /** child pid, read right after start */
  pid: number;
  /** errors the Client reported (transport and protocol), in order */
  errors: Error[];
  /** the server's event log */
  events(): Promise<ServerEvent[]>;
  /** the raw result of tool `links` for `uris` */
  links(uris: readonly string[]): Promise<unknown>;
  close(): Promise<void>;
}

/** Starts the wire server with the stdio byte cap of `policy` and connects a Client. */
export async function connectWire(
  policy: Policy,
  options: { stubborn?: boolean; wrap?: (t: Transport) => Transport; marker?: string } = {},
): Promise<WireConnection> {
  const logFile = path.join(await mkdtemp(path.join(tmpdir(), 'linkgate-wire-')), 'events.jsonl');
  const [command, ...args] = tsServer(wireServerFile, ...(options.marker === undefined ? [] : [options.marker]));
  const stdio = new StdioClientTransport({
    command: command as string,
    args,
    env: { ...definedEnv(), HOSTILE_LOG: logFile, ...(options.stubborn === true ? { HOSTILE_STUBBORN: '1' } : {}) },
    stderr: 'ignore',
    maxBufferSize: connectionByteCap(policy),
  });
  const client = new Client({ name: 'reliability-host', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(options.wrap === undefined ? stdio : options.wrap(stdio));
  const pid = stdio.pid;
  if (pid === null) throw new Error('the wire server did not start');
  return {
    client,
    stdio,
    pid,
    errors,
    async events() {
      const text = await readFile(logFile, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as ServerEvent);
    },
    links: (uris) =>
      client.request({ method: 'tools/call', params: { name: 'links', arguments: { uris: [...uris] } } }, permissive),
    close: () => client.close(),
  };
}

/** True once no process with `pid` exists (it exited and was reaped), polling up to `withinMs`. */
export async function processGone(pid: number, withinMs = 3000): Promise<boolean> {
  const until = performance.now() + withinMs;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    if (performance.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Counts of the active resources keeping this process alive, by type (`Timeout`, `PipeWrap`, `ProcessWrap`, …). */
export function resourceCensus(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

/** The types whose count grew from `before` to now, after letting pending closes settle for up to `withinMs`. */
export async function leakedResources(
  before: Record<string, number>,
  withinMs = 3000,
): Promise<Record<string, number>> {
  const until = performance.now() + withinMs;
  for (;;) {
    const now = resourceCensus();
    const grown: Record<string, number> = {};
    for (const [type, count] of Object.entries(now))
      if (count > (before[type] ?? 0)) grown[type] = count - (before[type] ?? 0);
    if (Object.keys(grown).length === 0 || performance.now() > until) return grown;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function definedEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) out[k] = v;
  return out;
}
