import { createHash } from 'node:crypto';
import { quoteValue } from '../decision/quote-value.ts';

/** The format tag of a bundle manifest; a manifest with another one is refused. */
export const bundleFormat = 'linkgate-bundle/1';
/** The namespace a bundle manifest is signed in (`ssh-keygen -Y sign -n linkgate-bundle`). */
export const bundleSignatureNamespace = 'linkgate-bundle';
/** The manifest's file name in a bundle folder, a static folder and an OCI artifact. */
export const manifestName = 'manifest.json';
/** The manifest's signature file name. */
export const manifestSignatureName = 'manifest.json.sig';
/** The policy's file name inside a bundle. */
export const bundlePolicyName = 'policy.yaml';
/** Largest manifest read, bytes. */
export const maxManifestBytes = 64 * 1024;
/** Most files a bundle lists. */
export const maxBundleFiles = 16;
/** Largest file a bundle carries, bytes (a policy is capped lower when it loads). */
export const maxBundleFileBytes = 4 * 1024 * 1024;

/** A bundle's manifest: what was published, when, until when, for which linkgate, and the digest of every file. */
export interface BundleManifest {
  readonly format: typeof bundleFormat;
  /** a whole number ≥ 1; a machine never activates one lower than the highest it ever activated */
  readonly revision: number;
  /** ISO 8601 UTC time the bundle was built */
  readonly publishedAt: string;
  /** ISO 8601 UTC time after which the bundle is refused and an active one denies every decision */
  readonly expiresAt: string;
  /** the lowest linkgate version (`MAJOR.MINOR.PATCH`) that may activate it */
  readonly minLinkgateVersion: string;
  /** the policy file's name in `files` */
  readonly policy: string;
  /** file name → `sha256:<hex>` of its bytes; the policy and its review `.sig` at least */
  readonly files: Readonly<Record<string, string>>;
}

/** `sha256:<hex>` of `bytes`. */
export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

const fileName = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const digestPattern = /^sha256:[0-9a-f]{64}$/;
const versionPattern = /^\d+\.\d+\.\d+$/;
const isoPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

/** The manifest's bytes as `bundle build` writes them: two-space JSON and a final newline. */
export function manifestBytes(manifest: BundleManifest): Buffer {
  return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
}

/** A manifest, or why it is not one: the message names the field. */
export type ParsedManifest =
  | { readonly ok: true; readonly manifest: BundleManifest }
  | { readonly ok: false; readonly message: string };

/** Parses and validates a manifest's bytes; never throws. Every problem names its field. */
export function parseBundleManifest(bytes: Uint8Array): ParsedManifest {
  const fail = (message: string): ParsedManifest => ({ ok: false, message: `${manifestName}: ${message}` });
  if (bytes.length > maxManifestBytes) return fail(`over ${maxManifestBytes} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return fail('not valid json');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail('not a json object');
  const m = value as Record<string, unknown>;
  const known = new Set(['format', 'revision', 'publishedAt', 'expiresAt', 'minLinkgateVersion', 'policy', 'files']);
  const unknown = Object.keys(m).find((k) => !known.has(k));
  if (unknown !== undefined) return fail(`unknown field ${quoteValue(unknown)}`);
  if (m['format'] !== bundleFormat) return fail(`\`format\` must be \`${bundleFormat}\``);
  const revision = m['revision'];
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 1)
    return fail('`revision` must be a whole number ≥ 1');
  for (const field of ['publishedAt', 'expiresAt'] as const) {
    const text = m[field];
    if (typeof text !== 'string' || !isoPattern.test(text) || !Number.isFinite(Date.parse(text)))
      return fail(`\`${field}\` must be an iso 8601 utc time \`YYYY-MM-DDTHH:MM:SSZ\``);
  }
  if (Date.parse(m['expiresAt'] as string) <= Date.parse(m['publishedAt'] as string))
    return fail('`expiresAt` must be after `publishedAt`');
  const minVersion = m['minLinkgateVersion'];
  if (typeof minVersion !== 'string' || !versionPattern.test(minVersion))
    return fail('`minLinkgateVersion` must be a version `MAJOR.MINOR.PATCH`');
  const files = m['files'];
  if (files === null || typeof files !== 'object' || Array.isArray(files)) return fail('`files` must be an object');
  const entries = Object.entries(files as Record<string, unknown>);
  if (entries.length > maxBundleFiles) return fail(`\`files\` lists more than ${maxBundleFiles} files`);
  for (const [name, digest] of entries) {
    if (!fileName.test(name) || name === manifestName || name === manifestSignatureName)
      return fail(`\`files\` names ${quoteValue(name)}, not a plain file name`);
    if (typeof digest !== 'string' || !digestPattern.test(digest))
      return fail(`\`files.${name}\` must be \`sha256:<64 hex digits>\``);
  }
  const policy = m['policy'];
  if (typeof policy !== 'string' || !Object.hasOwn(files, policy))
    return fail('`policy` must name a file listed in `files`');
  if (!Object.hasOwn(files, `${policy}.sig`)) return fail(`\`files\` must list the policy's review \`${policy}.sig\``);
  return { ok: true, manifest: Object.freeze({ ...(m as unknown as BundleManifest) }) };
}

/** -1, 0, 1 for versions `MAJOR.MINOR.PATCH` a < b, a = b, a > b (anything after the patch number is ignored). */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => (/^(\d+)\.(\d+)\.(\d+)/.exec(v) ?? []).slice(1).map(Number);
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < 3; i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}
