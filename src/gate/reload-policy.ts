import type { Diagnostic } from '../errors.ts';
import { GateError } from '../errors.ts';
import { createGate, type Gate, type GateOptions } from './create-gate.ts';
import type { PolicyRef } from '../decision/decision.ts';
import { type LoadPolicyOptions, loadPolicyBytes, reviewLoadedPolicy } from '../policy/load-policy.ts';
import { errorText } from '../decision/error-line.ts';

/** The outcome of a reload: the new policy in force, or the old one kept with the reasons why. */
export type ReloadOutcome =
  | {
      ok: true;
      policy: PolicyRef;
      previous: PolicyRef;
      /** set when the review check is on and the new policy did not verify: it is in force and denies everything */
      unreviewed?: string;
    }
  | { ok: false; kept: PolicyRef; message: string; diagnostics: readonly Diagnostic[] };

/** Holds the gate in force for a policy file; a failed reload keeps the old gate, so no decision mixes two policies. */
export interface PolicyHolder {
  /** the gate in force now: take it once per unit of work (a tool result) and use that snapshot throughout */
  gate(): Gate;
  /** reloads the file (or `file` when given); on any error the old policy stays in force */
  reload(file?: string): Promise<ReloadOutcome>;
}

/** Options of `holdPolicy`: the gate's, and how each load checks the review (`allowedSigners`, `minSigners`). */
export type HoldPolicyOptions = GateOptions & Omit<LoadPolicyOptions, 'shownAs' | 'signatureFile'>;

/**
 * Loads `file` once (throws GateError when it does not load) and returns a holder for reloading it later. With a
 * review check (`allowedSigners`, or `LINKGATE_ALLOWED_SIGNERS`), every load and reload checks the signatures: a
 * reload that does not verify is put in force all the same and denies everything (`policy.unreviewed`), so a
 * revoked key or a changed file never leaves the old policy deciding; a file that does not load keeps the old one.
 */
export async function holdPolicy(file: string, options: HoldPolicyOptions = {}): Promise<PolicyHolder> {
  let path = file;
  let loaded = await loadPolicyBytes(path, options);
  let current = createGate(loaded.policy, options);
  let pending: Promise<ReloadOutcome> = Promise.resolve({
    ok: true,
    policy: current.policy.ref,
    previous: current.policy.ref,
  });
  return Object.freeze({
    gate: () => current,
    reload(next?: string): Promise<ReloadOutcome> {
      // reloads run one after another, so the last one asked for wins
      pending = pending.then(async (): Promise<ReloadOutcome> => {
        const target = next ?? path;
        try {
          const next = await loadPolicyBytes(target, options);
          const { policy } = next;
          loaded = next;
          const previous = current.policy.ref;
          current = createGate(policy, options);
          path = target;
          const check = policy.reviewCheck;
          return check === undefined || check.verified
            ? { ok: true, policy: policy.ref, previous }
            : { ok: true, policy: policy.ref, previous, unreviewed: check.message };
        } catch (error) {
          const diagnostics = error instanceof GateError ? error.diagnostics : [];
          const message = errorText(error);
          // the kept policy is checked again against the allowed signers as they are now: a revoked key stops it
          const kept = loaded.policy.reviewCheck;
          if (kept?.verified === true) {
            const again = await reviewLoadedPolicy(loaded.policy, path, loaded.bytes, options);
            if (again.reviewCheck?.verified === false) {
              current = createGate(again, options);
              const why = `${message}; the kept policy no longer verifies: ${again.reviewCheck.message}`;
              return { ok: false, kept: current.policy.ref, message: why, diagnostics };
            }
          }
          return { ok: false, kept: current.policy.ref, message, diagnostics };
        }
      });
      return pending;
    },
  });
}
