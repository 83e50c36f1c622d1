import { errorText } from '../decision/error-line.ts';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatDiagnostic, GateError } from '../errors.ts';
import { maxAllowedSignersBytes } from '../policy/allowed-signers.ts';
import { readNamedFile } from '../policy/read-named-file.ts';
import { parsePolicy, reviewLoadedPolicy } from '../policy/load-policy.ts';
import { maxPolicyFileBytes } from '../policy/read-regular-file.ts';
import { lintPolicyText, utcToday } from '../review/lint-policy.ts';
import {
  type BundleManifest,
  compareVersions,
  manifestName,
  manifestSignatureName,
  maxBundleFileBytes,
  parseBundleManifest,
  sha256Digest,
} from './bundle-manifest.ts';
import type { BundleSource, OfferedBundle } from './bundle-source.ts';
import {
  type ActiveBundle,
  activeBundle,
  bundleState,
  highWaterMark,
  readStateFile,
  stateFiles,
  writeStateFile,
} from './bundle-state.ts';
import { pullLockName, takePullLock } from './pull-lock.ts';
import { checkManifestSignature, type ManifestTrust } from './manifest-signature.ts';

/** Why a pull refused a bundle, one stable code each. */
export type RefusalCode =
  | 'bundle.fetch-failed'
  | 'bundle.manifest-invalid'
  | 'bundle.signature'
  | 'bundle.rollback'
  | 'bundle.expired'
  | 'bundle.needs-newer-linkgate'
  | 'bundle.digest'
  | 'bundle.policy-invalid'
  | 'bundle.policy-unreviewed'
  | 'bundle.busy';

/** What one pull did: activated a revision, found nothing new, or refused (the last good bundle stays active). */
export type PullResult =
  | { readonly result: 'activated'; readonly revision: number; readonly previous: number | undefined }
  | { readonly result: 'unchanged'; readonly revision: number }
  | {
      readonly result: 'refused';
      readonly code: RefusalCode;
      readonly reason: string;
      /** the revision still active, undefined when none */
      readonly revision: number | undefined;
      /** the revision offered, when the manifest was read that far */
      readonly offered?: number;
    };

/** What a pull needs: where state lives, where bundles come from, whom to trust, and this linkgate's version. */
export interface PullOptions {
  readonly stateDir: string;
  readonly source: BundleSource;
  /** the allowed-signers file (the one reviews use): manifest signatures and the policy's review */
  readonly allowedSigners: string;
  readonly allowedSignersShownAs?: string;
  /** distinct allowed signers the manifest and the policy review need (default 1) */
  readonly minSigners?: number;
  /** the running linkgate's version, compared with `minLinkgateVersion` */
  readonly linkgateVersion: string;
  readonly nowMs?: number;
}

class Refusal extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly offered?: number,
  ) {
    super(message);
  }
}

/**
 * Polls the source and activates what it offers only when it holds: the manifest's signature against the allowed
 * signers (namespace `linkgate-bundle`), a revision not below the highest ever activated here, not expired, not for a
 * newer linkgate, every file's sha256, and a policy that lints without errors, compiles and whose review verifies.
 * Then the revision's folder is renamed into place and `active.json` is replaced by a rename. A refusal leaves the
 * active bundle as it was. Writes `STATE_DIR/status.json` in every case; never throws for a bad bundle.
 */
export async function pullBundle(options: PullOptions): Promise<PullResult> {
  const nowMs = options.nowMs ?? Date.now();
  await mkdir(join(options.stateDir, stateFiles.revisions), { recursive: true });
  const release = await takePullLock(options.stateDir);
  try {
    let result: PullResult;
    try {
      if (release === undefined)
        throw new Refusal('bundle.busy', `another pull holds \`${join(options.stateDir, pullLockName)}\``);
      result = await pullOnce(options, await activeBundle(options.stateDir), nowMs);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      result = {
        result: 'refused',
        code: error.code,
        reason: error.message,
        revision: (await activeBundle(options.stateDir))?.revision,
        ...(error.offered === undefined ? {} : { offered: error.offered }),
      };
    }
    await writeStateFile(options.stateDir, stateFiles.status, {
      ...result,
      at: new Date(nowMs).toISOString(),
      source: options.source.shownAs,
    });
    return result;
  } finally {
    await release?.();
  }
}

