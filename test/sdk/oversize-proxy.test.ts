import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { connectionByteCap } from '../../src/sdk/connection-byte-cap.ts';
import { initialize, startRawHost } from '../proxy/raw-host.ts';
import { safeUri } from './fault-server.ts';
import { defaultPolicyWith, repoRoot } from './fake-gate.ts';

// The proxy drops a server's answer over the connection cap as it arrives; the request it answered fails at once,
// also when the server writes the id after the result (as the SDK's servers do), and the connection stays up.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('linkgate proxy: an answer over the connection cap', () => {
  test('with its id last: that read fails at once, the next read on the connection is answered', async () => {
    const gate = createGate(await defaultPolicyWith({ maxBytes: 1024 * 1024, readTimeoutMs: 60_000 }));
    const host = startRawHost(gate, {
      kind: 'command',
      command: process.execPath,
      args: ['--import', 'tsx', path.join(repoRoot, 'test/sdk/fault-server.ts')],
    });
    closers.push(async () => {
      host.end();
      await host.exit;
    });
    await initialize(host);
    const started = performance.now();
    const big = await host.request('resources/read', {
      uri: `fault://big-id-last/${connectionByteCap(gate.policy) + 1024}`,
    });
    const elapsedMs = Math.round(performance.now() - started);
    const later = await host.request('resources/read', { uri: safeUri });
    console.info(
      `[measure] proxy oversize answer, id last: failed in ${elapsedMs} ms (deadline 60000 ms); later read ok: ${'result' in later}`,
    );
    // failed for its size once the line ended, not by the read deadline's timer (speed is measured, not asserted)
    const error = big['error'] as { code?: number; message?: string } | undefined;
    expect(error?.code).toBeDefined();
    expect(error?.message).toMatch(/answer is over the `\d+` byte cap/);
    expect(later['result']).toMatchObject({ contents: [{ uri: safeUri, text: `contents of ${safeUri}\n` }] });
  });
});
