import { isMap, LineCounter, parseDocument } from 'yaml';
import type { Diagnostic } from '../errors.ts';
import { policySignatureNamespace, parseSignatureFile, signatureMatches } from '../policy/ssh-signature.ts';
import { readRegularFile } from '../policy/read-regular-file.ts';
import {
  maxSignatureFileBytes,
  type ReviewedDocument,
  type ReviewOptions,
  reviewPolicyBytes,
} from '../policy/verify-review.ts';
import { locatePath } from '../policy/yaml-locate.ts';
import { lintCodes, type LintCode } from './lint-codes.ts';

/**
 * The signature state of one policy file, as lint findings at its `review` key. With a trust list (`review`): a
 * an error when it has no `POLICY.sig`, and when signatures are there but the review does not hold. Without
 * one: only the signatures that are there are checked (armor, namespace, these bytes), an error when any fails.
 */
export async function lintReviewSignatures(
  bytes: Uint8Array,
  document: ReviewedDocument,
  file: string,
  shown: string,
  review: ReviewOptions | undefined,
): Promise<Diagnostic[]> {
  const text = Buffer.from(bytes).toString('utf8');
  let signatures: string | undefined;
  try {
    signatures = (await readRegularFile(`${file}.sig`, maxSignatureFileBytes)).toString('utf8');
  } catch {
    signatures = undefined;
  }
  const finding = (code: LintCode, message: string): Diagnostic[] => {
    const lineCounter = new LineCounter();
    const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
    const { line, col } = locatePath(isMap(doc.contents) ? doc.contents : undefined, lineCounter, ['review'], 'key');
    return [{ file: shown, line, col, severity: lintCodes[code].severity, code, message, path: 'review' }];
  };
  if (signatures === undefined || parseSignatureFile(signatures).length === 0)
    return review === undefined
      ? []
      : finding(
          'lint.review-unsigned',
          `no review signature in \`${shown}.sig\`: sign it with \`ssh-keygen -Y sign -n ${policySignatureNamespace}\` or \`linkgate review sign\``,
        );
  if (review !== undefined) {
    const check = await reviewPolicyBytes(file, shown, bytes, document, review);
    return check.verified ? [] : finding('lint.review-signature-invalid', `the review does not hold: ${check.message}`);
  }
  const problems: string[] = [];
  for (const [index, block] of parseSignatureFile(signatures).entries()) {
    if (!block.ok) problems.push(`signature ${index + 1}: ${block.problem}`);
    else if (block.signature.namespace !== policySignatureNamespace)
      problems.push(`signature ${index + 1}: made in namespace \`${block.signature.namespace.slice(0, 40)}\``);
    else if (!signatureMatches(block.signature, bytes))
      problems.push(`signature ${index + 1}: does not match these bytes: the policy changed since it was signed`);
  }
  return problems.length === 0
    ? []
    : finding('lint.review-signature-invalid', `a review signature does not hold: ${problems.join('; ')}`);
}
