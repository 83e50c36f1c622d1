import { commandRunner, defineCommand } from './command-definition.ts';
import { reportLoadError } from './report-error.ts';

// named here as well as in bundle-actions.ts, which this file loads only when the command runs
const registryPasswordEnv = 'LINKGATE_REGISTRY_PASSWORD';

/** `linkgate bundle build|sign|push|pull|status` (docs/fleet.md): signed policy bundles for a fleet. */
export const bundleDefinition = defineCommand({
  name: 'bundle',
  summary:
    'build, sign, publish and pull signed policy bundles; a pull activates only what verifies, never an older revision',
  synopsis:
    '(build POLICY --revision N [--expires TIME] --out DIR | sign --key KEY DIR | push DIR REF | pull REF --allowed-signers FILE --state DIR | status --state DIR [--json]) [--plain-http] [--user USER]',
  description: [
    '`bundle build` writes DIR/manifest.json (revision, publish time, expiry, minimum linkgate version, sha256 of every file) beside the policy (`policy.yaml`) and its review signatures; the manifest is then signed with `ssh-keygen -Y sign -n linkgate-bundle -f KEY DIR/manifest.json` or `bundle sign --key KEY DIR` (an unencrypted openssh key).',
    '`bundle push DIR REF` publishes a signed bundle folder as an OCI artifact (`oci://HOST[:PORT]/REPO:TAG`); for an `https://` folder, copy DIR to the web server instead.',
    "`bundle pull REF --allowed-signers FILE --state DIR` polls REF (a conditional request: an unchanged bundle costs one small request) and activates what it offers only when the manifest's signature holds against the allowed signers, its revision is not below the highest ever activated in DIR, it has not expired, this linkgate is new enough, every file matches its digest, and the policy lints, compiles and its review verifies; then the revision is swapped in with a rename. A refusal keeps the active bundle and says why on stderr and in DIR/status.json. DIR must be a folder the gated user cannot write.",
    '`bundle status --state DIR` prints the active revision, its expiry and the last pull result. `eval`, `probe`, `proxy` and `hook` take `--bundle DIR` instead of `--policy FILE`.',
    `a registry or web server that asks for credentials gets \`--user USER\` and the password in $${registryPasswordEnv} (basic, or a bearer token from the registry's token service).`,
  ],
  options: {
    revision: {
      type: 'string',
      value: 'N',
      description: 'build: the revision, a whole number higher than every one published before',
    },
    expires: {
      type: 'string',
      value: 'TIME',
      description:
        'build: iso 8601 expiry (default: 30 days after the build); an expired bundle is refused and an active one denies everything',
    },
    out: { type: 'string', value: 'DIR', description: 'build: the bundle folder to write (new or empty)' },
    key: { type: 'string', value: 'KEY', description: 'sign: the openssh private key file (without a passphrase)' },
    'allowed-signers': {
      type: 'string',
      value: 'FILE',
      description:
        "pull: the allowed-signers file (the reviews' one) the manifest and the policy's review are checked against",
    },
    'min-signers': {
      type: 'string',
      value: 'N',
      description: 'pull: distinct allowed signers the manifest and the review need (default 1)',
    },
    state: { type: 'string', value: 'DIR', description: 'pull, status: the state folder holding the active bundle' },
    'plain-http': {
      type: 'boolean',
      description: 'push, pull: speak plain http to a loopback registry or folder (tests)',
    },
    user: {
      type: 'string',
      value: 'USER',
      description: `push, pull: the user name for a registry that asks; the password is $${registryPasswordEnv}`,
    },
    json: { type: 'boolean', description: 'status: print json' },
    otel: {
      type: 'boolean',
      description:
        "pull: send one `linkgate.bundle.pull` span (result, active revision, refusal) through the optional @opentelemetry/sdk-node peer: the fleet's status record",
    },
  },
  positionals: [
    { name: 'build|sign|push|pull|status', description: 'what to do' },
    { name: 'ARGS', description: 'build: POLICY; sign: DIR; push: DIR REF; pull: REF' },
  ],
  example:
    "d=$(mktemp -d) && ssh-keygen -q -t ed25519 -N '' -C alice@example.com -f $d/key && sed 's/linkgate-security/alice@example.com/' policies/default.yaml > $d/policy.yaml && linkgate review sign --key $d/key $d/policy.yaml && linkgate bundle build $d/policy.yaml --revision 1 --out $d/bundle && linkgate bundle sign --key $d/key $d/bundle && cat $d/bundle/manifest.json",
  exitCodes: {
    0: 'done; pull: a revision was activated or nothing changed',
    1: 'pull: refused (the reason is on stderr and in status.json; the active bundle stays); status: no bundle active',
    2: 'usage error, or a file that cannot be read',
  },
  run: async ({ values, positionals, usageError }, io) => {
    const [action, first, second, extra] = positionals;
    const { runBundleAction } = await import('./bundle-actions.ts');
    if (action === undefined) return usageError('missing `build`, `sign`, `push`, `pull` or `status`');
    try {
      return await runBundleAction({ action, first, second, extra, values, usageError }, io);
    } catch (error) {
      return reportLoadError(io, error);
    }
  },
});

/** `linkgate bundle` as a runnable command. */
export const bundleCommand = commandRunner(bundleDefinition);
