import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { quoteValue } from '../decision/quote-value.ts';
import { GateError } from '../errors.ts';
import { type FetchFunction, readBody, requestError } from './bundle-http.ts';
import {
  manifestName,
  manifestSignatureName,
  maxBundleFiles,
  maxManifestBytes,
  parseBundleManifest,
  sha256Digest,
} from './bundle-manifest.ts';
import type { BundleSource, PollResult, SourceCredentials } from './bundle-source.ts';
import { OciClient } from './oci-client.ts';
import type { OciReference } from './oci-reference.ts';

/** The `artifactType` of a linkgate bundle in an OCI registry. */
export const bundleArtifactType = 'application/vnd.linkgate.bundle.v1';
/** The media type of each file of a bundle (one layer per file, named by `org.opencontainers.image.title`). */
export const bundleFileMediaType = 'application/vnd.linkgate.bundle.file.v1';
const ociManifestType = 'application/vnd.oci.image.manifest.v1+json';
// the OCI 1.1 empty descriptor: an artifact without a config
const emptyConfig = {
  mediaType: 'application/vnd.oci.empty.v1+json',
  digest: 'sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a',
  size: 2,
} as const;
const titleKey = 'org.opencontainers.image.title';
/** Largest OCI manifest read, bytes. */
const maxOciManifestBytes = 256 * 1024;

/** How to reach a registry: the `fetch` to use and the credentials, if any. */
export interface OciOptions {
  readonly fetch?: FetchFunction;
  readonly credentials?: SourceCredentials;
}

interface Layer {
  readonly mediaType: string;
  readonly digest: string;
  readonly size: number;
  readonly annotations?: Readonly<Record<string, string>>;
}

/**
 * Pushes a signed bundle folder as an OCI artifact: one blob per file (skipped when the registry has it), the empty
 * config, and a manifest with `artifactType` `application/vnd.linkgate.bundle.v1` under the tag. The folder must hold
 * `manifest.json`, its `.sig` and every file the manifest lists with the digest it lists. Returns the manifest digest.
 */
export async function pushOciBundle(dir: string, ref: OciReference, options: OciOptions = {}): Promise<string> {
  const files = await readBundleFolder(dir);
  const client = new OciClient(ref, options.fetch ?? fetch, options.credentials);
  const layers: Layer[] = [];
  for (const [name, bytes] of files) {
    const digest = sha256Digest(bytes);
    await uploadBlob(client, digest, bytes);
    layers.push({ mediaType: bundleFileMediaType, digest, size: bytes.length, annotations: { [titleKey]: name } });
  }
  await uploadBlob(client, emptyConfig.digest, Buffer.from('{}'));
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: ociManifestType,
      artifactType: bundleArtifactType,
      config: emptyConfig,
      layers,
    }),
  );
  const put = await client.request(`manifests/${ref.tag}`, {
    method: 'PUT',
    headers: { 'content-type': ociManifestType },
    body: manifest,
  });
  await put.body?.cancel();
  if (put.status !== 201)
    throw requestError('PUT', client.url(`manifests/${ref.tag}`), `the registry answered ${put.status}`);
  return sha256Digest(manifest);
}

// the files of a signed bundle folder, manifest first; every digest checked before anything is published
async function readBundleFolder(dir: string): Promise<[string, Buffer][]> {
  const read = async (name: string) => {
    try {
      return await readFile(join(dir, name));
    } catch {
      throw new GateError('USAGE', `the bundle folder has no readable ${quoteValue(name)}`);
    }
  };
  const manifestBytes = await read(manifestName);
  const parsed = parseBundleManifest(manifestBytes);
  if (!parsed.ok) throw new GateError('USAGE', parsed.message);
  const out: [string, Buffer][] = [
    [manifestName, manifestBytes],
    [manifestSignatureName, await read(manifestSignatureName)],
  ];
  for (const [name, digest] of Object.entries(parsed.manifest.files)) {
    const bytes = await read(name);
    if (sha256Digest(bytes) !== digest)
      throw new GateError('USAGE', `${quoteValue(name)} changed since the manifest was built (\`files.${name}\`)`);
    out.push([name, bytes]);
  }
  return out;
}

async function uploadBlob(client: OciClient, digest: string, bytes: Buffer): Promise<void> {
  const head = await client.request(`blobs/${digest}`, { method: 'HEAD' });
  await head.body?.cancel();
  if (head.status === 200) return;
  const start = await client.request('blobs/uploads/', { method: 'POST' });
  await start.body?.cancel();
  const location = start.headers.get('location');
  if (start.status !== 202 || location === null)
    throw requestError('POST', client.url('blobs/uploads/'), `the registry answered ${start.status}`);
  const upload = new URL(location, client.url(''));
  upload.searchParams.set('digest', digest);
  const put = await client.request(upload.href, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: bytes,
  });
  await put.body?.cancel();
  if (put.status !== 201)
    throw requestError('PUT', upload.origin + upload.pathname, `the registry answered ${put.status}`);
}

