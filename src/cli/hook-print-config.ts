import { join, resolve as resolvePath } from 'node:path';
import { GateError } from '../errors.ts';
import { hookBlindPathLine, hookBlindSpotLine } from '../hook/host-blind-spots.ts';
import type { HookHost } from '../hook/hook-hosts.ts';
import { hookSettings, shellQuote } from '../hook/hook-settings.ts';
import { namedStateFolder } from '../hook/state-folder.ts';
import type { HostDescription } from '../hosts/host-description.ts';
import { hostDescriptions } from '../hosts/hosts.ts';
import type { LoadPolicyOptions } from '../policy/load-policy.ts';
import { recordsPathError, recordsPathProblem } from '../record/records-file.ts';
import { namedRecordsPath } from '../record/records-folder.ts';
import { displayPath } from '../review/display-path.ts';
import type { CliIo } from './cli-io.ts';
import { failClosed } from './hook-failure.ts';
import { cliEntry, packageRoot, perEventEntry } from './package-root.ts';
import { warnReplaceable } from './review-options.ts';

/** The options of `linkgate hook HOST --print-config` the printed command line is made of. */
export interface PrintConfigValues {
  readonly policy?: string | undefined;
  readonly bundle?: string | undefined;
  readonly records?: string | undefined;
  readonly state?: string | undefined;
  readonly server?: string | undefined;
  readonly mode?: string | undefined;
  readonly 'on-record-error'?: string | undefined;
}

/**
 * `linkgate hook HOST --print-config`: checks that the policy loads (and verifies, with allowed signers) and prints the
 * host's hooks block running the per-event command, with the `linkgate proxy` entry for `--server NAME -- COMMAND`
 * (`rest`); exit 2 with the reason when the policy or the records path would fail every event.
 */
export async function printHookConfig(
  host: HookHost,
  values: PrintConfigValues,
  rest: readonly string[],
  review: LoadPolicyOptions,
  io: CliIo,
): Promise<number> {
  const mode = values.mode === 'observe' ? 'observe' : 'enforce';
  const policy = resolvePath(io.cwd, values.policy ?? join(packageRoot(), 'policies', 'default.yaml'));
  let trustedPolicy = policy;
  try {
    // a policy that does not load, or does not verify against the allowed signers, would fail or deny every event
    // in the host: refuse to print it (loaded here only: an event reads the validated policy from the cache
    // without the yaml parser)
    const { loadPolicy } = await import('../policy/load-policy.ts');
    const shownAs = values.policy === undefined ? policy : displayPath(io.cwd, values.policy);
    let loaded;
    if (values.bundle === undefined) loaded = await loadPolicy(policy, { ...review, shownAs });
    else {
      const { loadBundlePolicy } = await import('../bundle/bundle-policy.ts');
      const bundle = await loadBundlePolicy(resolvePath(io.cwd, values.bundle), review);
      // the files whose writability matters are the active revision's
      trustedPolicy = bundle.state.policyFile;
      loaded = bundle.policy;
    }
    const check = loaded.reviewCheck;
    const blind = hookBlindSpotLine(host, loaded);
    if (blind !== null) io.stderr.write(`linkgate hook: ${blind}\n`);
    if (check !== undefined && !check.verified)
      throw new GateError('POLICY_INVALID', `policy.unreviewed: ${check.message}; every read would be denied`);
  } catch (error) {
    return failClosed(io, error);
  }
  // records the host's hook could never write would be lost (observe) or fail every event (enforce)
  // the folder the user names now, at its real path: a symlink planted on the way later is refused at each event
  const namedRecords = values.records === undefined ? undefined : namedRecordsPath(resolvePath(io.cwd, values.records));
  const recordsProblem = namedRecords === undefined ? null : recordsPathProblem(namedRecords);
  if (recordsProblem !== null)
    return failClosed(io, recordsPathError(displayPath(io.cwd, values.records ?? ''), recordsProblem));
  await warnReplaceable(io, trustedPolicy, review);
  const shared: string[] = [];
  if (values.bundle === undefined) shared.push('--policy', policy);
  else shared.push('--bundle', resolvePath(io.cwd, values.bundle));
  if (namedRecords !== undefined) shared.push('--records', namedRecords);
  const tail: string[] = [];
  if (review.allowedSigners !== undefined)
    tail.push('--allowed-signers', review.allowedSigners, '--min-signers', String(review.minSigners ?? 1));
  if (review.policyId !== undefined) tail.push('--policy-id', review.policyId);
  if (review.minVersion !== undefined) tail.push('--min-version', review.minVersion);
  if (review.strictFiles === true) tail.push('--strict-files');
  if (mode === 'observe') tail.push('--mode', 'observe');
  if (values['on-record-error'] === 'report') tail.push('--on-record-error', 'report');
  // the per-event start with V8's code cache, by the installed bundle's absolute path (docs/speed.md)
  const command = ['node', perEventEntry(), 'hook', host, ...shared];
  if (values.state !== undefined) command.push('--state', namedStateFolder(resolvePath(io.cwd, values.state)));
  command.push(...tail);
  // the host's own hooks block, from its description (src/hosts/)
  const description = hostDescriptions[host];
  const settings = hookSettings(description, command.map(shellQuote).join(' '));
  if (values.server === undefined) io.stderr.write(`linkgate hook: ${hooksAloneLine(host, description)}\n`);
  else {
    // the proxy in front of the server: it sees every read and result itself, so nothing depends on a hook running
    const args = [cliEntry(), 'proxy', ...shared, '--server', values.server, ...tail, '--', ...rest];
    settings[description.setup.serversKey] = { [values.server]: { command: 'node', args } };
  }
  io.stdout.write(`${JSON.stringify(settings, null, 2)}\n`);
  return 0;
}

/**
 * What `--print-config` says on stderr when it prints the hooks alone: how the host fails with hooks only, and what
 * reaches the model on a path no hook of it can gate (Claude Code's tool results with `isError: true`).
 */
function hooksAloneLine(name: HookHost, host: HostDescription): string {
  const blind = hookBlindPathLine(name);
  return `${host.setup.hooksAlone}${blind === null ? '' : `; ${blind}`}; give \`--server NAME -- COMMAND [ARG…]\` to print the proxy that fronts each server as well`;
}
