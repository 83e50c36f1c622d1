import { resolve as resolvePath } from 'node:path';
import { allowedSignersEnv } from '../policy/allowed-signers-env.ts';
import type { LoadPolicyOptions } from '../policy/load-policy.ts';
import type { Policy } from '../policy/policy.ts';
import { displayPath } from '../review/display-path.ts';
import type { CliIo } from './cli-io.ts';

/** `--allowed-signers FILE [--min-signers N]`: the review check every command that loads a policy takes (docs/reviews.md). */
export const reviewOptions = {
  'allowed-signers': {
    type: 'string',
    value: 'FILE',
    description: `check the policy's review signatures (POLICY.sig) against this allowed-signers file (also $${allowedSignersEnv}); a policy that does not verify denies every decision (docs/reviews.md)`,
  },
  'min-signers': {
    type: 'string',
    value: 'N',
    description: 'distinct allowed signers the review needs (default 1; with `--allowed-signers`)',
  },
  'policy-id': {
    type: 'string',
    value: 'ID',
    description:
      "the policy's `id` must be this, else it is not used (against another reviewed policy copied over the file)",
  },
  'min-version': {
    type: 'string',
    value: 'VERSION',
    description:
      "the policy's `version` must be at least this, else it is not used (against an older reviewed version)",
  },
  'strict-files': {
    type: 'boolean',
    description:
      'refuse a policy, `.sig` or allowed-signers file this user could change or replace (writable, or in a folder it can write; root can change any file): without it such files are named on stderr',
  },
} as const;

/**
 * The review part of `loadPolicy`'s options from `--allowed-signers` (else `LINKGATE_ALLOWED_SIGNERS`, relative to
 * the working directory) and `--min-signers`; a string is a usage error.
 */
export function reviewLoadOptions(
  values: {
    readonly 'allowed-signers'?: string | undefined;
    readonly 'min-signers'?: string | undefined;
    readonly 'policy-id'?: string | undefined;
    readonly 'min-version'?: string | undefined;
    readonly 'strict-files'?: boolean | undefined;
  },
  io: CliIo,
): LoadPolicyOptions | string {
  const pins = pinOptions(values);
  if (typeof pins === 'string') return pins;
  const review = reviewOnly(values, io);
  if (typeof review === 'string') return review;
  return { ...review, ...pins, ...(values['strict-files'] === true ? { strictFiles: true } : {}) };
}

// `--policy-id` and `--min-version`, checked for shape
function pinOptions(values: {
  readonly 'policy-id'?: string | undefined;
  readonly 'min-version'?: string | undefined;
}): Pick<LoadPolicyOptions, 'policyId' | 'minVersion'> | string {
  const policyId = values['policy-id'];
  const minVersion = values['min-version'];
  if (policyId !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(policyId))
    return '`--policy-id` must be a kebab-case policy id';
  if (minVersion !== undefined && !/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/.test(minVersion))
    return '`--min-version` must be a semantic version `MAJOR.MINOR.PATCH`';
  return { ...(policyId === undefined ? {} : { policyId }), ...(minVersion === undefined ? {} : { minVersion }) };
}

function reviewOnly(
  values: { readonly 'allowed-signers'?: string | undefined; readonly 'min-signers'?: string | undefined },
  io: CliIo,
): LoadPolicyOptions | string {
  const fromEnv = io.env[allowedSignersEnv];
  // set and empty is a mistake, not "no check": it fails like the empty option instead of turning the check off
  if (values['allowed-signers'] === undefined && fromEnv === '') return `$${allowedSignersEnv} must not be empty`;
  const given = values['allowed-signers'] ?? fromEnv;
  const min = values['min-signers'];
  // the environment is read here, once, against the command's working directory
  if (given === undefined)
    return min === undefined
      ? { env: {} }
      : `\`--min-signers\` needs \`--allowed-signers FILE\` (or $${allowedSignersEnv})`;
  if (given === '') return '`--allowed-signers` must not be empty';
  const minSigners = min === undefined ? 1 : Number(min);
  if (!/^\d+$/.test(min ?? '1') || !Number.isSafeInteger(minSigners) || minSigners < 1)
    return '`--min-signers` must be a whole number ≥ 1';
  return {
    env: {},
    allowedSigners: resolvePath(io.cwd, given),
    allowedSignersShownAs: displayPath(io.cwd, given),
    minSigners,
  };
}

