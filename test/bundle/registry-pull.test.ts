// Issue 44's acceptance against a real OCI registry on loopback (Debian's docker-registry): bundles built, signed with
// plain ssh-keygen or `linkgate bundle sign`, pushed, pulled and used by `eval --bundle`; a rollback, a tampered
// policy and an expired bundle refused with the active one kept; the registry stopped and the active policy still
// deciding; a later revision activating once it is back.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../../src/bundle/build-bundle.ts';
import { sha256Digest } from '../../src/bundle/bundle-manifest.ts';
import { bundleFileMediaType, bundleArtifactType } from '../../src/bundle/oci-bundle.ts';
import { runCli } from '../helpers/run-cli.ts';
import { makeKey, policyText, sshKeygen, type TestKey } from '../helpers/ssh-keygen.ts';
import { type LoopbackRegistry, registryBinary, startRegistry } from './docker-registry.ts';

const binary = await registryBinary();
if (!binary.ok && process.env['CI'] === 'true')
  throw new Error(`docker-registry is required under CI=true: ${binary.reason}`);

const line = JSON.stringify({
  stage: 'link',
  server: 'docs',
  readFrom: 'docs',
  link: { type: 'resource_link', uri: 'https://docs.example.com/guide.md', name: 'guide' },
});

describe.skipIf(!binary.ok)('bundles through a real OCI registry on loopback', () => {
  let registry: LoopbackRegistry;
  let dir: string;
  let key: TestKey;
  let allowedSigners: string;
  let state: string;
  let ref: string;

  beforeAll(async () => {
    if (!binary.ok) return;
    registry = await startRegistry(binary.bin);
    dir = mkdtempSync(join(tmpdir(), 'linkgate-bundle-'));
    key = makeKey(dir, 'alice', 'ed25519');
    allowedSigners = join(dir, 'allowed_signers');
    writeFileSync(allowedSigners, `alice@example.com namespaces="linkgate-policy,linkgate-bundle" ${key.publicKey}\n`);
    state = join(dir, 'state');
    ref = `oci://${registry.host}/security/linkgate-policy:stable`;
  }, 120_000);
  afterAll(async () => {
    await registry?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  // a reviewed policy of `version`, built into a bundle of `revision` and signed by ssh-keygen
  async function bundle(revision: number, version: string, options: { expiresAt?: string; nowMs?: number } = {}) {
    const source = join(dir, `policy-${revision}.yaml`);
    writeFileSync(source, policyText(['alice@example.com']).replace(/^version: .*$/m, `version: ${version}`));
    execFileSync(sshKeygen(), ['-Y', 'sign', '-n', 'linkgate-policy', '-f', key.file, source], { stdio: 'ignore' });
    const out = join(dir, `bundle-${revision}-${Math.random().toString(36).slice(2)}`);
    await buildBundle(source, { revision, outDir: out, linkgateVersion: '0.1.0', ...options });
    return out;
  }
  const sshSignManifest = (out: string) =>
    execFileSync(sshKeygen(), ['-Y', 'sign', '-n', 'linkgate-bundle', '-f', key.file, join(out, 'manifest.json')], {
      stdio: 'ignore',
    });
  const pull = () =>
    runCli(['bundle', 'pull', ref, '--plain-http', '--allowed-signers', allowedSigners, '--state', state]);
  const decide = async () => {
    const run = await runCli(['eval', '--bundle', state, '--allowed-signers', allowedSigners], line);
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout) as { effect: string; policy: { version: string; bundleRevision?: number } };
  };
  const status = () => JSON.parse(readFileSync(join(state, 'status.json'), 'utf8')) as Record<string, unknown>;

  it('activates revision 2 pushed to the registry, and eval --bundle decides with it', async () => {
    const out = await bundle(2, '2.0.0');
    sshSignManifest(out);
    const push = await runCli(['bundle', 'push', out, ref, '--plain-http']);
    expect(push.stderr).toBe('');
    expect(push.code).toBe(0);
    const first = await pull();
    expect(first.stdout).toContain('activated revision 2');
    expect(first.code).toBe(0);
    const decision = await decide();
    expect(decision).toMatchObject({ effect: 'allow', policy: { version: '2.0.0', bundleRevision: 2 } });
    const again = await pull();
    expect([again.code, again.stdout.trim()]).toEqual([0, 'unchanged: revision 2 stays active']);
  }, 120_000);

  it('refuses revision 1 pushed over the tag, and revision 2 stays active', async () => {
    const out = await bundle(1, '1.0.0');
    const sign = await runCli(['bundle', 'sign', '--key', key.file, out]);
    expect(sign.code).toBe(0);
    expect((await runCli(['bundle', 'push', out, ref, '--plain-http'])).code).toBe(0);
    const run = await pull();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('(bundle.rollback): revision 1 is below revision 2');
    expect(status()).toMatchObject({ result: 'refused', code: 'bundle.rollback', revision: 2, offered: 1 });
    expect((await decide()).policy).toMatchObject({ version: '2.0.0', bundleRevision: 2 });
  }, 120_000);

  it('refuses a bundle whose policy changed after the manifest was signed', async () => {
    const out = await bundle(3, '3.0.0');
    sshSignManifest(out);
    // the attacker has write access to the registry: the signed manifest, with a loosened policy in its layer
    const policy = readFileSync(join(out, 'policy.yaml'), 'utf8').replace(
      'schemes: [https, http]',
      'schemes: [https, http, file]',
    );
    await pushRaw(registry.host, 'security/linkgate-policy', 'stable', [
      ['manifest.json', readFileSync(join(out, 'manifest.json'))],
      ['manifest.json.sig', readFileSync(join(out, 'manifest.json.sig'))],
      ['policy.yaml', Buffer.from(policy)],
      ['policy.yaml.sig', readFileSync(join(out, 'policy.yaml.sig'))],
    ]);
    const run = await pull();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('(bundle.digest): `policy.yaml` does not match `files.policy.yaml`');
    expect((await decide()).policy.bundleRevision).toBe(2);
  }, 120_000);

  it('refuses an expired bundle', async () => {
    const day = 86_400_000;
    const out = await bundle(4, '4.0.0', {
      nowMs: Date.now() - 10 * day,
      expiresAt: new Date(Date.now() - day).toISOString(),
    });
    sshSignManifest(out);
    expect((await runCli(['bundle', 'push', out, ref, '--plain-http'])).code).toBe(0);
    const run = await pull();
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/\(bundle\.expired\): revision 4 expired at \S+ \(expiresAt\)/);
    expect((await decide()).policy.bundleRevision).toBe(2);
  }, 120_000);

  it('fails the pull with the registry stopped, the active policy still deciding; a later revision activates once it is back', async () => {
    await registry.halt();
    const offline = await pull();
    expect(offline.code).toBe(1);
    expect(offline.stderr).toMatch(/\(bundle\.fetch-failed\): GET http:\/\/127\.0\.0\.1:\d+\/v2\/.*the request failed/);
    expect(offline.stderr).toContain('revision 2 stays active');
    expect(await decide()).toMatchObject({ effect: 'allow', policy: { bundleRevision: 2 } });

    registry = await registry.restart();
    const out = await bundle(5, '5.0.0');
    sshSignManifest(out);
    expect((await runCli(['bundle', 'push', out, ref, '--plain-http'])).code).toBe(0);
    const back = await pull();
    expect([back.code, back.stdout.trim()]).toEqual([0, `activated revision 5 (was 2) from ${ref}`]);
    expect(await decide()).toMatchObject({ effect: 'allow', policy: { version: '5.0.0', bundleRevision: 5 } });
    const shown = await runCli(['bundle', 'status', '--state', state, '--json']);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      active: { revision: 5, expired: false },
      highWater: 5,
      lastPull: { result: 'activated' },
    });
  }, 120_000);
});

