// The parity server's hostile cases in both eras: the same server (test/parity/parity-server.ts), once as a
// 2025-11-25 server and once speaking MCP 2026-07-28 (`--era 2026-07-28`: `server/discover`, no `initialize`,
// `resultType` on every result, `-32602` for a missing resource), through the proxy (a raw host writing the era's
// own lines) and through `gateTransport` under the 2.x Client pinned to each era. Every case must get the same verdict
// and reason codes in both eras and from both front ends, and hand the host the same items.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { beforeAll, describe, expect, test } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { maskUri } from '../../src/link/mask-uri.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { EmbeddedRecord } from '../../src/record/embedded-record.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { rawProxyHost } from '../helpers/raw-proxy-host.ts';
import { embeddedCases, linkCases } from '../parity/parity-cases.ts';
import { repoRoot } from '../sdk/fake-gate.ts';
import { tsServer } from './run-probe.ts';
import { finishedInto } from '../sdk/finished-records.ts';

type Json = Record<string, unknown>;
type Era = '2025-11-25' | '2026-07-28';
const eras: readonly Era[] = ['2025-11-25', '2026-07-28'];
const server = 'parity';
const serverFile = 'test/parity/parity-server.ts';
const policyPath = 'test/fixtures/policies/parity.yaml';
const versionKey = 'io.modelcontextprotocol/protocolVersion';

/** What one front end recorded and handed on. */
interface Seen {
  links: LinkRecord[];
  embedded: EmbeddedRecord[];
  /** the tool result's items as the host got them, without the gate's `_meta` */
  delivered: unknown[];
  /** the server's answers the host saw for each read: `ok`, or the error's code */
  reads: string[];
}

const serverArgs = (era: Era) => (era === '2026-07-28' ? ['--era', era] : []);

function collector(): { seen: Seen; sink: ReturnType<typeof callbackSink> } {
  const seen: Seen = { links: [], embedded: [], delivered: [], reads: [] };
  const sink = callbackSink(finishedInto(seen.links), (r) => void seen.embedded.push(r));
  return { seen, sink };
}

/** Each case's `verdict · codes`, by the masked uri of its link or embedded resource. */
function row(seen: Seen): Record<string, string> {
  const cell = (verdict: string, reasons: readonly { code: string }[]) =>
    `${verdict} · ${[...new Set(reasons.map((r) => r.code))].sort().join(',') || '(none)'}`;
  const cells: Record<string, string> = {};
  for (const c of linkCases) {
    const r = seen.links.find((l) => l.uri === maskUri(c.link.uri));
    cells[c.name] =
      r === undefined ? '—' : cell(r.verdict, [...r.decisions.link.reasons, ...(r.decisions.read?.reasons ?? [])]);
  }
  for (const c of embeddedCases) {
    const r = seen.embedded.find((e) => e.uri === maskUri(c.resource.uri));
    cells[c.name] = r === undefined ? '—' : cell(r.verdict, r.decision.reasons);
  }
  return cells;
}

// the items without `_meta` (where the gate's decision and the server's own `_meta` travel) and record refs, which
// name the response id (the eras number their requests differently)
function plain(items: unknown[]): unknown[] {
  return JSON.parse(
    JSON.stringify(items, (key, value: unknown) => (key === '_meta' ? undefined : value)).replace(
      /record `[0-9a-f]+`/g,
      'record `…`',
    ),
  ) as unknown[];
}

