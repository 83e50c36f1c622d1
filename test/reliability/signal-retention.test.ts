import { getEventListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { gateToolResult, type RequestingClient } from '../../src/sdk/gate-tool-result.ts';
import { defaultPolicyWith } from '../sdk/fake-gate.ts';

// a full gc on demand, without starting the worker with --expose-gc
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Links per tool result. */
const linkCount = 500;

/** A client that behaves like the SDK's Protocol.request: it adds an `abort` listener to the signal and never removes it. */
function sdkLikeClient(signals: WeakRef<AbortSignal>[]): RequestingClient {
  return {
    async request(request, _schema, options) {
      const signal = options?.signal;
      if (signal !== undefined) {
        signals.push(new WeakRef(signal));
        signal.addEventListener('abort', () => {});
      }
      const uri = String(request.params?.['uri']);
      return { resultType: 'complete', contents: [{ uri, mimeType: 'text/plain', text: `text of ${uri}` }] };
    },
  };
}

describe('per-read signals and timers do not outlive the reads', () => {
  test('once gateToolResult returns, every read signal can be collected though its deadline is far away', async () => {
    const policy = await defaultPolicyWith({ readTimeoutMs: 600_000 });
    const signals: WeakRef<AbortSignal>[] = [];
    const host = new AbortController();
    const links = Array.from({ length: linkCount }, (_, i) => ({
      type: 'resource_link',
      uri: `guide://doc/${i}`,
      name: `doc ${i}`,
      mimeType: 'text/plain',
    }));
    const { records } = await gateToolResult(
      sdkLikeClient(signals),
      { content: links },
      { gate: createGate(policy), signal: host.signal, budgetMs: 600_000 },
    );
    expect(records.map((r) => r.verdict)).toEqual(links.map(() => 'body-obtained'));
    expect(signals).toHaveLength(linkCount);

    // finalization needs a turn of the event loop between collections
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const alive = signals.filter((s) => s.deref() !== undefined).length;
    expect(alive).toBe(0);
    // the host's own signal keeps no listener from the flow
    expect(getEventListeners(host.signal, 'abort')).toHaveLength(0);
  });
});
