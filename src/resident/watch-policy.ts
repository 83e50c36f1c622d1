// The resident server reloads its policy when the files it rests on change (the policy, its review signatures
// `POLICY.sig`, the allowed signers), as it does on SIGHUP: each folder is watched (an editor or a deployment replaces
// a file by renaming a new one over it, which a watch on the file itself would lose), a burst of changes is reloaded
// once it settles, and the reload checks the new policy as a start does. A file that does not load keeps the policy
// in force (a reload that does not verify puts a policy in force that denies everything: `holdPolicy`); every outcome
// is reported, one line each.
//
// The policy file itself is reloaded only when it was replaced (a new file renamed over it, or made anew) and its bytes
// read the same twice, `settleMs` apart: a file written in place may be half written when it is read, and a policy cut
// short can still parse, looser than the whole one. A policy written in place is reported and not loaded until it is
// replaced or SIGHUP asks for it. The signatures and the allowed signers are reloaded however they change: cut short,
// they verify fewer signatures, never more.
import { type FSWatcher, statSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { ReloadOutcome } from '../gate/reload-policy.ts';
import { sha256 } from '../hook/sha256.ts';
import { maxPolicyFileBytes, readRegularFileSync } from '../policy/read-regular-file.ts';

/** Milliseconds with no further change before a reload: a file written in several steps is read once, whole. */
export const policySettleMs = 250;

/** What a watch reports: a reload's outcome, a watch that failed, or a policy written in place (not loaded). */
export type WatchOutcome = ReloadOutcome | { watchFailed: string } | { writtenInPlace: string };

/** A running watch; `close` ends it (a reload already started still reports). */
export interface PolicyWatch {
  /** the policy file as it is now is the one in force (a SIGHUP reload): a change after this is judged against it */
  loaded(): void;
  close(): void;
}

/**
 * Watches `policy` and the files it rests on (`others`: signatures, allowed signers) and calls `reload` once their
 * changes settle, the policy only when it was replaced and its bytes are stable; `report` gets each outcome, a policy
 * written in place (`writtenInPlace`), and a watch that fails (a folder removed) as `{ watchFailed }`: the policy in
 * force stays, reloads then need SIGHUP.
 */
export function watchPolicyFiles(
  policy: string,
  others: readonly string[],
  reload: () => Promise<ReloadOutcome>,
  report: (outcome: WatchOutcome) => void,
  settleMs: number = policySettleMs,
): PolicyWatch {
  const byFolder = new Map<string, Set<string>>();
  for (const file of [policy, ...others]) {
    const names = byFolder.get(dirname(file)) ?? new Set<string>();
    names.add(basename(file));
    byFolder.set(dirname(file), names);
  }
  // the policy file last examined: its identity when the watch started, or when the watch last reloaded it, whether
  // it loaded or not. A file renamed over it is compared with the file that stands there, never with one already
  // removed, whose inode a new file may reuse (that read as a write in place, and a good policy was never loaded)
  let inForce = identityOf(policy);
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  // each burst of changes gets a number: a check a later change overtook does nothing
  let burst = 0;
  const reloadNow = (identity: FileIdentity | null) => {
    if (identity !== null) inForce = identity;
    void reload().then(
      (outcome) => report(outcome),
      (error: unknown) => report({ watchFailed: error instanceof Error ? error.message : String(error) }),
    );
  };
  // the policy as it is now, against the one in force: untouched, written in place, or replaced (gone: the reload
  // says it does not load), which is loaded once two reads `settleMs` apart agree (`earlier`: the first read)
  const settle = (at: number, earlier?: FileIdentity | null): void => {
    const now = identityOf(policy);
    if (closed || at !== burst) return;
    const base = inForce;
    const sameFile = now !== null && base !== null && now.dev === base.dev && now.ino === base.ino;
    if (sameFile && now.size === base.size && now.digest === base.digest) reloadNow(now);
    else if (sameFile) report({ writtenInPlace: policy });
    else if (earlier !== undefined && sameIdentity(now, earlier)) reloadNow(now);
    else timer = setTimeout(() => settle(at, now), settleMs);
  };
  const changed = () => {
    if (closed) return;
    clearTimeout(timer);
    burst += 1;
    const at = burst;
    timer = setTimeout(() => settle(at), settleMs);
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
    loaded() {
      inForce = identityOf(policy);
    },
    close() {
      closed = true;
      clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}

/** A file as the watch compares it: device and inode (which file), size, modification time and digest (its bytes). */
interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  digest: string;
}

function sameIdentity(a: FileIdentity | null, b: FileIdentity | null): boolean {
  if (a === null || b === null) return a === b;
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.digest === b.digest;
}

// the identity of `file` now, its bytes read as a policy is (a regular file under the cap, never blocking on a FIFO);
// null when it cannot be read; the stat is taken after the read, so a write during it changes the identity
function identityOf(file: string): FileIdentity | null {
  try {
    const bytes = readRegularFileSync(file, maxPolicyFileBytes);
    const stats = statSync(file);
    const digest = sha256(bytes).toString('hex');
    return { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs, digest };
  } catch {
    return null;
  }
}

/** One line for stderr of a watch outcome (the SIGHUP reload's wording). */
export function reloadLine(outcome: WatchOutcome, cause: string): string {
  if ('watchFailed' in outcome)
    return `linkgate resident: the policy files are no longer watched (${outcome.watchFailed}): reload with SIGHUP`;
  if ('writtenInPlace' in outcome)
    return `linkgate resident: ${cause}: the policy \`${outcome.writtenInPlace}\` was written in place and may be half written: kept the policy in force (rename a new file over it, or reload with SIGHUP)`;
  if (!outcome.ok) return `linkgate resident: ${cause}: kept the policy in force: ${outcome.message}`;
  const unreviewed =
    outcome.unreviewed === undefined ? '' : ` (it does not verify and denies everything: ${outcome.unreviewed})`;
  return `linkgate resident: ${cause}: reload ok, policy \`${outcome.policy.id}\` ${outcome.policy.version}${unreviewed}`;
}