// pushes files as a bundle artifact with no checks at all, as anyone with write access to the registry can
async function pushRaw(host: string, repository: string, tag: string, files: [string, Buffer][]): Promise<void> {
  const base = `http://${host}/v2/${repository}`;
  const upload = async (bytes: Buffer) => {
    const start = await fetch(`${base}/blobs/uploads/`, { method: 'POST' });
    const url = new URL(start.headers.get('location') ?? '', base);
    url.searchParams.set('digest', sha256Digest(bytes));
    const put = await fetch(url, { method: 'PUT', body: bytes });
    expect(put.status).toBe(201);
    return sha256Digest(bytes);
  };
  const layers = [];
  for (const [name, bytes] of files)
    layers.push({
      mediaType: bundleFileMediaType,
      digest: await upload(bytes),
      size: bytes.length,
      annotations: { 'org.opencontainers.image.title': name },
    });
  const config = { mediaType: 'application/vnd.oci.empty.v1+json', digest: await upload(Buffer.from('{}')), size: 2 };
  const manifest = {
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    artifactType: bundleArtifactType,
    config,
    layers,
  };
  const put = await fetch(`${base}/manifests/${tag}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/vnd.oci.image.manifest.v1+json' },
    body: JSON.stringify(manifest),
  });
  expect(put.status).toBe(201);
}
