import { errorText } from '../decision/error-line.ts';
import { quoteValue } from '../decision/quote-value.ts';
import { GateError } from '../errors.ts';
import {
  type AllowedSigner,
  matchPatternList,
  maxAllowedSignersBytes,
  parseAllowedSigners,
} from './allowed-signers.ts';
import { readRegularFile } from './read-regular-file.ts';
import { keyTypeLabel, verifySshSignature } from './ssh-public-key.ts';
import { parseSignatureFile, policySignatureNamespace, signedData, type SshSignature } from './ssh-signature.ts';

/** Largest signature file read, bytes. */
export const maxSignatureFileBytes = 1024 * 1024;

/** What is wrong with a review, one word each (the first is the headline of `policy.unreviewed`). */
export type ReviewProblem =
  | 'no-signature'
  | 'bad-armor'
  | 'wrong-namespace'
  | 'bytes-changed'
  | 'unknown-key'
  | 'not-a-reviewer'
  | 'expired'
  | 'too-few-signers'
  | 'allowed-signers'
  | 'pinned';

/** A reviewer whose signature verified: the identity from the allowed-signers file and the key. */
export interface ReviewSigner {
  readonly identity: string;
  /** `ED25519`, `ECDSA`, `RSA` */
  readonly keyType: string;
  readonly fingerprint: string;
  /** which signature of the `.sig` file, 1-based */
  readonly signature: number;
}

/** The outcome of checking a policy's review signatures; `verified` false means the policy must not be used. */
export interface ReviewCheck {
  readonly verified: boolean;
  readonly signers: readonly ReviewSigner[];
  /** distinct signers required (`--min-signers`) */
  readonly required: number;
  /** every problem found, in order; empty when verified */
  readonly problems: readonly ReviewProblem[];
  /** one lowercase line: why the policy is not used (empty when verified) */
  readonly message: string;
  /** per signature block: what it proved or why it did not count */
  readonly notes: readonly string[];
  /**
   * the review is good until this time, ms since the epoch: the start of `review.expires` (UTC), or earlier the
   * `valid-before` from which too few of the counted signers are trusted
   */
  readonly expiresAtMs?: number;
  /** what runs out at `expiresAtMs` when it is a signer's `valid-before`, one lowercase line; absent: `review.expires` */
  readonly expiresBecause?: string;
}

/** How a policy's review is checked: the trust list, how many signers, and the signature file. */
export interface ReviewOptions {
  /** the allowed-signers file (git's `gpg.ssh.allowedSignersFile` format) */
  allowedSigners: string;
  /** the allowed-signers file's name in messages (default: its path) */
  allowedSignersShownAs?: string;
  /** distinct allowed signers required (default 1) */
  minSigners?: number;
  /** the signature file (default: the policy file with `.sig` appended) */
  signatureFile?: string;
  /** the time the review is judged at, ms since the epoch (default: now) */
  nowMs?: number;
}

/** The parts of a policy document a review check reads. */
export interface ReviewedDocument {
  readonly review: { readonly reviewers: readonly string[]; readonly expires: string };
}

/** Start of the `review.expires` day (UTC), ms since the epoch. */
export function reviewExpiresAtMs(expires: string): number {
  const [y, m, d] = expires.split('-').map(Number);
  return Date.UTC(y ?? 0, (m ?? 1) - 1, d ?? 1);
}

/**
 * Checks the review of a policy's exact `bytes`: the signatures in `signatureText` (undefined: no signature file) in
 * the `linkgate-policy` namespace, by keys of `signers` allowed for that namespace now, whose identities are in the
 * document's `review.reviewers`, at least `required` distinct ones, before `review.expires`. Never throws.
 */