/**
 * Loads the policy file named on the command line (relative to the working directory, shown as given unless
 * `shownAs` says otherwise), its review checked with `review`; a policy whose review did not verify is named on
 * stderr, since every decision it makes is a deny. Throws what `loadPolicy` throws.
 */
export async function loadReviewedPolicy(
  io: CliIo,
  file: string,
  review: LoadPolicyOptions,
  shownAs: string = displayPath(io.cwd, file),
): Promise<Policy> {
  const { loadPolicyBytes } = await import('../policy/load-policy.ts');
  const { policy, bytes } = await loadPolicyBytes(resolvePath(io.cwd, file), { ...review, shownAs });
  // a policy that did not verify is not used (its settings are locked): only its review failure is worth a line
  if (policy.reviewCheck?.verified !== false) await warnLintErrors(io, bytes, shownAs);
  warnUnreviewed(io, policy);
  await warnReplaceable(io, resolvePath(io.cwd, file), review);
  return policy;
}

/**
 * One stderr line for each file a reviewed policy's trust rests on (the policy, its `.sig`, the allowed-signers
 * file) that this user could change or replace: the review protects nothing against it. Nothing without a review
 * check, and nothing under `--strict-files` (the load already refused such a file).
 */
export async function warnReplaceable(io: CliIo, policyFile: string, review: LoadPolicyOptions): Promise<void> {
  if (review.allowedSigners === undefined || review.strictFiles === true) return;
  const { replaceableBy, trustedFiles } = await import('../policy/replaceable-file.ts');
  for (const { kind, file } of trustedFiles(policyFile, review)) {
    const why = replaceableBy(file);
    if (why !== undefined)
      io.stderr.write(
        `linkgate: warning: the ${kind} \`${displayPath(io.cwd, file)}\` can be changed by this user: ${why}; its review does not hold against this user (--strict-files refuses it)\n`,
      );
  }
}

// the lint errors of the policy in force (a dangerous scheme, an expired review …), once each on stderr at start: a
// policy that loads can still say something nobody meant
async function warnLintErrors(io: CliIo, bytes: Uint8Array, shownAs: string): Promise<void> {
  for (const line of await lintErrorLines(Buffer.from(bytes).toString('utf8'), shownAs, new Date()))
    io.stderr.write(line);
}

// lint warnings worth a line at every load: a consumer profile that drops default consumers protects less than it reads
const loadWarningCodes: ReadonlySet<string> = new Set(['lint.consumers-dropped']);

/** The stderr lines (`linkgate: file:line:col: error …`) for the lint errors of a policy's text on `now`'s UTC day, and the warnings every load repeats (a consumer profile that drops default consumers). */
export async function lintErrorLines(text: string, shownAs: string, now: Date): Promise<string[]> {
  const { lintPolicyText, utcToday } = await import('../review/lint-policy.ts');
  const { formatDiagnostic } = await import('../errors.ts');
  return lintPolicyText(text, shownAs, { today: utcToday(now) })
    .filter((d) => d.severity === 'error' || loadWarningCodes.has(d.code))
    .map((d) => `linkgate: ${formatDiagnostic(d)}\n`);
}

/** One stderr line when the policy's review did not verify: every decision will be a deny, and why. */
export function warnUnreviewed(io: CliIo, policy: Policy): void {
  const check = policy.reviewCheck;
  if (check === undefined || check.verified) return;
  io.stderr.write(`linkgate: policy.unreviewed: ${check.message}; every decision is deny\n`);
}
