// The decorator's judging work, counted (transport-session.ts `queue`, `hold`, `settle`): `settle` waits for every
// piece started before it and while it waits, a held message's place is given up once its work is done (before its
// failure is reported), and a failure goes to `onerror` without stopping the count.
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { TransportSession } from '../../src/sdk/transport-session.ts';
import type { McpTransport } from '../../src/sdk/mcp-transport.ts';
import { shippedPolicy } from './proxy-helpers.ts';

const inner: McpTransport = { start: async () => {}, send: async () => {}, close: async () => {} };

// a promise and the function that resolves it
function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('the decorator session counts its work', () => {
  test('settle waits for work started before it and while it waits; failures reach onerror in order', async () => {
    const events: string[] = [];
    const s = new TransportSession(
      inner,
      {
        gate: createGate(await loadPolicy(shippedPolicy('default'))),
        onHeld: (kind, id) => {
          events.push(`held ${kind} ${String(id)}`);
          return () => events.push(`released ${String(id)}`);
        },
      },
      { onerror: (error) => events.push(`error ${error.message}`) },
    );
    const first = gate();
    const second = gate();
    s.queue(async () => {
      await first.opened;
      events.push('first done');
      // started while `settle` waits: it waits for this one too
      s.hold('answer', 7, async () => {
        await second.opened;
        events.push('held work done');
        throw new Error('judging failed');
      });
    });
    let settled = false;
    const settling = s.settle().then(() => {
      settled = true;
    });
    first.open();
    await first.opened;
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    second.open();
    await settling;
    expect(events).toEqual(['first done', 'held answer 7', 'held work done', 'released 7', 'error judging failed']);
    // nothing running: settle is at once, and counts again from zero
    await s.settle();
    s.queue(async () => {
      throw new Error('again');
    });
    await s.settle();
    expect(events.at(-1)).toBe('error again');
  });
});
