import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { decisionMetaKey, gateErrorCode, gateTransport } from '../../src/sdk/gate-transport.ts';
import type { LinkRecord, Verdict } from '../../src/record/link-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { bodyOf } from '../fixtures/servers/stdio-lines.ts';
import { defaultPolicyWith } from '../sdk/fake-gate.ts';
import { connectWire, leakedResources, processGone, resourceCensus } from './wire-harness.ts';
import { finishedInto } from '../sdk/finished-records.ts';

/** Read deadline the decorator enforces itself, milliseconds. */
const readTimeoutMs = 800;

interface Step {
  uri: string;
  /** what `client.readResource` gives the host: the body, the gate's own error, or the SDK's connection-closed error */
  host: 'body' | 'gate-error' | 'connection-closed';
  verdict: Verdict;
  code: string | null;
}

// read one after another, as a host would; the crash is last because it ends the connection
const steps: readonly Step[] = [
  { uri: 'hostile://ok/a', host: 'body', verdict: 'body-obtained', code: null },
  { uri: 'hostile://never/x', host: 'gate-error', verdict: 'unverifiable', code: 'read.timeout' },
  { uri: 'hostile://garbage/answer', host: 'body', verdict: 'body-obtained', code: null },
  { uri: 'hostile://wrong-id/x', host: 'gate-error', verdict: 'unverifiable', code: 'read.timeout' },
  { uri: 'hostile://twice/x', host: 'body', verdict: 'body-obtained', code: null },
  { uri: 'hostile://input/x', host: 'gate-error', verdict: 'unverifiable', code: 'read.input-required' },
  { uri: 'hostile://crash/x', host: 'connection-closed', verdict: 'unverifiable', code: 'read.error' },
];

describe('gateTransport over stdio against a hostile server', () => {
  test('the decorator answers hung reads itself at the deadline, ignores stray answers and records a crash', async () => {
    const policy = await defaultPolicyWith({ readTimeoutMs });
    const before = resourceCensus();
    const records: LinkRecord[] = [];
    const gate = createGate(policy);
    const wire = await connectWire(policy, {
      wrap: (stdio) => gateTransport(stdio, { gate, server: 'wire', sink: callbackSink(finishedInto(records)) }),
    });
    await wire.client.callTool({ name: 'links', arguments: { uris: steps.map((s) => s.uri) } });

    for (const step of steps) {
      const outcome = await wire.client.readResource({ uri: step.uri }).then(
        (result) => ({ result, error: undefined }),
        (error: unknown) => ({ result: undefined, error: error as McpError }),
      );
      if (step.host === 'body') {
        expect(outcome.result?.contents[0], step.uri).toMatchObject({ uri: step.uri, text: bodyOf(step.uri) });
      } else if (step.host === 'gate-error') {
        expect(outcome.error, step.uri).toBeInstanceOf(McpError);
        expect(outcome.error?.code).toBe(gateErrorCode);
        expect(
          (outcome.error?.data as Record<string, { reasons: { code: string }[] }>)[decisionMetaKey]?.reasons[0]?.code,
        ).toBe(step.code);
      } else {
        expect(outcome.error?.code, step.uri).toBe(ErrorCode.ConnectionClosed);
      }
    }
    await wire.close();

    expect(records.map((r) => [r.uri, r.verdict, r.decisions.read?.reasons[0]?.code ?? null])).toEqual(
      steps.map((s) => [s.uri, s.verdict, s.code]),
    );
    for (const r of records) expect(recordViolations(r), r.uri).toEqual([]);
    expect(records.at(-1)?.decisions.read?.reasons[0]?.message).toBe('the connection closed before an answer');
    expect(await processGone(wire.pid)).toBe(true);
    expect(await leakedResources(before)).toEqual({});
  });
});
