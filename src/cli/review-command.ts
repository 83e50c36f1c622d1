import { appendFile, readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { parsePolicy, refuseReplaceable, reviewLoadedPolicy } from '../policy/load-policy.ts';
import { readNamedFile } from '../policy/read-named-file.ts';
import { parseSignatureFile } from '../policy/ssh-signature.ts';
import { keyTypeLabel } from '../policy/ssh-public-key.ts';
import { displayPath } from '../review/display-path.ts';
import { parseOpenSshPrivateKey, signPolicyBytes } from '../review/openssh-private-key.ts';
import { commandRunner, defineCommand } from './command-definition.ts';
import { reportLoadError } from './report-error.ts';
import { reviewLoadOptions, reviewOptions } from './review-options.ts';

/** `linkgate review sign|verify` (docs/reviews.md): SSH review signatures of a policy, interoperable with `ssh-keygen -Y`. */
export const reviewDefinition = defineCommand({
  name: 'review',
  summary: "sign a policy's exact bytes with an ssh key, or verify its review signatures",
  synopsis: '(sign --key KEY | verify --allowed-signers FILE [--min-signers N]) POLICY',
  description: [
    "`review sign --key KEY POLICY` signs the policy file's exact bytes with an unencrypted openssh private key in the `linkgate-policy` namespace and appends the armored signature to POLICY.sig, as `ssh-keygen -Y sign -n linkgate-policy -f KEY < POLICY >> POLICY.sig` does (use that for a key with a passphrase or on an agent).",
    "`review verify --allowed-signers FILE POLICY` checks every signature in POLICY.sig against the allowed-signers file (git's `gpg.ssh.allowedSignersFile` format) and prints each one's result; it passes only with at least N distinct allowed signers over these exact bytes whose identities are in the policy's `review.reviewers`, before `review.expires`. The front ends run the same check with `--allowed-signers`.",
  ],
  options: {
    key: { type: 'string', value: 'KEY', description: 'sign: the openssh private key file (without a passphrase)' },
    ...reviewOptions,
  },
  positionals: [
    { name: 'sign|verify', description: 'what to do' },
    { name: 'POLICY', description: 'the policy file; its signatures are in POLICY.sig' },
  ],
  example:
    "d=$(mktemp -d) && ssh-keygen -q -t ed25519 -N '' -C alice@example.com -f $d/key && sed 's/linkgate-security/alice@example.com/' policies/default.yaml > $d/policy.yaml && linkgate review sign --key $d/key $d/policy.yaml && echo \"alice@example.com $(cut -d' ' -f1,2 $d/key.pub)\" > $d/allowed_signers && linkgate review verify --allowed-signers $d/allowed_signers $d/policy.yaml",
  exitCodes: {
    0: 'sign: the signature was appended; verify: the review holds',
    1: 'verify: the review does not hold (the reason is printed)',
    2: 'usage error, or a file that cannot be read (an encrypted key included)',
  },
  run: async ({ values, positionals, usageError }, io) => {
    const [action, file, extra] = positionals;
    if (action !== 'sign' && action !== 'verify')
      return usageError(
        action === undefined ? 'missing `sign` or `verify`' : `unknown action \`${action}\`; expected sign or verify`,
      );
    if (file === undefined) return usageError('missing POLICY');
    if (extra !== undefined) return usageError(`unexpected argument \`${extra}\``);
    const path = resolvePath(io.cwd, file);
    const shown = displayPath(io.cwd, file);

    if (action === 'sign') {
      if (values.key === undefined) return usageError('`review sign` needs `--key KEY`');
      if (values['allowed-signers'] !== undefined || values['min-signers'] !== undefined)
        return usageError('`--allowed-signers` and `--min-signers` are for `review verify`');
      try {
        const keyFile = resolvePath(io.cwd, values.key);
        const keyText = (await readNamedFile('USAGE', 'key', keyFile, displayPath(io.cwd, values.key))).toString(
          'utf8',
        );
        const key = parseOpenSshPrivateKey(keyText, displayPath(io.cwd, values.key));
        const bytes = await readNamedFile('POLICY_UNREADABLE', 'policy', path, shown);
        // a reviewer signs a policy that loads: a signature over a broken file reviews nothing
        parsePolicy(bytes.toString('utf8'), shown);
        await appendFile(`${path}.sig`, signPolicyBytes(key, bytes), { mode: 0o644 });
        const count = parseSignatureFile(await readFile(`${path}.sig`, 'utf8')).length;
        io.stdout.write(
          `signed ${shown} with ${keyTypeLabel(key.publicKey.type)} key ${key.publicKey.fingerprint}; ${shown}.sig now holds ${count} signature${count === 1 ? '' : 's'}\n`,
        );
        return 0;
      } catch (error) {
        return reportLoadError(io, error);
      }
    }

    if (values.key !== undefined) return usageError('`--key` is for `review sign`');
    const review = reviewLoadOptions(values, io);
    if (typeof review === 'string') return usageError(review);
    if (review.allowedSigners === undefined) return usageError('`review verify` needs `--allowed-signers FILE`');
    let check;
    try {
      // --strict-files as every front end takes it: a file the review rests on that this user could change is refused
      // (without it nothing is named: verify says whether the signatures hold, it gates nothing)
      if (review.strictFiles === true) refuseReplaceable(path, review);
      const bytes = await readNamedFile('POLICY_UNREADABLE', 'policy', path, shown);
      const policy = await reviewLoadedPolicy(parsePolicy(bytes.toString('utf8'), shown), path, bytes, {
        ...review,
        shownAs: shown,
      });
      check = policy.reviewCheck;
    } catch (error) {
      return reportLoadError(io, error);
    }
    if (check === undefined) return 2;
    for (const note of check.notes) io.stdout.write(`${shown}: ${note}\n`);
    if (!check.verified) {
      io.stderr.write(`linkgate: ${shown} is not reviewed (policy.unreviewed): ${check.message}\n`);
      return 1;
    }
    const who = check.signers.map((s) => s.identity).join(', ');
    io.stdout.write(
      `${shown}: reviewed: ${check.signers.length} allowed signer${check.signers.length === 1 ? '' : 's'} (${who}), ${check.required} required\n`,
    );
    return 0;
  },
});

/** `linkgate review` as a runnable command. */
export const reviewCommand = commandRunner(reviewDefinition);