async function viaDecorator(gate: Gate, era: Era): Promise<Seen> {
  const { seen, sink } = collector();
  const [command, ...args] = tsServer(serverFile, ...serverArgs(era));
  const stdio = new StdioClientTransport({ command: command as string, args, cwd: repoRoot, stderr: 'ignore' });
  const transport = gateTransport(stdio, { gate, server, sink });
  const client = new Client(
    { name: 'parity-host', version: '2.0.0' },
    { versionNegotiation: era === '2026-07-28' ? { mode: { pin: era } } : { mode: 'legacy' } },
  );
  await client.connect(transport);
  try {
    expect(client.getNegotiatedProtocolVersion?.()).toBe(era);
    const result = (await client.callTool({ name: 'cases', arguments: {} })) as { content: unknown[] };
    seen.delivered = plain(result.content);
    for (const c of linkCases)
      seen.reads.push(
        await client.readResource({ uri: c.link.uri }).then(
          () => 'ok',
          (error: { code?: unknown }) => String(error.code),
        ),
      );
    await transport.flush();
  } finally {
    await client.close();
  }
  return seen;
}

/** The proxy in this process, a raw host writing the era's own lines (2026: no initialize, the envelope on each). */
async function viaProxy(gate: Gate, era: Era): Promise<Seen> {
  const { seen, sink } = collector();
  const envelope = { [versionKey]: era, 'io.modelcontextprotocol/clientInfo': { name: 'raw-host', version: '1' } };
  const host = rawProxyHost({
    gate,
    server,
    sink,
    command: tsServer(serverFile, ...serverArgs(era)),
    ...(era === '2026-07-28' ? { envelope } : {}),
  });
  if (era === '2026-07-28') {
    const discovered = await host.request('server/discover', {});
    expect((discovered['result'] as Json)['supportedVersions']).toEqual([era]);
  } else {
    await host.request('initialize', {
      protocolVersion: era,
      capabilities: {},
      clientInfo: { name: 'raw-host', version: '1' },
    });
    host.notify('notifications/initialized');
  }
  const tool = await host.request('tools/call', { name: 'cases', arguments: {} });
  const result = tool['result'] as Json;
  if (era === '2026-07-28') expect(result['resultType']).toBe('complete');
  seen.delivered = plain((result['content'] as unknown[]) ?? []);
  for (const c of linkCases) {
    const answer = await host.request('resources/read', { uri: c.link.uri });
    const error = answer['error'] as Json | undefined;
    seen.reads.push(error === undefined ? 'ok' : String(error['code']));
  }
  await host.close();
  return seen;
}

/** A raw 2026-07-28 host: sends one request with the envelope, resolves with its answer; every message it got. */
interface RawHost {
  request(method: string, params: Json): Promise<Json>;
  readonly got: Json[];
}