export function checkReview(
  bytes: Uint8Array,
  document: ReviewedDocument,
  signatureText: string | undefined,
  signers: readonly AllowedSigner[],
  options: {
    required: number;
    nowMs: number;
    signatureName: string;
    allowedSignersName: string;
    /** the namespace the signatures must be made in (default `linkgate-policy`) */
    namespace?: string;
    /** what was signed, in messages (default `policy`) */
    subject?: string;
  },
): ReviewCheck {
  const namespace = options.namespace ?? policySignatureNamespace;
  const subject = options.subject ?? 'policy';
  const problems: ReviewProblem[] = [];
  const failures: string[] = [];
  const notes: string[] = [];
  const found: ReviewSigner[] = [];
  // per signer counted, when its key stops being trusted for its identity (`valid-before`; undefined: never)
  const ends: { untilMs: number | undefined; why: string }[] = [];
  const usedKeys = new Set<string>();
  const usedIdentities = new Set<string>();
  const expiresAtMs = reviewExpiresAtMs(document.review.expires);
  const blocks = signatureText === undefined ? [] : parseSignatureFile(signatureText);
  // the data signed depends only on the hash algorithm: computed once for each
  const data = { sha256: undefined as Buffer | undefined, sha512: undefined as Buffer | undefined };
  const dataFor = (signature: SshSignature) => {
    data[signature.hashAlgorithm] ??= signedData(namespace, signature.hashAlgorithm, bytes);
    return data[signature.hashAlgorithm] as Buffer;
  };
  for (const [index, block] of blocks.entries()) {
    const label = `signature ${index + 1}`;
    const fail = (problem: ReviewProblem, message: string) => {
      problems.push(problem);
      failures.push(`${label}: ${message}`);
      notes.push(`${label}: ${message}`);
    };
    if (!block.ok) {
      fail('bad-armor', block.problem);
      continue;
    }
    const { publicKey } = block.signature;
    const keyName = `${keyTypeLabel(publicKey.type)} key ${publicKey.fingerprint}`;
    if (block.signature.namespace !== namespace) {
      fail(
        'wrong-namespace',
        `made in namespace ${quoteValue(block.signature.namespace)}, not \`${namespace}\` (${keyName})`,
      );
      continue;
    }
    let good: boolean;
    try {
      good = verifySshSignature(publicKey, block.signature.signature, dataFor(block.signature));
    } catch (error) {
      fail('bad-armor', `malformed signature: ${errorText(error)}`);
      continue;
    }
    if (!good) {
      fail('bytes-changed', `does not match these bytes: the ${subject} changed since it was signed (${keyName})`);
      continue;
    }
    const sameKey = signers.filter((s) => s.key.blob.equals(publicKey.blob));
    if (sameKey.length === 0) {
      fail('unknown-key', `${keyName} is not in the allowed signers ${quoteValue(options.allowedSignersName)}`);
      continue;
    }
    const trusted = sameKey.filter(
      (s) =>
        (s.namespaces === undefined || matchPatternList(namespace, s.namespaces)) &&
        (s.validAfterMs === undefined || options.nowMs >= s.validAfterMs) &&
        (s.validBeforeMs === undefined || options.nowMs < s.validBeforeMs),
    );
    if (trusted.length === 0) {
      const first = sameKey[0] as AllowedSigner;
      const why =
        first.namespaces !== undefined && !matchPatternList(namespace, first.namespaces)
          ? `may not sign in \`${namespace}\` (namespaces="${first.namespaces.join(',')}")`
          : 'is outside its valid-after/valid-before window';
      fail('unknown-key', `${keyName} ${why} at ${quoteValue(`${options.allowedSignersName}:${first.line}`)}`);
      continue;
    }
    if (usedKeys.has(publicKey.fingerprint)) {
      notes.push(`${label}: a second signature by ${keyName}; counted once`);
      continue;
    }
    const identities = document.review.reviewers.filter((r) => trusted.some((s) => matchPatternList(r, s.principals)));
    if (identities.length === 0) {
      const names = trusted.flatMap((s) => s.principals).join(',');
      fail('not-a-reviewer', `${keyName} belongs to ${quoteValue(names)}, not one of review.reviewers`);
      continue;
    }
    const identity = identities.find((i) => !usedIdentities.has(i));
    if (identity === undefined) {
      notes.push(`${label}: ${keyName} signs for ${quoteValue(identities.join(','))}, already counted`);
      continue;
    }
    usedKeys.add(publicKey.fingerprint);
    usedIdentities.add(identity);
    const lines = sameKey.filter((s) => s.namespaces === undefined || matchPatternList(namespace, s.namespaces));
    ends.push(signerEnd(identity, keyName, lines, options.nowMs, options.allowedSignersName));
    found.push({
      identity,
      keyType: keyTypeLabel(publicKey.type),
      fingerprint: publicKey.fingerprint,
      signature: index + 1,
    });
    notes.push(`${label}: good signature for ${quoteValue(identity)} with ${keyName}`);
  }
  const headline: string[] = [];
  if (options.nowMs >= expiresAtMs) {
    problems.unshift('expired');
    headline.push(`the review expired on ${document.review.expires} (review.expires)`);
  }
  if (found.length < options.required) {
    if (blocks.length === 0) {
      problems.unshift('no-signature');
      headline.push(
        signatureText === undefined
          ? `no signature: ${quoteValue(options.signatureName)} not found`
          : `no signature in ${quoteValue(options.signatureName)}`,
      );
    } else if (found.length > 0 || failures.length === 0) {
      problems.push('too-few-signers');
      const who = found.length === 0 ? '' : ` (${found.map((f) => quoteValue(f.identity)).join(', ')})`;
      headline.push(`${found.length} valid signer${found.length === 1 ? '' : 's'}${who}, ${options.required} required`);
    }
    headline.push(...failures);
  }
  const verified = headline.length === 0;
  // a signer counted now stops counting at its `valid-before`: the review holds while `required` of them are trusted,
  // so a check kept by a running proxy, eval or hook fails at the first moment fewer are (a signer whose `valid-after`
  // is still ahead never counted: the check stays failed until the policy is loaded again)
  const quorumEnd = verified ? [...ends].sort(byEnd)[found.length - options.required] : undefined;
  const signerEndsFirst = quorumEnd?.untilMs !== undefined && quorumEnd.untilMs < expiresAtMs;
  return Object.freeze({
    verified,
    signers: found,
    required: options.required,
    problems: verified ? [] : problems,
    message: headline.join('; '),
    notes,
    expiresAtMs: signerEndsFirst ? (quorumEnd.untilMs as number) : expiresAtMs,
    ...(signerEndsFirst
      ? {
          expiresBecause:
            options.required > 1 ? `${quorumEnd.why}, ${options.required} valid signers required` : quorumEnd.why,
        }
      : {}),
  });
}

