// What the red team's proxy and decorator cases share: a raw host (test/proxy/raw-host.ts) through the in-process
// proxy before the real scripted stdio server (scripted-server.ts), a real SDK client over `gateTransport` before the
// same server, a barrier that waits for everything the server wrote before it, and the server's read log. Each test
// closes what it opened with `closeAll` (an `afterEach`).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { initialize, type RawHost, startRawHost } from '../proxy/raw-host.ts';
import { tsServerCommand } from '../real-host/fixture-process.ts';
import { repoRoot } from '../sdk/fake-gate.ts';

type Json = Record<string, unknown>;

/** The scripted server's source file. */
export const serverFile = path.join(import.meta.dirname, 'scripted-server.ts');
/** The shipped default policy. */
export const policyFile = path.join(repoRoot, 'policies/default.yaml');
/** A uri the default policy refuses (the cloud metadata address). */
export const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
/**
 * What must never reach the host: the address with its path (a refused link's decision `_meta` names the host alone,
 * a known leftover of issue 39 item 3).
 */
export const hostPath = '169.254.169.254/latest';
/** A `resource_link` item. */
export const link = (uri: string, name = 'doc') => ({ type: 'resource_link', uri, name, mimeType: 'text/plain' });

const closers: (() => Promise<unknown>)[] = [];

/** Runs `close` at the next `closeAll`, after those registered later. */
export function onClose(close: () => Promise<unknown>): void {
  closers.push(close);
}

/** Closes everything opened since the last call, newest first. */
export async function closeAll(): Promise<void> {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
}

/** A scratch folder, removed at `closeAll`. */
export async function scratch(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-redteam-'));
  onClose(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A raw host past its handshake, through the in-process proxy, before the scripted server; its read log. */
export async function proxied(gate?: Gate, file = serverFile): Promise<{ host: RawHost; log: string }> {
  const log = path.join(await scratch(), 'requests.jsonl');
  const [command, ...args] = tsServerCommand(file) as [string, ...string[]];
  process.env['RT_SERVER_NAME'] = 'a';
  process.env['RT_REQUEST_LOG'] = log;
  const host = startRawHost(gate ?? createGate(await loadPolicy(policyFile)), { kind: 'command', command, args });
  delete process.env['RT_SERVER_NAME'];
  delete process.env['RT_REQUEST_LOG'];
  onClose(async () => {
    host.end();
    await host.exit;
  });
  await initialize(host);
  return { host, log };
}

/** Everything the host got once its `ping` answer arrived (the server answers in order: a barrier). */
export async function settled(host: RawHost): Promise<string> {
  await host.request('ping');
  return host.lines.join('\n');
}

/** The uris the server was asked to read, in order. */
export async function reads(log: string): Promise<string[]> {
  const text = await readFile(log, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { uri: string }).uri);
}

/** Calls the scripted server's `result` tool with `args` (its result, messages before and after, tasks). */
export const call = (host: RawHost, args: Json) => host.request('tools/call', { name: 'result', arguments: args });

/** A stdio transport to the scripted server `a` (or the server `file`), its read log at `log`. */
export function scriptedTransport(log: string, file = serverFile): StdioClientTransport {
  const [command, ...args] = tsServerCommand(file) as [string, ...string[]];
  return new StdioClientTransport({
    command,
    args,
    env: { PATH: process.env['PATH'] ?? '', RT_SERVER_NAME: 'a', RT_REQUEST_LOG: log },
    stderr: 'ignore',
  });
}

/**
 * A real SDK client (sampling capable) over `gateTransport` before the scripted server `a` (or the server `file`); the
 * sampling requests it got, and the first one's arrival.
 */
export async function decorated(file = serverFile) {
  const inner = scriptedTransport(path.join(await scratch(), 'r.jsonl'), file);
  const gate = createGate(await loadPolicy(policyFile));
  const client = new Client({ name: 'rt', version: '1' }, { capabilities: { sampling: {} } });
  const sampled: unknown[] = [];
  let heard: () => void = () => {};
  const firstSampled = new Promise<void>((resolve) => {
    heard = resolve;
  });
  client.setRequestHandler(CreateMessageRequestSchema, (request) => {
    sampled.push(request.params);
    heard();
    return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'm' };
  });
  await client.connect(gateTransport(inner, { gate, server: 'a', sink: callbackSink(() => {}) }));
  onClose(() => client.close());
  return { client, sampled, firstSampled };
}

/**
 * Both front ends, each a function that has the scripted server return `listing` from a tool call and then answers
 * `resources/list` and `resources/templates/list` through that front end.
 */
export const listingFronts = (listing: Json) =>
  [
    [
      'proxy',
      async () => {
        const { host } = await proxied();
        await call(host, { listing });
        return [await host.request('resources/list', {}), await host.request('resources/templates/list', {})];
      },
    ],
    [
      'decorator',
      async () => {
        const { client } = await decorated();
        await client.callTool({ name: 'result', arguments: { listing } });
        return [await client.listResources(), await client.listResourceTemplates()];
      },
    ],
  ] as const;
