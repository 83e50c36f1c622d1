import { resolve as resolvePath } from 'node:path';
import { buildBundle, signBundle } from '../bundle/build-bundle.ts';
import type { BundleSource, SourceCredentials } from '../bundle/bundle-source.ts';
import { bundleState, highWaterMark, readStateFile, stateFiles } from '../bundle/bundle-state.ts';
import { httpFolderSource, parseFolderUrl } from '../bundle/http-folder-source.ts';
import { ociBundleSource, pushOciBundle } from '../bundle/oci-bundle.ts';
import { parseOciReference } from '../bundle/oci-reference.ts';
import { pullBundle } from '../bundle/pull-bundle.ts';
import { readNamedFile } from '../policy/read-named-file.ts';
import { displayPath } from '../review/display-path.ts';
import { parseOpenSshPrivateKey } from '../review/openssh-private-key.ts';
import type { CliIo } from './cli-io.ts';
import { packageVersion } from './package-version.ts';

/** The environment variable holding the registry or web server password for `--user`. */
export const registryPasswordEnv = 'LINKGATE_REGISTRY_PASSWORD';

/** The parsed command line of `linkgate bundle`. */
export interface BundleAction {
  readonly action: string;
  readonly first: string | undefined;
  readonly second: string | undefined;
  readonly extra: string | undefined;
  readonly values: {
    readonly revision?: string | undefined;
    readonly expires?: string | undefined;
    readonly out?: string | undefined;
    readonly key?: string | undefined;
    readonly 'allowed-signers'?: string | undefined;
    readonly 'min-signers'?: string | undefined;
    readonly state?: string | undefined;
    readonly 'plain-http'?: boolean | undefined;
    readonly user?: string | undefined;
    readonly json?: boolean | undefined;
    readonly otel?: boolean | undefined;
  };
  readonly usageError: (message: string) => number;
}

const allowedOptions: Readonly<Record<string, readonly string[]>> = {
  build: ['revision', 'expires', 'out'],
  sign: ['key'],
  push: ['plain-http', 'user'],
  pull: ['allowed-signers', 'min-signers', 'state', 'plain-http', 'user', 'otel'],
  status: ['state', 'json'],
};

/** Runs one `linkgate bundle` action; returns the exit code. Throws what the bundle functions throw. */
export async function runBundleAction(a: BundleAction, io: CliIo): Promise<number> {
  const allowed = allowedOptions[a.action];
  if (allowed === undefined)
    return a.usageError(`unknown action \`${a.action}\`; expected build, sign, push, pull or status`);
  const stray = Object.entries(a.values).find(([name, v]) => v !== undefined && v !== false && !allowed.includes(name));
  if (stray !== undefined) return a.usageError(`\`--${stray[0]}\` is not an option of \`bundle ${a.action}\``);
  const positionals = a.action === 'push' ? 2 : a.action === 'status' ? 0 : 1;
  const given = [a.first, a.second, a.extra].filter((p) => p !== undefined);
  if (given.length > positionals) return a.usageError(`unexpected argument \`${given[positionals] ?? ''}\``);
  if (given.length < positionals)
    return a.usageError(`\`bundle ${a.action}\` needs ${positionals === 2 ? 'DIR and REF' : 'one argument'}`);
  switch (a.action) {
    case 'build':
      return build(a, io);
    case 'sign':
      return sign(a, io);
    case 'push':
      return push(a, io);
    case 'pull':
      return pull(a, io);
    default:
      return status(a, io);
  }
}

async function build(a: BundleAction, io: CliIo): Promise<number> {
  const { revision, expires, out } = a.values;
  if (
    revision === undefined ||
    !/^\d+$/.test(revision) ||
    !Number.isSafeInteger(Number(revision)) ||
    Number(revision) < 1
  )
    return a.usageError('`bundle build` needs `--revision N`, a whole number ≥ 1');
  if (out === undefined) return a.usageError('`bundle build` needs `--out DIR`');
  const policy = a.first ?? '';
  const manifest = await buildBundle(resolvePath(io.cwd, policy), {
    revision: Number(revision),
    outDir: resolvePath(io.cwd, out),
    linkgateVersion: packageVersion(),
    shownAs: displayPath(io.cwd, policy),
    ...(expires === undefined ? {} : { expiresAt: expires }),
  });
  io.stdout.write(
    `built revision ${manifest.revision} in ${displayPath(io.cwd, out)} (expires ${manifest.expiresAt}); sign it: ssh-keygen -Y sign -n linkgate-bundle -f KEY ${displayPath(io.cwd, out)}/manifest.json\n`,
  );
  return 0;
}

async function sign(a: BundleAction, io: CliIo): Promise<number> {
  if (a.values.key === undefined) return a.usageError('`bundle sign` needs `--key KEY`');
  const shownKey = displayPath(io.cwd, a.values.key);
  const keyText = (await readNamedFile('USAGE', 'key', resolvePath(io.cwd, a.values.key), shownKey)).toString('utf8');
  const dir = a.first ?? '';
  await signBundle(resolvePath(io.cwd, dir), parseOpenSshPrivateKey(keyText, shownKey), displayPath(io.cwd, dir));
  io.stdout.write(`signed ${displayPath(io.cwd, dir)}/manifest.json in namespace linkgate-bundle\n`);
  return 0;
}

