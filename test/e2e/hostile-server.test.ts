import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { decisionMetaKey, gateErrorCode, gateTransport } from '../../src/sdk/gate-transport.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { hostileLinks } from '../fixtures/servers/hostile-server.ts';
import { repoRoot } from '../sdk/fake-gate.ts';
import { policyFile, processesWith, recordsOf, runProbe, tsServer } from './run-probe.ts';
import { finishedInto } from '../sdk/finished-records.ts';

const serverFile = 'test/fixtures/servers/hostile-server.ts';
const deniedUris = hostileLinks.slice(0, 3).map((l) => l.uri);
const allowedUris = hostileLinks.slice(3).map((l) => l.uri);

async function requestLog(): Promise<{ file: string; reads: () => Promise<string[]> }> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'linkgate-hostile-')), 'requests.jsonl');
  const reads = async () => {
    const text = await readFile(file, 'utf8').catch(() => '');
    return text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { method: string; uri: string | null })
      .filter((r) => r.method === 'resources/read')
      .map((r) => String(r.uri));
  };
  return { file, reads };
}

describe('a denied read never reaches the server', () => {
  test('through the transport decorator with the SDK Client over stdio', async () => {
    const log = await requestLog();
    const [command, ...args] = tsServer(serverFile);
    const stdio = new StdioClientTransport({
      command: command as string,
      args,
      env: { ...(process.env as Record<string, string>), LINKGATE_REQUEST_LOG: log.file },
      stderr: 'ignore',
    });
    const records: LinkRecord[] = [];
    const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));
    const client = new Client({ name: 'test-host', version: '1.0.0' });
    await client.connect(gateTransport(stdio, { gate, server: 'hostile', sink: callbackSink(finishedInto(records)) }));
    try {
      const tool = await client.callTool({ name: 'links' });
      expect(tool.content).toHaveLength(hostileLinks.length);
      for (const uri of deniedUris) {
        const error = await client.readResource({ uri }).then(
          () => undefined,
          (e: unknown) => e as McpError & { data: Record<string, { effect: string }> },
        );
        expect(error, uri).toBeInstanceOf(McpError);
        expect(error?.code).toBe(gateErrorCode);
        expect(error?.data[decisionMetaKey]?.effect).toBe('deny');
      }
      for (const uri of allowedUris) expect((await client.readResource({ uri })).contents).toHaveLength(1);
    } finally {
      await client.close();
    }
    expect((await log.reads()).sort()).toEqual([...allowedUris].sort());
    expect(records).toHaveLength(hostileLinks.length);
    for (const r of records) expect(recordViolations(r)).toEqual([]);
    expect(records.filter((r) => r.verdict === 'link-only').map((r) => r.stages.requested)).toEqual([null, null, null]);
  });

  test('through linkgate probe', async () => {
    const log = await requestLog();
    const run = await runProbe(
      ['--policy', 'policies/default.yaml', '--tool', 'links', '--json', '--', ...tsServer(serverFile)],
      { env: { LINKGATE_REQUEST_LOG: log.file } },
    );
    expect(run.code).toBe(0);
    const records = recordsOf(run);
    expect(records.map((r) => r.verdict)).toEqual([
      'link-only',
      'link-only',
      'link-only',
      'body-obtained',
      'body-obtained',
    ]);
    expect((await log.reads()).sort()).toEqual([...allowedUris].sort());
  });
});

describe('a server that never answers a read', () => {
  test('the probe finishes at the policy deadline, records `read.timeout`, and leaves no process behind', async () => {
    const readTimeoutMs = 500;
    const policy = await policyFile({ readTimeoutMs });
    const log = await requestLog();
    const marker = `linkgate-marker-${randomUUID()}`;
    const run = await runProbe(
      ['--policy', policy, '--tool', 'links', '--json', '--', ...tsServer(serverFile, marker)],
      {
        env: { LINKGATE_REQUEST_LOG: log.file, HOSTILE_MODE: 'hang' },
      },
    );
    expect(run.code).toBe(0);
    const records = recordsOf(run);
    for (const r of records.slice(3)) {
      expect(r).toMatchObject({
        verdict: 'unverifiable',
        stages: { received: null, delivered: null, requested: { deadlineMs: readTimeoutMs } },
      });
      expect(r.decisions.read?.reasons.map((x) => x.code)).toEqual(['read.timeout']);
    }
    expect((await log.reads()).sort()).toEqual([...allowedUris].sort());
    // measured for the report: the probe's own time includes starting the server (tsx) and the kill grace
    console.log(`hung-server probe: ${run.elapsedMs} ms for a ${readTimeoutMs} ms read deadline`);
    expect(processesWith(marker)).toEqual([]);
  });
});
