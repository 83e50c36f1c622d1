import { errorText } from '../decision/error-line.ts';
import { quoteValue } from '../decision/quote-value.ts';
import { type AllowedSigner, parseAllowedSigners } from '../policy/allowed-signers.ts';
import { checkReview, failedReview, type ReviewCheck } from '../policy/verify-review.ts';
import { bundleSignatureNamespace, manifestSignatureName } from './bundle-manifest.ts';

/** Whom a manifest signature is checked against: the allowed-signers file reviews use, and how many signers. */
export interface ManifestTrust {
  /** the allowed-signers file's text */
  readonly allowedSignersText: string;
  /** its name in messages */
  readonly allowedSignersName: string;
  /** distinct allowed signers required (default 1) */
  readonly minSigners?: number;
}

/**
 * Checks the signatures of a manifest's exact bytes (`manifest.json.sig`) with the review verifier: made in the
 * `linkgate-bundle` namespace by keys of the allowed-signers file that may sign in it now. Any principal of the file
 * may publish. Never throws: a malformed allowed-signers file is a failed check.
 */
export function checkManifestSignature(
  bytes: Uint8Array,
  signatureText: string | undefined,
  trust: ManifestTrust,
  nowMs: number,
): ReviewCheck {
  const required = trust.minSigners ?? 1;
  let signers: AllowedSigner[];
  try {
    signers = parseAllowedSigners(trust.allowedSignersText, trust.allowedSignersName);
  } catch (error) {
    const detail = errorText(error);
    return failedReview('allowed-signers', `the allowed signers ${detail}`, required);
  }
  // every principal of the file counts: the signer's identity is the first principal its key line names
  const reviewers = [...new Set(signers.flatMap((s) => s.principals.filter((p) => !p.startsWith('!'))))];
  return checkReview(bytes, { review: { reviewers, expires: '9999-12-31' } }, signatureText, signers, {
    required,
    nowMs,
    signatureName: manifestSignatureName,
    allowedSignersName: trust.allowedSignersName,
    namespace: bundleSignatureNamespace,
    subject: 'manifest',
  });
}

/** One line naming who signed a manifest (for status and messages). */
export function signedBy(check: ReviewCheck): string {
  return check.signers.map((s) => quoteValue(s.identity)).join(', ');
}
