import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';
import { demoLinks } from '../../src/demo/demo-server.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { maskUri } from '../../src/link/mask-uri.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { connectionByteCap } from '../../src/sdk/connection-byte-cap.ts';
import { decisionMetaKey, gateTransport } from '../../src/sdk/gate-transport.ts';
import { policyFile } from '../e2e/run-probe.ts';
import { demoServer, processEnv, proxyCommandLine } from './proxy-helpers.ts';
import { linkRecordLines } from '../helpers/run-cli.ts';
import { waitUntil } from '../helpers/wait-until.ts';
import { finishedInto } from '../sdk/finished-records.ts';

type Json = Record<string, unknown>;
type ReadOutcome = { uri: string; ok?: unknown; code?: number; message?: string; decision?: unknown };

const demo = [...demoServer, '--slow-ms', '200'];

interface ReadingClient {
  callTool(params: { name: string; arguments?: Json }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
  close(): Promise<void>;
}

// every demo link read in content order, as the host's client sees each answer
async function readAll(client: ReadingClient): Promise<ReadOutcome[]> {
  const shown = (await client.callTool({ name: 'show-links', arguments: {} })) as { content: Json[] };
  const uris = shown.content.filter((i) => i['type'] === 'resource_link').map((i) => String(i['uri']));
  const out: ReadOutcome[] = [];
  for (const uri of uris) {
    try {
      out.push({ uri, ok: await client.readResource({ uri }) });
    } catch (error) {
      const e = error as { code: number; message: string; data?: Json };
      out.push({ uri, code: e.code, message: e.message, decision: e.data?.[decisionMetaKey] });
    }
  }
  return out;
}

// the shipped default with a deadline no loaded machine reaches: the 10 MiB answer takes the SDK's own stdio transport
// seconds to buffer, and the two front ends are compared on what they decide, not on how fast the machine is
const demoPolicy = policyFile({ readTimeoutMs: 120_000 });

async function viaDecorator(useV2: boolean): Promise<{ reads: ReadOutcome[]; records: LinkRecord[] }> {
  const policy = await loadPolicy(await demoPolicy);
  const gate = createGate(policy);
  const records: LinkRecord[] = [];
  const [command, ...args] = demo;
  // the byte cap the proxy applies to every line, as the decorator's README tells hosts to set it
  const params = {
    command: command as string,
    args,
    env: processEnv(),
    stderr: 'ignore' as const,
    maxBufferSize: connectionByteCap(policy),
  };
  const stdio = useV2 ? new StdioClientTransportV2(params) : new StdioClientTransport(params);
  const gated = gateTransport(stdio, {
    gate,
    server: 'demo',
    sink: callbackSink(finishedInto(records)),
  });
  const client: ReadingClient = useV2
    ? new ClientV2({ name: 'decorator-host-v2', version: '1.0.0' })
    : new Client({ name: 'decorator-host', version: '1.0.0' });
  if (useV2) await (client as ClientV2).connect(gated);
  else await (client as Client).connect(gated);
  const reads = await readAll(client);
  await client.close();
  return { reads, records };
}

async function viaProxy(useV2: boolean): Promise<{ reads: ReadOutcome[]; records: LinkRecord[] }> {
  const recordsFile = path.join(await mkdtemp(path.join(tmpdir(), 'linkgate-proxy-demo-')), 'records.jsonl');
  const [command, ...args] = proxyCommandLine(
    ['--policy', await demoPolicy, '--server', 'demo', '--records', recordsFile],
    demo,
  );
  const params = { command: command as string, args, env: processEnv(), stderr: 'ignore' as const };
  const client: ReadingClient = useV2
    ? new ClientV2({ name: 'proxy-host-v2', version: '1.0.0' })
    : new Client({ name: 'proxy-host', version: '1.0.0' });
  if (useV2) await (client as ClientV2).connect(new StdioClientTransportV2(params));
  else await (client as Client).connect(new StdioClientTransport(params));
  const reads = await readAll(client);
  await client.close();
  // the proxy writes its last records (links never read) as it shuts down
  const text = await waitUntil(`${demoLinks.length} records in ${recordsFile}`, async () => {
    const written = await readFile(recordsFile, 'utf8').catch(() => '');
    return linkRecordLines(written).length >= demoLinks.length ? written : undefined;
  });
  const records = linkRecordLines(text) as LinkRecord[];
  return { reads, records };
}

// what must match between the two front ends: answers, error codes and messages, decisions, verdicts
const summary = (records: LinkRecord[]) =>
  records.map((r) => ({
    uri: r.uri,
    verdict: r.verdict,
    next: r.next,
    link: r.decisions.link,
    read: r.decisions.read,
    requested: r.stages.requested !== null,
    delivered: r.stages.delivered?.items ?? null,
  }));

describe('gated reads through the proxy behave as the transport decorator’s (demo server)', () => {
  test.each([
    ['SDK 1.x', false],
    ['SDK 2.x (@modelcontextprotocol/client)', true],
  ])(
    '%s',
    async (_, useV2) => {
      const [decorated, proxied] = await Promise.all([viaDecorator(useV2), viaProxy(useV2)]);
      // a link its link decision refuses reaches neither host as a link (replaced by a text item naming it): unread
      const gate = createGate(await loadPolicy(await demoPolicy));
      const shown: string[] = [];
      for (const link of demoLinks) {
        const input = { stage: 'link', server: 'demo', readFrom: 'demo', link: { type: 'resource_link', ...link } };
        if ((await gate.decide(input)).effect !== 'deny') shown.push(link.uri);
      }
      expect(shown.length).toBeLessThan(demoLinks.length);
      expect(proxied.reads.map((r) => r.uri)).toEqual(shown);
      expect(proxied.reads).toEqual(decorated.reads);
      expect(proxied.records.map((r) => recordViolations(r))).toEqual(proxied.records.map(() => []));
      const byUri = (rs: LinkRecord[]) => [...rs].sort((a, b) => a.uri.localeCompare(b.uri));
      expect(summary(byUri(proxied.records))).toEqual(summary(byUri(decorated.records)));
      // the verdicts the demo promises under the default policy
      for (const link of demoLinks) {
        const record = proxied.records.find((r) => r.uri === maskUri(link.uri));
        expect({ uri: link.uri, verdict: record?.verdict }).toEqual({ uri: link.uri, verdict: link.expect });
      }
    },
    60_000,
  );
});
