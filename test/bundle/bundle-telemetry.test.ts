// The bundle revision on every OpenTelemetry span: a gate over a bundle's policy (tagged with its revision, as
// `--bundle` and `loadBundlePolicy` tag it) gives spans carrying `linkgate.bundle.revision`, and records whose
// decisions carry `policy.bundleRevision`; a policy file's spans and records carry neither.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { withBundleRevision } from '../../src/bundle/bundle-policy.ts';
import { emitPullStatus, pullSpanName } from '../../src/bundle/pull-telemetry.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { linkSpanName } from '../../src/record/link-telemetry.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { gateToolResult } from '../../src/sdk/gate-tool-result.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
trace.setGlobalTracerProvider(provider);
afterAll(async () => {
  trace.disable();
  await provider.shutdown();
});

async function run(revision: number | undefined): Promise<LinkRecord[]> {
  const policy = await loadPolicy(path.join(repoRoot, 'policies/default.yaml'));
  const gate = createGate(revision === undefined ? policy : withBundleRevision(policy, revision));
  const client = new Client({ name: 'bundle-otel-host', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', path.join(repoRoot, 'src/demo/demo-server.ts')],
      stderr: 'ignore',
    }),
  );
  try {
    const result = await client.callTool({ name: 'show-links', arguments: {} });
    // the client helper emits each record's span itself
    const { records } = await gateToolResult(client, result, { gate, server: 'demo', tool: 'show-links' });
    return records;
  } finally {
    await client.close();
  }
}

describe('the bundle revision in records and spans', () => {
  it('every span and record of a bundle policy names its revision; a policy file names none', async () => {
    exporter.reset();
    const records = await run(12);
    const spans = exporter.getFinishedSpans().filter((s) => s.name === linkSpanName);
    expect(spans.length).toBe(records.length);
    expect(records.length).toBeGreaterThan(0);
    for (const s of spans) expect(s.attributes['linkgate.bundle.revision']).toBe(12);
    for (const r of records) expect(r.decisions.link.policy.bundleRevision).toBe(12);

    exporter.reset();
    const plain = await run(undefined);
    for (const s of exporter.getFinishedSpans()) expect(s.attributes['linkgate.bundle.revision']).toBeUndefined();
    for (const r of plain) expect(r.decisions.link.policy).not.toHaveProperty('bundleRevision');
  }, 60_000);

  it('a pull emits one status span: result, active revision, refusal and the revision offered', () => {
    exporter.reset();
    emitPullStatus(
      { result: 'refused', code: 'bundle.rollback', reason: 'revision 1 is below revision 2', revision: 2, offered: 1 },
      undefined,
      'oci://registry.example.com/security/policy:stable',
    );
    emitPullStatus(
      { result: 'unchanged', revision: 2 },
      undefined,
      'oci://registry.example.com/security/policy:stable',
    );
    const spans = exporter.getFinishedSpans().filter((s) => s.name === pullSpanName);
    expect(spans.map((s) => s.attributes)).toEqual([
      {
        'linkgate.bundle.result': 'refused',
        'linkgate.bundle.source': 'oci://registry.example.com/security/policy:stable',
        'linkgate.bundle.revision': 2,
        'linkgate.bundle.refusal': 'bundle.rollback',
        'linkgate.bundle.offered': 1,
      },
      {
        'linkgate.bundle.result': 'unchanged',
        'linkgate.bundle.source': 'oci://registry.example.com/security/policy:stable',
        'linkgate.bundle.revision': 2,
      },
    ]);
    expect(spans[0]?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'revision 1 is below revision 2' });
  });
});
