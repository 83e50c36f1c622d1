import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterEach, describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { cappedStdioTransport } from '../../src/sdk/capped-stdio-transport.ts';
import { connectionByteCap } from '../../src/sdk/connection-byte-cap.ts';
import { gateErrorCode } from '../../src/sdk/gate-transport.ts';
import { connectFault, type FaultClient, faultStdio, type SdkMajor } from './fault-clients.ts';
import { safeUri } from './fault-server.ts';
import { defaultPolicyWith, repoRoot } from './fake-gate.ts';

// One answer over the connection's byte cap ends that read (`content.too-large`, recorded) and nothing else: the
// connection stays up and the next read on it is answered. Over the SDK's default stdio transport (10 MiB cap) and
// over `cappedStdioTransport` (the policy's cap), under the 1.x and 2.x Clients.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const mib = 1024 * 1024;

async function readOversizeThenSafe(client: FaultClient, bytes: number) {
  const big = `fault://big/${bytes}`;
  const started = performance.now();
  const error = await client.readResource(big, 60_000).then(
    () => undefined,
    (e: unknown) => e as { code?: number; message?: string },
  );
  const oversizeMs = Math.round(performance.now() - started);
  // the same connection answers the next read
  const later = await client.readResource(safeUri, 30_000);
  console.info(
    `[measure] oversize ${bytes} bytes: refused in ${oversizeMs} ms; connection closed: ${client.closed()}; ` +
      `later read items: ${later.contents.length}`,
  );
  expect(error?.code).toBe(gateErrorCode);
  expect(error?.message).toContain('content.too-large');
  expect(later.contents.map((c) => c['text'])).toEqual([`contents of ${safeUri}\n`]);
  expect(client.closed()).toBe(false);
  await client.close();
  const record = client.records.find((r) => r.uri === big);
  expect(record?.decisions.read?.reasons.map((r) => r.code)).toEqual(['content.too-large']);
  expect(record?.stages.delivered ?? null).toBeNull();
}

describe.each(['1.x', '2.x'] as const)(
  'an answer over the connection cap, under the SDK %s Client',
  (major: SdkMajor) => {
    test("the SDK's default stdio transport: a 12 MiB answer ends that read only", async () => {
      const gate = createGate(await defaultPolicyWith());
      const client = await connectFault(major, gate, { inner: faultStdio(major) });
      closers.push(() => client.close());
      await readOversizeThenSafe(client, 12 * mib);
    }, 120_000);

    test('cappedStdioTransport: an answer over the policy cap ends that read only', async () => {
      const gate = createGate(await defaultPolicyWith({ maxBytes: mib }));
      const Stdio = (major === '1.x' ? StdioV1 : StdioV2) as new (params: never) => Transport;
      const params = { command: process.execPath, args: ['--import', 'tsx', `${repoRoot}/test/sdk/fault-server.ts`] };
      const inner = cappedStdioTransport(Stdio, { ...params, stderr: 'ignore' } as never, gate) as Transport;
      const client = await connectFault(major, gate, { inner });
      closers.push(() => client.close());
      await readOversizeThenSafe(client, connectionByteCap(gate.policy) + mib);
    }, 120_000);
  },
);