async function pullOnce(options: PullOptions, active: ActiveBundle | undefined, nowMs: number): Promise<PullResult> {
  const poll = (await readStateFile(options.stateDir, stateFiles.poll)) as
    | { source?: unknown; etag?: unknown }
    | undefined;
  const etag =
    active !== undefined && poll?.source === options.source.shownAs && typeof poll.etag === 'string'
      ? poll.etag
      : undefined;
  const trust = await trustOf(options);
  const offered = await fetching(() => options.source.poll(etag));
  if (offered.unchanged) return stillGood(options.stateDir, nowMs);
  const manifest = checkManifest(offered, trust, options, nowMs);
  const highest = await highWaterMark(options.stateDir);
  const digest = sha256Digest(offered.manifest);
  if (active !== undefined && manifest.revision === active.revision && digest === active.manifestDigest) {
    await writeStateFile(options.stateDir, stateFiles.poll, { source: options.source.shownAs, etag: offered.etag });
    return stillGood(options.stateDir, nowMs);
  }
  if (manifest.revision < highest)
    throw new Refusal(
      'bundle.rollback',
      `revision ${manifest.revision} is below revision ${highest}, the highest ever activated here`,
      manifest.revision,
    );
  if (manifest.revision === highest)
    throw new Refusal(
      'bundle.rollback',
      `revision ${manifest.revision} was already activated here with another manifest: publish a higher revision`,
      manifest.revision,
    );
  const staging = join(options.stateDir, stateFiles.revisions, `.staging-${randomBytes(6).toString('hex')}`);
  await mkdir(staging);
  try {
    await writeFile(join(staging, manifestName), offered.manifest);
    await writeFile(join(staging, manifestSignatureName), offered.signature ?? '');
    for (const [name, fileDigest] of Object.entries(manifest.files)) {
      const bytes = await fetching(() => offered.fetchFile(name, fileDigest, maxBundleFileBytes));
      if (sha256Digest(bytes) !== fileDigest)
        throw new Refusal(
          'bundle.digest',
          `\`${name}\` does not match \`files.${name}\`: it changed after the manifest was signed`,
          manifest.revision,
        );
      await writeFile(join(staging, name), bytes);
    }
    await checkPolicy(join(staging, manifest.policy), manifest, options);
    const target = join(options.stateDir, stateFiles.revisions, String(manifest.revision));
    await rm(target, { recursive: true, force: true });
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  // the high-water mark first: a crash between the two renames never leaves it below the active revision
  await writeStateFile(options.stateDir, stateFiles.highWater, { revision: manifest.revision });
  const pointer: ActiveBundle = {
    revision: manifest.revision,
    dir: `${stateFiles.revisions}/${manifest.revision}`,
    manifestDigest: digest,
    activatedAt: new Date(nowMs).toISOString(),
    source: options.source.shownAs,
  };
  await writeStateFile(options.stateDir, stateFiles.active, pointer);
  await writeStateFile(options.stateDir, stateFiles.poll, { source: options.source.shownAs, etag: offered.etag });
  await prune(options.stateDir, manifest.revision, active?.revision);
  return { result: 'activated', revision: manifest.revision, previous: active?.revision };
}

// the source said nothing changed: the active bundle still decides, unless it expired meanwhile
async function stillGood(stateDir: string, nowMs: number): Promise<PullResult> {
  const state = await bundleState(stateDir);
  if (state === undefined) throw new Refusal('bundle.fetch-failed', 'the source answered 304 but no bundle is active');
  if (nowMs >= state.expiresAtMs)
    throw new Refusal(
      'bundle.expired',
      `the active revision ${state.revision} expired at ${state.manifest.expiresAt} (expiresAt) and nothing newer is published: every decision is deny`,
    );
  return { result: 'unchanged', revision: state.revision };
}

// the manifest, once its signature holds and its revision, expiry and minimum version allow it here
function checkManifest(
  offered: OfferedBundle,
  trust: ManifestTrust,
  options: PullOptions,
  nowMs: number,
): BundleManifest {
  const check = checkManifestSignature(offered.manifest, offered.signature, trust, nowMs);
  if (!check.verified) throw new Refusal('bundle.signature', `the manifest signature does not hold: ${check.message}`);
  const parsed = parseBundleManifest(offered.manifest);
  if (!parsed.ok) throw new Refusal('bundle.manifest-invalid', parsed.message);
  const { manifest } = parsed;
  if (nowMs >= Date.parse(manifest.expiresAt))
    throw new Refusal(
      'bundle.expired',
      `revision ${manifest.revision} expired at ${manifest.expiresAt} (expiresAt)`,
      manifest.revision,
    );
  if (compareVersions(options.linkgateVersion, manifest.minLinkgateVersion) < 0)
    throw new Refusal(
      'bundle.needs-newer-linkgate',
      `revision ${manifest.revision} needs linkgate ${manifest.minLinkgateVersion} or newer (minLinkgateVersion); this is ${options.linkgateVersion}`,
      manifest.revision,
    );
  return manifest;
}

// the policy of a staged revision: lints without errors, compiles, and its review verifies against the same signers
async function checkPolicy(file: string, manifest: BundleManifest, options: PullOptions): Promise<void> {
  const bytes = await readFile(file);
  const shownAs = `${manifest.policy} (revision ${manifest.revision})`;
  if (bytes.length > maxPolicyFileBytes)
    throw new Refusal('bundle.policy-invalid', `${shownAs} is over ${maxPolicyFileBytes} bytes`, manifest.revision);
  const text = bytes.toString('utf8');
  const error = lintPolicyText(text, manifest.policy, { today: utcToday() }).find((d) => d.severity === 'error');
  if (error !== undefined)
    throw new Refusal(
      'bundle.policy-invalid',
      `the policy does not lint: ${formatDiagnostic(error)}`,
      manifest.revision,
    );
  let reviewed;
  try {
    reviewed = await reviewLoadedPolicy(parsePolicy(text, manifest.policy), file, bytes, {
      env: {},
      allowedSigners: options.allowedSigners,
      allowedSignersShownAs: options.allowedSignersShownAs ?? options.allowedSigners,
      minSigners: options.minSigners ?? 1,
      shownAs: manifest.policy,
    });
  } catch (cause) {
    throw new Refusal('bundle.policy-invalid', `the policy does not compile: ${errorText(cause)}`, manifest.revision);
  }
  if (reviewed.reviewCheck?.verified !== true)
    throw new Refusal(
      'bundle.policy-unreviewed',
      `the policy's review does not hold: ${reviewed.reviewCheck?.message ?? 'not checked'}`,
      manifest.revision,
    );
}

// a source that cannot be reached or answers wrongly is a refusal, never a crash
async function fetching<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof GateError && error.code === 'READ_FAILED')
      throw new Refusal('bundle.fetch-failed', error.message);
    throw error;
  }
}

// keeps the active revision and the one before it; older folders and abandoned staging folders go
async function prune(stateDir: string, keep: number, previous: number | undefined): Promise<void> {
  const dir = join(stateDir, stateFiles.revisions);
  for (const name of await readdir(dir))
    if (name !== String(keep) && name !== String(previous)) await rm(join(dir, name), { recursive: true, force: true });
}

/** The allowed-signers file's text for a pull; a file that cannot be read is a usage error (GateError USAGE). */
async function trustOf(options: PullOptions): Promise<ManifestTrust> {
  const name = options.allowedSignersShownAs ?? options.allowedSigners;
  const bytes = await readNamedFile('USAGE', 'allowed signers', options.allowedSigners, name, maxAllowedSignersBytes);
  return {
    allowedSignersText: bytes.toString('utf8'),
    allowedSignersName: name,
    ...(options.minSigners === undefined ? {} : { minSigners: options.minSigners }),
  };
}
