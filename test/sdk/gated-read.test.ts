// The one read path (issue 33 item 2): a host that gives the model a read tool reads through `gatedRead`, and the
// server is asked only for what the gate allows. A real SDK Client (1.x and 2.x) over stdio to the hostile server,
// which logs every request it receives.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { DiscoveredLinks } from '../../src/flow/discovered-links.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import type { RequestingClient } from '../../src/sdk/gate-tool-result.ts';
import { gatedRead } from '../../src/sdk/gated-read.ts';
import { tsServer } from '../e2e/run-probe.ts';
import { repoRoot } from './fake-gate.ts';

const permissive = z.looseObject({});
const metadata = 'http://169.254.169.254/latest/meta-data/';
const shadow = 'file:///etc/shadow';
const readme = 'demo://hostile/readme.txt';
const unlisted = 'demo://hostile/unlisted.txt';

/** `policies/default.yaml` with `hook.requireDiscovered` on: a read uri must have been returned by a tool first. */
async function requireDiscoveredPolicy(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-gated-read-'));
  const file = path.join(dir, 'policy.yaml');
  const text = await readFile(path.join(repoRoot, 'policies/default.yaml'), 'utf8');
  await writeFile(file, text.replace('requireDiscovered: false', 'requireDiscovered: true'));
  return file;
}

type ReadingClient = RequestingClient & { close(): Promise<void> };

/** A real Client of `sdk` connected over stdio to the hostile server, with `env` added to its environment. */
async function hostileClient(sdk: 'SDK 1.x' | 'SDK 2.x', env: Record<string, string> = {}): Promise<ReadingClient> {
  const [command, ...args] = tsServer('test/fixtures/servers/hostile-server.ts');
  const params = {
    command: command as string,
    args,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'ignore' as const,
  };
  const client = (sdk === 'SDK 1.x'
    ? new Client({ name: 'read-tool-host', version: '1' })
    : new ClientV2({ name: 'read-tool-host', version: '2' })) as unknown as ReadingClient & {
    connect(t: Transport): Promise<void>;
  };
  await client.connect(sdk === 'SDK 1.x' ? new StdioClientTransport(params) : new StdioV2(params));
  return client;
}

describe.each(['SDK 1.x', 'SDK 2.x'] as const)('gatedRead over a real %s Client', (sdk) => {
  test('metadata, file: and undiscovered links are refused and never asked of the server; an allowed one is read', async () => {
    const log = path.join(await mkdtemp(path.join(tmpdir(), 'linkgate-gated-read-log-')), 'requests.jsonl');
    const gate = createGate(await loadPolicy(await requireDiscoveredPolicy()));
    const client = await hostileClient(sdk, { LINKGATE_REQUEST_LOG: log });
    const records: LinkRecord[] = [];
    const sink = callbackSink((r) => void records.push(r));
    const discovered = new DiscoveredLinks();
    const read = (uri: string, server = 'hostile') => gatedRead(client, uri, { gate, server, discovered, sink });
    try {
      const tool = await client.request({ method: 'tools/call', params: { name: 'links', arguments: {} } }, permissive);
      discovered.note('hostile', tool, 'links');

      const refused = [await read(metadata), await read(shadow), await read(unlisted), await read(readme, 'other')];
      expect(refused.map((r) => r.contents)).toEqual([[], [], [], []]);
      expect(
        refused.map(
          (r) => /^linkgate refused to read (?:`[^`]*` )?\(scheme `[a-z]*`\): ([a-z.-]+)/.exec(r.notice ?? '')?.[1],
        ),
      ).toEqual(['uri.non-public-address', 'uri.scheme-not-allowed', 'link.not-discovered', 'server.mismatch']);

      const allowed = await read(readme);
      expect(allowed.notice).toBeNull();
      expect(allowed.contents).toEqual([{ uri: readme, mimeType: 'text/plain', text: `contents of ${readme}\n` }]);
      expect(allowed.record.stages.discovered).toMatchObject({ server: 'hostile', tool: 'links', contentIndex: 3 });
    } finally {
      await client.close();
    }
    const asked = (await readFile(log, 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { method: string; uri: string | null })
      .filter((r) => r.method === 'resources/read')
      .map((r) => r.uri);
    expect(asked).toEqual([readme]);
    expect(records.map((r) => [r.uri, r.verdict])).toEqual([
      [metadata, 'link-only'],
      [shadow, 'link-only'],
      [unlisted, 'link-only'],
      [readme, 'link-only'],
      [readme, 'body-obtained'],
    ]);
    for (const r of records) expect(recordViolations(r), r.uri).toEqual([]);
    expect(records.slice(0, 4).map((r) => r.stages.requested)).toEqual([null, null, null, null]);
  }, 30_000);

  test('observe mode reads what enforce refuses, and records that the gate would have denied it', async () => {
    const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));
    const client = await hostileClient(sdk);
    try {
      const observed = await gatedRead(client, shadow, {
        gate,
        server: 'hostile',
        mode: 'observe',
      });
      expect(observed.notice).toBeNull();
      expect(observed.contents).toHaveLength(1);
      expect(observed.record).toMatchObject({ mode: 'observe', wouldDeny: true });
    } finally {
      await client.close();
    }
  }, 30_000);
});
