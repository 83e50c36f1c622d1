import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { cappedStdioTransport } from '../../src/sdk/capped-stdio-transport.ts';
import { connectionByteCap } from '../../src/sdk/connection-byte-cap.ts';
import { gateToolResult } from '../../src/sdk/gate-tool-result.ts';
import { defaultPolicyWith, repoRoot } from './fake-gate.ts';
import { safeUri } from './fault-server.ts';

// The client helper words an answer over the connection's byte cap as every other front end does (issue 39 item 4):
// the read ends `content.too-large` (not `read.error`, which the report counts as the server's failure), the other
// links of the tool result are still read, and the connection stays up. A server's own error answer with the same
// text stays an error answer.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const mib = 1024 * 1024;
const server = { command: process.execPath, args: ['--import', 'tsx', `${repoRoot}/test/sdk/fault-server.ts`] };

describe.each(['1.x', '2.x'] as const)('gateToolResult over cappedStdioTransport, SDK %s Client', (major) => {
  test('an answer over the connection cap is content.too-large, the next link is read, the connection stays up', async () => {
    const gate = createGate(await defaultPolicyWith({ maxBytes: mib }));
    const Stdio = major === '1.x' ? StdioV1 : StdioV2;
    const transport = cappedStdioTransport(Stdio, { ...server, stderr: 'ignore' } as never, gate);
    const info = { name: 'oversize-host', version: '1.0.0' };
    const client = major === '1.x' ? new ClientV1(info) : new ClientV2(info);
    let closed = false;
    client.onclose = () => {
      closed = true;
    };
    await client.connect(transport);
    closers.push(() => client.close());
    const big = `fault://big/${connectionByteCap(gate.policy) + mib}`;
    const link = (uri: string, name: string) => ({ type: 'resource_link', uri, name, mimeType: 'text/plain' });
    const records: LinkRecord[] = [];
    const gated = await gateToolResult(
      client,
      { content: [link(big, 'big'), link(safeUri, 'guide')] },
      { gate, server: 'fault', sink: callbackSink((r) => void records.push(r)), concurrency: 1 },
    );
    const codes = (uri: string) => records.find((r) => r.uri === uri)?.decisions.read?.reasons.map((r) => r.code);
    console.info(`[measure] client helper ${major}: oversize read codes ${JSON.stringify(codes(big))}`);
    expect(codes(big)).toEqual(['content.too-large']);
    expect(records.find((r) => r.uri === big)?.stages.delivered ?? null).toBeNull();
    expect(records.find((r) => r.uri === safeUri)?.verdict).toBe('body-obtained');
    expect(JSON.stringify(gated.content)).toContain(`contents of ${safeUri}`);
    expect(closed).toBe(false);
  }, 120_000);
});
