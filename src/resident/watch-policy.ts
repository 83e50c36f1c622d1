// The resident server reloads its policy when the files it rests on change (the policy, its review signatures
// `POLICY.sig`, the allowed signers), as it does on SIGHUP: each folder is watched (an editor or a deployment replaces
// a file by renaming a new one over it, which a watch on the file itself would lose), a burst of changes is reloaded
// once it settles, and the reload checks the new policy as a start does. A file that does not load keeps the policy
// in force (a reload that does not verify puts a policy in force that denies everything: `holdPolicy`); every outcome
// is reported, one line each.
import { type FSWatcher, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { ReloadOutcome } from '../gate/reload-policy.ts';

/** Milliseconds with no further change before a reload: a file written in several steps is read once, whole. */
export const policySettleMs = 250;

/** A running watch; `close` ends it (a reload already started still reports). */
export interface PolicyWatch {
  close(): void;
}

/**
 * Watches `files` and calls `reload` once their changes settle; `report` gets each outcome, and a watch that fails
 * (a folder removed) as `{ watchFailed }`: the policy in force stays, reloads then need SIGHUP.
 */
export function watchPolicyFiles(
  files: readonly string[],
  reload: () => Promise<ReloadOutcome>,
  report: (outcome: ReloadOutcome | { watchFailed: string }) => void,
  settleMs: number = policySettleMs,
): PolicyWatch {
  const byFolder = new Map<string, Set<string>>();
  for (const file of files) {
    const names = byFolder.get(dirname(file)) ?? new Set<string>();
    names.add(basename(file));
    byFolder.set(dirname(file), names);
  }
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const changed = () => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      void reload().then(report, (error: unknown) =>
        report({ watchFailed: error instanceof Error ? error.message : String(error) }),
      );
    }, settleMs);
  };
  const watchers: FSWatcher[] = [];
  for (const [folder, names] of byFolder) {
    const watcher = watch(folder, { persistent: false }, (_event, name) => {
      // a platform that does not name the file: any change in the folder reloads
      if (name === null || names.has(name.toString())) changed();
    });
    watcher.on('error', (error) => report({ watchFailed: `\`${folder}\`: ${error.message}` }));
    watchers.push(watcher);
  }
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}

/** One line for stderr of a watch outcome (the SIGHUP reload's wording). */
export function reloadLine(outcome: ReloadOutcome | { watchFailed: string }, cause: string): string {
  if ('watchFailed' in outcome)
    return `linkgate resident: the policy files are no longer watched (${outcome.watchFailed}): reload with SIGHUP`;
  if (!outcome.ok) return `linkgate resident: ${cause}: kept the policy in force: ${outcome.message}`;
  const unreviewed =
    outcome.unreviewed === undefined ? '' : ` (it does not verify and denies everything: ${outcome.unreviewed})`;
  return `linkgate resident: ${cause}: reload ok, policy \`${outcome.policy.id}\` ${outcome.policy.version}${unreviewed}`;
}
