// The docs generated from code: path under the repository → text. `npm run gen:docs` writes them; a test fails when they drift.
import { cliReferenceMarkdown } from '../src/cli/cli-reference.ts';
import { policyReferenceMarkdown, reasonCodesMarkdown } from '../src/cli/docs-reference.ts';

/** Every generated doc, by its path from the repository root. */
export function generatedDocs(): Record<string, string> {
  return {
    'docs/cli.md': cliReferenceMarkdown(),
    'docs/reason-codes.md': reasonCodesMarkdown(),
    'docs/policy-reference.md': policyReferenceMarkdown(),
  };
}
