import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allowedSignersEnv } from './allowed-signers-env.ts';
import type { LoadPolicyOptions } from './load-policy.ts';
import { ownedByUs, policyCacheFormat, validNotes, writeCacheFile } from './cache-files.ts';
import { policyDigest } from './policy-digest.ts';
import type { PolicyDocument } from './policy-schema.ts';
import { buildPolicy, type Policy, withReviewCheck } from './policy.ts';
import { readRegularFileSync } from './read-regular-file.ts';
import type { ReviewCheck, ReviewSigner } from './verify-review.ts';

/** What one verified entry holds: the document and review outcome of exactly the inputs its key names. */
interface ReviewedEntry {
  format: number;
  key: string;
  digest: string;
  document: PolicyDocument;
  /** the review check as it verified; absent when only pins (`--policy-id`, `--min-version`) were asked for */
  check?: ReviewCheck;
  /**
   * the span of time (ms since the epoch, null: unbounded) between the time facts nearest the moment of the check
   * (`review.expires`, every `valid-after`/`valid-before` of the allowed signers): the outcome depends on the time only
   * through those, so it holds for a time inside the span and is made again for any time outside it
   */
  from: number | null;
  until: number | null;
  notes?: { tag: string; lines: string[] };
}

// the inputs of the check besides the files, each part of the key
interface ReviewInputs {
  allowedSigners: string | undefined;
  allowedSignersName: string;
  signatureFile: string;
  signatureName: string;
  minSigners: number;
}

/**
 * A reviewed policy (`--allowed-signers`, `--policy-id`, `--min-version`) from a verified entry in `options.dir`, or
 * undefined when there is none to use or make (the caller then does the full load). The key is the sha-256 of every
 * input of the check: this build, the policy's bytes, the signature file's and the allowed-signers file's bytes,
 * `minSigners`, the pins and the names in messages. An entry is used only when the folder and the entry are owned by
 * this user or root and writable by no other user, the folder's owner is root or the owner of this code (whoever can
 * write an entry can already change the check itself), its document still has its digest, and the time now lies in
 * the span the check's outcome holds for. Only a verified outcome is stored; the bytes checked are the bytes hashed.
 * Never under `strictFiles`, and never when an allowed signer's time is in local time (it moves with the time zone).
 */
export async function loadReviewedCached(
  file: string,
  shownAs: string,
  bytes: Buffer,
  options: {
    dir: string | undefined;
    buildKey: string | undefined;
    review: LoadPolicyOptions;
    notes?: { tag: string; make: (text: string) => Promise<readonly string[]> } | undefined;
  },
): Promise<{ policy: Policy; notes: readonly string[] } | undefined> {
  const { dir, buildKey, review, notes } = options;
  if (dir === undefined || buildKey === undefined || review.strictFiles === true) return undefined;
  if (!ownedByUs(dir, true) || !writableOnlyByCodeOwner(dir)) return undefined;
  // only options resolved as the command line resolves them (the environment read already, a count ≥ 1); anything
  // else is the full load's to take or refuse (`reviewOptionsOf`, which would load the yaml parser with it)
  const { allowedSigners, minSigners = 1 } = review;
  if (review.env === undefined || (allowedSigners === undefined && review.env[allowedSignersEnv] !== undefined))
    return undefined;
  if (allowedSigners === '' || !Number.isSafeInteger(minSigners) || minSigners < 1) return undefined;
  const inputs: ReviewInputs = {
    allowedSigners,
    allowedSignersName: allowedSigners === undefined ? '' : (review.allowedSignersShownAs ?? allowedSigners),
    signatureFile: review.signatureFile ?? `${file}.sig`,
    signatureName: review.signatureFile ?? `${shownAs}.sig`,
    minSigners,
  };
  let signersBytes: Buffer | undefined;
  let signatureBytes: Buffer | undefined;
  if (inputs.allowedSigners !== undefined) {
    try {
      signersBytes = readRegularFileSync(inputs.allowedSigners, 1024 * 1024);
      signatureBytes = readRegularFileSync(inputs.signatureFile, 1024 * 1024);
    } catch {
      // missing or unreadable: the full load says why, and nothing is stored
      return undefined;
    }
    if (hasLocalTime(signersBytes.toString('utf8'))) return undefined;
  }
  const key = entryKey(buildKey, shownAs, inputs, review, [bytes, signatureBytes, signersBytes]);
  const entryFile = join(dir, `reviewed-${key}.json`);
  const nowMs = review.nowMs ?? Date.now();
  const hit = readEntry(entryFile, key, file, nowMs);
  if (hit !== undefined && (notes === undefined || hit.notes?.tag === notes.tag))
    return { policy: hit.policy, notes: hit.notes?.lines ?? [] };
  // a miss: the check over exactly the bytes hashed above
  const made = await checkBytes(file, bytes, signatureBytes, signersBytes, inputs, review, nowMs);
  if (made === undefined) return undefined;
  const { policy, from, until } = made;
  if (policy.reviewCheck !== undefined && !policy.reviewCheck.verified) return { policy, notes: [] };
  const lines =
    notes === undefined ? undefined : { tag: notes.tag, lines: [...(await notes.make(bytes.toString('utf8')))] };
  const entry: ReviewedEntry = {
    format: policyCacheFormat,
    key,
    digest: policy.ref.digest,
    document: policy.document,
    ...(policy.reviewCheck === undefined ? {} : { check: policy.reviewCheck }),
    from,
    until,
    ...(lines === undefined ? {} : { notes: lines }),
  };
  await writeCacheFile(dir, entryFile, JSON.stringify(entry));
  return { policy, notes: lines?.lines ?? [] };
}