// when a counted signer's key stops being trusted for `identity` in the namespace (`lines`: its allowed-signers lines
// for that namespace): the latest `valid-before` of the lines that trust it at `nowMs`, carried on through lines whose
// window opens by then (a key renewed on a new line stays trusted); undefined when a line has no `valid-before`
function signerEnd(
  identity: string,
  keyName: string,
  lines: readonly AllowedSigner[],
  nowMs: number,
  allowedSignersName: string,
): { untilMs: number | undefined; why: string } {
  const mine = lines.filter((s) => matchPatternList(identity, s.principals));
  let last: AllowedSigner | undefined;
  for (let endMs = nowMs; ; ) {
    const next = mine.filter(
      (s) => (s.validAfterMs === undefined || s.validAfterMs <= endMs) && (s.validBeforeMs ?? Infinity) > endMs,
    );
    if (next.length === 0) break;
    if (next.some((s) => s.validBeforeMs === undefined)) return { untilMs: undefined, why: '' };
    for (const s of next)
      if (last === undefined || (s.validBeforeMs as number) > (last.validBeforeMs as number)) last = s;
    endMs = last?.validBeforeMs as number;
  }
  if (last === undefined) return { untilMs: undefined, why: '' };
  const at = new Date(last.validBeforeMs as number).toISOString().replace('.000Z', 'Z');
  return {
    untilMs: last.validBeforeMs,
    why: `the signer ${quoteValue(identity)} (${keyName}) is past its valid-before ${at} at ${quoteValue(`${allowedSignersName}:${last.line}`)}`,
  };
}

// the earliest end first; a signer trusted without end last
function byEnd(a: { untilMs: number | undefined }, b: { untilMs: number | undefined }): number {
  if (a.untilMs === undefined) return b.untilMs === undefined ? 0 : 1;
  return b.untilMs === undefined ? -1 : a.untilMs - b.untilMs;
}

/** A review check that failed before any signature was looked at (an unreadable or malformed allowed-signers file). */
export function failedReview(problem: ReviewProblem, message: string, required: number): ReviewCheck {
  return Object.freeze({ verified: false, signers: [], required, problems: [problem], message, notes: [] });
}

/**
 * Reads the signature file and the allowed-signers file and checks the review of `bytes` (the policy file's exact
 * bytes, already parsed into `document`). Never throws: an unreadable or malformed file is a failed review.
 */
export async function reviewPolicyBytes(
  policyFile: string,
  shownAs: string,
  bytes: Uint8Array,
  document: ReviewedDocument,
  options: ReviewOptions,
): Promise<ReviewCheck> {
  const required = options.minSigners ?? 1;
  const allowedSignersName = options.allowedSignersShownAs ?? options.allowedSigners;
  let signers: AllowedSigner[];
  try {
    const text = await readCapped(options.allowedSigners, maxAllowedSignersBytes);
    if (text === undefined)
      return failedReview(
        'allowed-signers',
        `the allowed signers ${quoteValue(allowedSignersName)} not found`,
        required,
      );
    signers = parseAllowedSigners(text, allowedSignersName);
  } catch (error) {
    const detail = errorText(error);
    return failedReview(
      'allowed-signers',
      error instanceof GateError && error.code === 'USAGE'
        ? `the allowed signers ${detail}`
        : `the allowed signers ${quoteValue(allowedSignersName)} ${detail}`,
      required,
    );
  }
  const signatureFile = options.signatureFile ?? `${policyFile}.sig`;
  const signatureName = options.signatureFile ?? `${shownAs}.sig`;
  let signatureText: string | undefined;
  try {
    signatureText = await readCapped(signatureFile, maxSignatureFileBytes);
  } catch (error) {
    const detail = errorText(error);
    return failedReview('no-signature', `the signature file ${quoteValue(signatureName)} ${detail}`, required);
  }
  return checkReview(bytes, document, signatureText, signers, {
    required,
    nowMs: options.nowMs ?? Date.now(),
    signatureName,
    allowedSignersName,
  });
}

// the file's text, or undefined when it does not exist; throws on other read errors and on files over the cap
async function readCapped(file: string, maxBytes: number): Promise<string | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(file, maxBytes);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    const why = code === undefined ? (error instanceof Error ? error.message : 'error') : code;
    throw new GateError('POLICY_UNREADABLE', `cannot be read (${why})`);
  }
  return bytes.toString('utf8');
}
