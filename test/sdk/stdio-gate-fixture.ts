// The shared set-up of the SDK suites that gate a real stdio server: one gate from a policy file, the closers run
// after each test, and the spawn parameters of the server.
import { afterEach, beforeAll } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { tsServer } from '../e2e/run-probe.ts';

/** What {@link useStdioGate} gives a suite. */
export interface StdioGateFixture {
  /** The gate built from the policy (read it inside a test). */
  readonly gate: Gate;
  /** Closers run (and emptied) after each test. */
  readonly closers: (() => Promise<void>)[];
  /** The stdio spawn parameters of the server file. */
  readonly serverParams: () => { command: string; args: string[]; stderr: 'ignore' };
}

/** Registers the suite's hooks: a gate from `policyPath` before all, the closers after each; `serverFile` is spawned. */
export function useStdioGate(policyPath: string, serverFile: string): StdioGateFixture {
  let gate: Gate;
  beforeAll(async () => {
    gate = createGate(await loadPolicy(policyPath));
  });
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  return {
    get gate() {
      return gate;
    },
    closers,
    serverParams: () => {
      const [command, ...args] = tsServer(serverFile);
      return { command: command as string, args, stderr: 'ignore' as const };
    },
  };
}