const tasksEnvelope = {
  [versionKey]: '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw-host', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

function rawHost(write: (line: Json) => void): RawHost & { onMessage(message: Json): void } {
  const answers = new Map<number, (m: Json) => void>();
  const got: Json[] = [];
  let nextId = 1;
  return {
    got,
    onMessage(message) {
      got.push(message);
      if (typeof message['id'] === 'number' && message['method'] === undefined) answers.get(message['id'])?.(message);
    },
    request(method, params) {
      const id = nextId++;
      const answered = new Promise<Json>((resolve) => answers.set(id, resolve));
      write({ jsonrpc: '2.0', id, method, params: { ...params, _meta: tasksEnvelope } });
      return answered;
    },
  };
}

/** The `cases` tool run as a task (Tasks extension), then its result fetched with `tasks/get`. */
async function taskRun(host: RawHost): Promise<{ handle: Json; task: Json }> {
  const handle = (await host.request('tools/call', { name: 'cases', arguments: {} }))['result'] as Json;
  const task = (await host.request('tasks/get', { taskId: handle['taskId'] }))['result'] as Json;
  return { handle, task };
}

async function tasksViaProxy(gate: Gate): Promise<{ seen: Seen; handle: Json; task: Json; got: Json[] }> {
  const { seen, sink } = collector();
  const host = rawProxyHost({
    gate,
    server,
    sink,
    command: tsServer(serverFile, '--era', '2026-07-28'),
    envelope: tasksEnvelope,
  });
  const run = await taskRun(host);
  await host.close();
  return { seen, ...run, got: host.got };
}

async function tasksViaDecorator(gate: Gate): Promise<{ seen: Seen; handle: Json; task: Json; got: Json[] }> {
  const { seen, sink } = collector();
  const [command, ...args] = tsServer(serverFile, '--era', '2026-07-28');
  const stdio = new StdioClientTransport({ command: command as string, args, cwd: repoRoot, stderr: 'ignore' });
  const transport = gateTransport(stdio, { gate, server, sink });
  const host = rawHost((line) => void transport.send(line as never));
  transport.onmessage = (message) => host.onMessage(message);
  await transport.start();
  try {
    const run = await taskRun(host);
    await transport.flush();
    return { seen, ...run, got: host.got };
  } finally {
    await transport.close();
  }
}

let gate: Gate;
const seenBy = new Map<string, Seen>();

beforeAll(async () => {
  gate = createGate(await loadPolicy(`${repoRoot}/${policyPath}`));
  for (const era of eras) {
    seenBy.set(`proxy ${era}`, await viaProxy(gate, era));
    seenBy.set(`decorator ${era}`, await viaDecorator(gate, era));
  }
  // four sessions, each waiting out the never-answered read's deadline
}, 240_000);

describe('the parity cases in both eras (MCP 2025-11-25 and 2026-07-28)', () => {
  test('every case gets the same verdict and reasons in both eras, from the proxy and the decorator', () => {
    const reference = row(seenBy.get('proxy 2025-11-25') as Seen);
    expect(Object.values(reference).filter((c) => c === '—')).toEqual([]);
    for (const [name, seen] of seenBy) expect(row(seen), name).toEqual(reference);
  });

  test('the host gets the same items and the same read outcomes in both eras', () => {
    for (const frontEnd of ['proxy', 'decorator']) {
      const legacy = seenBy.get(`${frontEnd} 2025-11-25`) as Seen;
      const modern = seenBy.get(`${frontEnd} 2026-07-28`) as Seen;
      expect(modern.delivered, frontEnd).toEqual(legacy.delivered);
      // a missing resource is -32602 in 2026-07-28 and -32002 before; every other outcome is the same
      const notFound = linkCases.findIndex((c) => c.name === 'not-found');
      expect(legacy.reads[notFound]).toBe('-32002');
      expect(modern.reads[notFound]).toBe('-32602');
      expect(modern.reads.filter((_, i) => i !== notFound)).toEqual(legacy.reads.filter((_, i) => i !== notFound));
    }
  });

  test('a missing resource is recorded as not found in both eras', () => {
    for (const [name, seen] of seenBy) {
      const gone = seen.links.find((r) => r.uri === maskUri('parity://docs/gone.txt') && r.stages.received !== null);
      expect(gone?.next?.hint, name).toMatch(/not found/);
    }
  });

  test.each(['proxy', 'decorator'] as const)(
    'links in a task result (Tasks extension) are judged and recorded by the %s as in the tool result',
    async (frontEnd) => {
      const run = frontEnd === 'proxy' ? await tasksViaProxy(gate) : await tasksViaDecorator(gate);
      expect(run.handle['resultType']).toBe('task');
      expect(run.task['status']).toBe('completed');
      const direct = seenBy.get(`${frontEnd} 2026-07-28`) as Seen;
      // the task's result reaches the host exactly as the same result answered directly does
      expect(plain(((run.task['result'] as Json)['content'] as unknown[]) ?? [])).toEqual(direct.delivered);
      // the server's status push carried the result unjudged: it never reaches the host
      expect(run.got.filter((m) => m['method'] === 'notifications/tasks')).toEqual([]);
      // every link of the task's result is recorded, refused ones as the tool result's are
      for (const c of linkCases) {
        const record = run.seen.links.find((r) => r.uri === maskUri(c.link.uri));
        const reference = direct.links.find((r) => r.uri === maskUri(c.link.uri) && r.stages.received === null);
        expect(record?.decisions.link.effect, c.name).toBe(reference?.decisions.link.effect ?? 'allow');
      }
    },
    60_000,
  );
});