/** A bundle source over an OCI registry: a conditional GET of the tag's manifest, then the blobs it names. */
export function ociBundleSource(ref: OciReference, shownAs: string, options: OciOptions = {}): BundleSource {
  const client = new OciClient(ref, options.fetch ?? fetch, options.credentials);
  const blob = async (layer: Layer, maxBytes: number, what: string): Promise<Buffer> => {
    if (layer.size > maxBytes)
      throw new GateError('READ_FAILED', `${what} is ${layer.size} bytes, over the limit of ${maxBytes}`);
    const response = await client.request(`blobs/${layer.digest}`);
    if (response.status !== 200) {
      await response.body?.cancel();
      throw requestError('GET', client.url(`blobs/${layer.digest}`), `the registry answered ${response.status}`);
    }
    const bytes = await readBody(response, maxBytes, what);
    if (sha256Digest(bytes) !== layer.digest)
      throw new GateError('READ_FAILED', `${what} does not match its digest ${layer.digest}`);
    return bytes;
  };
  return {
    shownAs,
    async poll(etag): Promise<PollResult> {
      const headers: Record<string, string> = { accept: ociManifestType };
      if (etag !== undefined) headers['if-none-match'] = etag;
      const response = await client.request(`manifests/${ref.tag}`, { headers });
      if (response.status === 304) {
        await response.body?.cancel();
        return { unchanged: true };
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        throw requestError('GET', client.url(`manifests/${ref.tag}`), `the registry answered ${response.status}`);
      }
      const bytes = await readBody(response, maxOciManifestBytes, 'the oci manifest');
      const digest = sha256Digest(bytes);
      const said = response.headers.get('docker-content-digest');
      if (said !== null && said !== digest)
        throw new GateError('READ_FAILED', `the oci manifest does not match its digest ${said}`);
      const layers = artifactLayers(bytes, shownAs);
      const layerOf = (name: string) => layers.get(name);
      const manifestLayer = layerOf(manifestName);
      if (manifestLayer === undefined)
        throw new GateError('READ_FAILED', `${shownAs} has no \`${manifestName}\` layer`);
      const signatureLayer = layerOf(manifestSignatureName);
      return {
        unchanged: false,
        manifest: await blob(manifestLayer, maxManifestBytes, manifestName),
        signature:
          signatureLayer === undefined
            ? undefined
            : (await blob(signatureLayer, maxManifestBytes, manifestSignatureName)).toString('utf8'),
        etag: response.headers.get('etag') ?? `"${digest}"`,
        async fetchFile(name, _digest, maxBytes) {
          const layer = layerOf(name);
          if (layer === undefined) throw new GateError('READ_FAILED', `${shownAs} has no layer for \`files.${name}\``);
          // the caller checks the bytes against the signed manifest's digest
          return blob(layer, maxBytes, name);
        },
      };
    },
  };
}

// the titled layers of a linkgate bundle artifact; anything else is refused
function artifactLayers(bytes: Buffer, shownAs: string): Map<string, Layer> {
  const fail = (why: string): never => {
    throw new GateError('READ_FAILED', `${shownAs} is not a linkgate bundle: ${why}`);
  };
  let value: { artifactType?: unknown; config?: { mediaType?: unknown }; layers?: unknown };
  try {
    value = JSON.parse(bytes.toString('utf8')) as typeof value;
  } catch {
    return fail('the oci manifest is not json');
  }
  const type = value.artifactType ?? value.config?.mediaType;
  if (type !== bundleArtifactType)
    fail(`its artifact type is ${quoteValue(String(type))}, not \`${bundleArtifactType}\``);
  if (!Array.isArray(value.layers) || value.layers.length > maxBundleFiles + 2) fail('bad `layers`');
  const out = new Map<string, Layer>();
  for (const raw of value.layers as unknown[]) {
    const layer = raw as Partial<Layer> | null;
    const title = layer?.annotations?.[titleKey];
    if (
      layer === null ||
      typeof title !== 'string' ||
      typeof layer.digest !== 'string' ||
      !/^sha256:[0-9a-f]{64}$/.test(layer.digest) ||
      typeof layer.size !== 'number' ||
      !Number.isSafeInteger(layer.size) ||
      layer.size < 0 ||
      out.has(title)
    )
      fail('a layer without a title, a sha256 digest and a size, or a title twice');
    out.set(title as string, layer as Layer);
  }
  return out;
}
