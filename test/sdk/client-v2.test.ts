import { Client, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { decisionMetaKey, gateErrorCode, gateTransport } from '../../src/sdk/gate-transport.ts';
import { tsServer } from '../e2e/run-probe.ts';
import { finishedInto } from './finished-records.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A 2.x SDK Client (`@modelcontextprotocol/client` 2.4.0) on the decorated stdio transport of the demo server. */
async function connectV2() {
  const gate = createGate(await loadPolicy('policies/default.yaml'));
  const [command, ...args] = tsServer('src/demo/demo-server.ts', '--slow-ms', '10');
  const stdio: Transport = new StdioClientTransport({ command: command as string, args, stderr: 'ignore' });
  // spies on the optional members, to see the decorator forward what the 2.x Client calls on it
  const supported: string[][] = [];
  const negotiated: string[] = [];
  const setSupported = stdio.setSupportedProtocolVersions?.bind(stdio);
  stdio.setSupportedProtocolVersions = (versions) => {
    supported.push(versions);
    setSupported?.(versions);
  };
  const setVersion = stdio.setProtocolVersion?.bind(stdio);
  stdio.setProtocolVersion = (version) => {
    negotiated.push(version);
    setVersion?.(version);
  };
  const records: LinkRecord[] = [];
  const transport = gateTransport(stdio, { gate, server: 'demo', sink: callbackSink(finishedInto(records)) });
  const client = new Client({ name: 'v2-host', version: '2.4.0' });
  await client.connect(transport);
  closers.push(() => client.close());
  const tool = await client.callTool({ name: 'show-links' });
  return { client, transport, records, supported, negotiated, tool };
}

describe('gateTransport under a 2.x SDK Client', () => {
  test('the client connects through it and its optional transport members reach the real transport', async () => {
    const { supported, negotiated, tool } = await connectV2();
    expect(supported.length).toBeGreaterThan(0);
    expect(supported[0]?.length).toBeGreaterThan(0);
    expect(negotiated).toHaveLength(1);
    expect(supported[0]).toContain(negotiated[0]);
    expect(tool.content.filter((c) => c.type === 'resource_link').length).toBeGreaterThan(0);
  });

  test('allowed, partial and denied reads behave as under 1.x, and every record holds the invariants', async () => {
    const { client, transport, records } = await connectV2();
    const guide = await client.readResource({ uri: 'demo://linkgate/guide.md' });
    expect(guide.contents).toHaveLength(1);

    const mixed = await client.readResource({ uri: 'demo://linkgate/mixed' });
    const meta = mixed._meta as Record<string, { effect: string }> | undefined;
    expect(meta?.[decisionMetaKey]?.effect).toBe('partial');

    for (const uri of ['javascript:alert(document.cookie)', 'demo://linkgate/holiday.png']) {
      const error = await client.readResource({ uri }).then(
        () => undefined,
        (e: unknown) => e as { code?: number; data?: Record<string, { effect: string }> },
      );
      expect(error?.code, uri).toBe(gateErrorCode);
      expect(error?.data?.[decisionMetaKey]?.effect, uri).toBe('deny');
    }
    await transport.flush();
    const verdicts = Object.fromEntries(records.map((r) => [r.uri, r.verdict]));
    expect(verdicts).toMatchObject({
      'demo://linkgate/guide.md': 'body-obtained',
      'demo://linkgate/mixed': 'partially-interpreted',
      'javascript:alert(document.cookie)': 'link-only',
      'demo://linkgate/holiday.png': 'link-only',
    });
    expect(records.find((r) => r.uri === 'demo://linkgate/guide.md')?.stages.discovered).toMatchObject({
      tool: 'show-links',
      client: { name: 'v2-host' },
      serverInfo: { name: 'linkgate-demo' },
    });
    for (const record of records) expect(recordViolations(record), record.uri).toEqual([]);
  });
});
