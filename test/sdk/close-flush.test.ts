// Nothing lost at close (issue 33 item 4): `gateTransport(...).close()` resolves only once every link of the
// connection has its record in the records file, a read still in flight included. A real SDK Client (1.x and 2.x)
// talks over stdio to the hostile server in `hang` mode, which never answers a read.
import { mkdtemp, readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { recordKindOf } from '../../src/record/record-kind.ts';
import { jsonLinesSink } from '../../src/record/record-sink.ts';
import { linkRecordLines } from '../helpers/run-cli.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { tsServer } from '../e2e/run-probe.ts';
import { hostileLinks } from '../fixtures/servers/hostile-server.ts';
import { repoRoot } from './fake-gate.ts';

const permissive = z.looseObject({});
const readme = 'demo://hostile/readme.txt';

/** Resolves once `transport` has handed a `resources/read` to the server: the read is then in flight. */
function readSent(transport: Transport): Promise<void> {
  const send = transport.send.bind(transport);
  return new Promise((resolve) => {
    transport.send = async (message, options) => {
      await send(message, options);
      if ((message as { method?: string }).method === 'resources/read') resolve();
    };
  });
}

describe.each(['SDK 1.x', 'SDK 2.x'] as const)('close() with a read in flight (%s Client)', (sdk) => {
  test('resolves only once the read and every unread link have their records in the file', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'linkgate-close-')), 'records.jsonl');
    const sink = jsonLinesSink(file);
    const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));
    const [command, ...args] = tsServer('test/fixtures/servers/hostile-server.ts');
    const params = {
      command: command as string,
      args,
      env: { ...(process.env as Record<string, string>), HOSTILE_MODE: 'hang' },
      stderr: 'ignore' as const,
    };
    const stdio = sdk === 'SDK 1.x' ? new StdioClientTransport(params) : new StdioV2(params);
    const sent = readSent(stdio);
    const transport = gateTransport(stdio, { gate, server: 'hostile', sink });
    // the two Clients' `request` signatures differ in their schema types; the test calls them the same way
    const client = (sdk === 'SDK 1.x'
      ? new Client({ name: 'close-host', version: '1' })
      : new ClientV2({ name: 'close-host', version: '2' })) as unknown as {
      connect(t: Transport): Promise<void>;
      request(r: { method: string; params?: Record<string, unknown> }, s: typeof permissive): Promise<unknown>;
    };
    await client.connect(transport);
    await client.request({ method: 'tools/call', params: { name: 'links', arguments: {} } }, permissive);
    const reading = client
      .request({ method: 'resources/read', params: { uri: readme } }, permissive)
      .catch((error: unknown) => error);
    await sent;
    await transport.close();
    // read synchronously the moment close resolved: nothing may still be on its way to the file
    // (the discovery records written as the tool result was passed on are superseded by these)
    const records = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as LinkRecord)
      .filter((r) => recordKindOf(r) === 'link');
    const inFlight = records.find((r) => r.uri === readme);
    expect(inFlight?.verdict).toBe('unverifiable');
    expect(inFlight?.stages.requested).not.toBeNull();
    expect(inFlight?.next?.hint).toContain('the connection closed before an answer');
    expect(records.map((r) => r.uri).sort()).toEqual(hostileLinks.map((l) => l.uri).sort());
    for (const r of records) expect(recordViolations(r), r.uri).toEqual([]);
    // the host's read is not left hanging
    expect(await reading).toBeInstanceOf(Error);
    await sink.close();
    expect(linkRecordLines(await readFile(file, 'utf8'))).toEqual(records);
  }, 30_000);
});
