import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { shippedPolicy } from './proxy-helpers.ts';

/** A resolver the test answers by hand: every lookup waits until `answerAll`, and the most waiting at once is counted. */
export function handResolver() {
  const waiting: Array<() => void> = [];
  let most = 0;
  let asked = 0;
  return {
    resolve: (name: string) =>
      new Promise<readonly string[]>((resolve) => {
        asked += 1;
        // a name under `internal` answers with a private address, the others with a public one
        waiting.push(() => resolve([name.startsWith('internal') ? '10.0.0.7' : '93.184.216.34']));
        most = Math.max(most, waiting.length);
      }),
    answerAll() {
      for (const answer of waiting.splice(0)) answer();
    },
    get waiting() {
      return waiting.length;
    },
    get most() {
      return most;
    },
    get asked() {
      return asked;
    },
  };
}

/** The web-public policy's gate, resolving names with `resolver` and no deadline (the test answers every lookup). */
export async function handResolvedGate(resolver: ReturnType<typeof handResolver>): Promise<Gate> {
  return createGate(await loadPolicy(shippedPolicy('web-public')), {
    resolve: resolver.resolve,
    resolveTimeoutMs: 600_000,
  });
}