// the sha-256 of every input of the check, each length-prefixed so no two sets of inputs run together
function entryKey(
  buildKey: string,
  shownAs: string,
  inputs: ReviewInputs,
  review: LoadPolicyOptions,
  files: readonly (Buffer | undefined)[],
): string {
  const hash = createHash('sha256').update(`linkgate reviewed policy ${policyCacheFormat}\n`);
  const part = (value: Buffer | string | undefined) => {
    if (value === undefined) return hash.update('-\n');
    const buffer = typeof value === 'string' ? Buffer.from(value) : value;
    return hash.update(`${buffer.length}\n`).update(buffer);
  };
  const names = JSON.stringify([
    shownAs,
    inputs.allowedSigners,
    inputs.allowedSignersName,
    inputs.signatureName,
    inputs.minSigners,
    review.policyId ?? null,
    review.minVersion ?? null,
  ]);
  for (const value of [buildKey, names, ...files]) part(value);
  return hash.digest('hex');
}

// the policy parsed and checked as the full load does, with the span of time its outcome holds for; undefined when
// the allowed-signers file does not parse (the full load turns that into its failed review)
async function checkBytes(
  file: string,
  bytes: Buffer,
  signatureBytes: Buffer | undefined,
  signersBytes: Buffer | undefined,
  inputs: ReviewInputs,
  review: LoadPolicyOptions,
  nowMs: number,
): Promise<{ policy: Policy; from: number | null; until: number | null } | undefined> {
  const { checkReview, failedReview, parseAllowedSigners, parsePolicy, pinProblem, reviewExpiresAtMs } = await import(
    './load-policy.ts'
  );
  const parsed = parsePolicy(bytes.toString('utf8'), file);
  const pinned = pinProblem(parsed.document, review);
  if (pinned !== undefined)
    return {
      policy: withReviewCheck(parsed, failedReview('pinned', pinned, inputs.minSigners)),
      from: null,
      until: null,
    };
  if (inputs.allowedSigners === undefined || signersBytes === undefined)
    return { policy: parsed, from: null, until: null };
  let signers: ReturnType<typeof parseAllowedSigners>;
  try {
    signers = parseAllowedSigners(signersBytes.toString('utf8'), inputs.allowedSignersName);
  } catch {
    return undefined;
  }
  const check = checkReview(bytes, parsed.document, signatureBytes?.toString('utf8'), signers, {
    required: inputs.minSigners,
    nowMs,
    signatureName: inputs.signatureName,
    allowedSignersName: inputs.allowedSignersName,
  });
  const facts = [
    reviewExpiresAtMs(parsed.document.review.expires),
    ...signers.flatMap((s) => [s.validAfterMs, s.validBeforeMs]),
  ].filter((t): t is number => t !== undefined);
  const before = facts.filter((t) => t <= nowMs);
  const after = facts.filter((t) => t > nowMs);
  return {
    policy: withReviewCheck(parsed, check),
    from: before.length === 0 ? null : Math.max(...before),
    until: after.length === 0 ? null : Math.min(...after),
  };
}