function credentials(a: BundleAction, io: CliIo): SourceCredentials | string | undefined {
  if (a.values.user === undefined) return undefined;
  const password = io.env[registryPasswordEnv];
  if (password === undefined || password === '') return `\`--user\` needs the password in $${registryPasswordEnv}`;
  return { username: a.values.user, password };
}

async function push(a: BundleAction, io: CliIo): Promise<number> {
  const auth = credentials(a, io);
  if (typeof auth === 'string') return a.usageError(auth);
  const reference = a.second ?? '';
  if (!reference.startsWith('oci://'))
    return a.usageError(
      '`bundle push` publishes to `oci://HOST[:PORT]/REPO:TAG`; for an https folder, copy DIR to the web server',
    );
  const ref = parseOciReference(reference, a.values['plain-http'] === true);
  const digest = await pushOciBundle(
    resolvePath(io.cwd, a.first ?? ''),
    ref,
    auth === undefined ? {} : { credentials: auth },
  );
  io.stdout.write(`pushed ${displayPath(io.cwd, a.first ?? '')} to ${reference} (${digest})\n`);
  return 0;
}

/** The source a pull reference names: an OCI registry or a static folder; throws GateError USAGE. */
export function sourceOf(reference: string, plainHttp: boolean, auth: SourceCredentials | undefined): BundleSource {
  const options = auth === undefined ? {} : { credentials: auth };
  if (reference.startsWith('oci://'))
    return ociBundleSource(parseOciReference(reference, plainHttp), reference, options);
  return httpFolderSource(parseFolderUrl(reference, plainHttp), reference, { ...options, plainHttp });
}

async function pull(a: BundleAction, io: CliIo): Promise<number> {
  const { state, 'allowed-signers': allowedSigners, 'min-signers': min } = a.values;
  if (state === undefined) return a.usageError('`bundle pull` needs `--state DIR`');
  if (allowedSigners === undefined || allowedSigners === '')
    return a.usageError('`bundle pull` needs `--allowed-signers FILE`');
  if (min !== undefined && (!/^\d+$/.test(min) || Number(min) < 1 || !Number.isSafeInteger(Number(min))))
    return a.usageError('`--min-signers` must be a whole number ≥ 1');
  const auth = credentials(a, io);
  if (typeof auth === 'string') return a.usageError(auth);
  const source = sourceOf(a.first ?? '', a.values['plain-http'] === true, auth);
  const telemetry =
    a.values.otel === true
      ? await (await import('./start-telemetry.ts')).startTelemetry({ stdoutReserved: false })
      : undefined;
  let result;
  try {
    result = await pullBundle({
      stateDir: resolvePath(io.cwd, state),
      source,
      allowedSigners: resolvePath(io.cwd, allowedSigners),
      allowedSignersShownAs: displayPath(io.cwd, allowedSigners),
      linkgateVersion: packageVersion(),
      ...(min === undefined ? {} : { minSigners: Number(min) }),
    });
    if (telemetry !== undefined) {
      const { emitPullStatus } = await import('../bundle/pull-telemetry.ts');
      emitPullStatus(result, await bundleState(resolvePath(io.cwd, state)).catch(() => undefined), source.shownAs);
    }
  } finally {
    await telemetry?.shutdown();
  }
  if (result.result === 'activated') {
    const from = result.previous === undefined ? '' : ` (was ${result.previous})`;
    io.stdout.write(`activated revision ${result.revision}${from} from ${source.shownAs}\n`);
    return 0;
  }
  if (result.result === 'unchanged') {
    io.stdout.write(`unchanged: revision ${result.revision} stays active\n`);
    return 0;
  }
  const kept = result.revision === undefined ? 'no bundle is active' : `revision ${result.revision} stays active`;
  io.stderr.write(`linkgate: bundle refused (${result.code}): ${result.reason}; ${kept}\n`);
  return 1;
}

async function status(a: BundleAction, io: CliIo): Promise<number> {
  if (a.values.state === undefined) return a.usageError('`bundle status` needs `--state DIR`');
  const dir = resolvePath(io.cwd, a.values.state);
  const active = await bundleState(dir);
  const raw = await readStateFile(dir, stateFiles.status);
  const lastPull = raw === undefined ? null : (raw as { result?: string; at?: string; reason?: string });
  const report = {
    active:
      active === undefined
        ? null
        : {
            revision: active.revision,
            policy: active.policyFile,
            publishedAt: active.manifest.publishedAt,
            expiresAt: active.manifest.expiresAt,
            expired: Date.now() >= active.expiresAtMs,
            activatedAt: active.activatedAt,
            source: active.source,
          },
    highWater: await highWaterMark(dir),
    lastPull,
  };
  if (a.values.json === true) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    io.stdout.write(
      active === undefined
        ? 'no bundle is active\n'
        : `revision ${active.revision} active since ${active.activatedAt}, expires ${active.manifest.expiresAt}${report.active?.expired === true ? ' (EXPIRED: every decision is deny)' : ''}, from ${active.source}\n`,
    );
    const last = lastPull;
    if (last !== null)
      io.stdout.write(
        `last pull: ${last.result ?? '?'} at ${last.at ?? '?'}${last.reason === undefined ? '' : `: ${last.reason}`}\n`,
      );
  }
  return active === undefined ? 1 : 0;
}