// a verified entry for `key` that holds at `nowMs`, or undefined (a miss)
function readEntry(
  entryFile: string,
  key: string,
  file: string,
  nowMs: number,
): { policy: Policy; notes: ReviewedEntry['notes'] } | undefined {
  try {
    if (!ownedByUs(entryFile, false, 'file')) return undefined;
    const entry = JSON.parse(
      readRegularFileSync(entryFile, 16 * 1024 * 1024).toString('utf8'),
    ) as Partial<ReviewedEntry> | null;
    if (entry === null || typeof entry !== 'object') return undefined;
    if (entry.format !== policyCacheFormat || entry.key !== key || typeof entry.digest !== 'string') return undefined;
    if (entry.document === null || typeof entry.document !== 'object') return undefined;
    // the time facts are checked again at every load: outside the span the check held for, the check is made again
    if (!(entry.from === null || (typeof entry.from === 'number' && nowMs >= entry.from))) return undefined;
    if (!(entry.until === null || (typeof entry.until === 'number' && nowMs < entry.until))) return undefined;
    if (policyDigest(entry.document) !== entry.digest) return undefined;
    const check = entry.check === undefined ? undefined : verifiedCheck(entry.check);
    if (check === null) return undefined;
    const policy = buildPolicy(entry.document, file, { digest: entry.digest, fresh: true });
    return { policy: check === undefined ? policy : withReviewCheck(policy, check), notes: validNotes(entry.notes) };
  } catch {
    return undefined;
  }
}

// the stored check when it is a verified one of the right shape, else null
function verifiedCheck(value: unknown): ReviewCheck | null {
  if (value === null || typeof value !== 'object') return null;
  const c = value as Partial<Record<keyof ReviewCheck, unknown>>;
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
  const signer = (s: unknown): s is ReviewSigner =>
    s !== null &&
    typeof s === 'object' &&
    typeof (s as ReviewSigner).identity === 'string' &&
    typeof (s as ReviewSigner).keyType === 'string' &&
    typeof (s as ReviewSigner).fingerprint === 'string' &&
    typeof (s as ReviewSigner).signature === 'number';
  if (c.verified !== true || !Array.isArray(c.signers) || !c.signers.every(signer)) return null;
  if (typeof c.required !== 'number' || c.signers.length < c.required || !strings(c.notes)) return null;
  if (typeof c.expiresAtMs !== 'number') return null;
  // a signer's `valid-before` that ends the review before `review.expires` is kept with the line that names it
  if (c.expiresBecause !== undefined && typeof c.expiresBecause !== 'string') return null;
  return Object.freeze({
    verified: true,
    signers: c.signers.map((s) => Object.freeze({ ...s })),
    required: c.required,
    problems: [],
    message: '',
    notes: c.notes,
    expiresAtMs: c.expiresAtMs,
    ...(c.expiresBecause === undefined ? {} : { expiresBecause: c.expiresBecause }),
  });
}

// an allowed signer's `valid-after`/`valid-before` without `Z` is local time: its instant depends on the time zone
function hasLocalTime(text: string): boolean {
  return /valid-(?:after|before)="[^"]*(?<!Z)"/i.test(text);
}

// whoever can write an entry in `dir` can already change this code: the folder is root's, or its owner owns the code
// (a folder not made yet will be this process's user's)
function writableOnlyByCodeOwner(dir: string): boolean {
  try {
    const code = lstatSync(fileURLToPath(import.meta.url)).uid;
    let owner: number | undefined;
    try {
      owner = lstatSync(dir).uid;
    } catch {
      owner = process.getuid?.();
    }
    return owner === 0 || owner === code;
  } catch {
    return false;
  }
}
