// Each check of a pull, one refusal each, through a static folder on a loopback http server: the manifest's
// signature (another namespace, a key not allowed), a field of the manifest (named in the message), a newer linkgate
// needed, a policy whose review does not hold; and basic auth on the folder. A refusal keeps the active bundle.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../../src/bundle/build-bundle.ts';
import { parseBundleManifest } from '../../src/bundle/bundle-manifest.ts';
import { httpFolderSource, parseFolderUrl } from '../../src/bundle/http-folder-source.ts';
import { pullBundle } from '../../src/bundle/pull-bundle.ts';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-http.ts';
import { makeKey, policyText, sshKeygen, type TestKey } from '../helpers/ssh-keygen.ts';

let dir: string;
let key: TestKey;
let stranger: TestKey;
let allowedSigners: string;
let server: LoopbackServer;
const www = () => join(dir, 'www');
let password: string | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-pull-checks-'));
  key = makeKey(dir, 'alice', 'ed25519');
  stranger = makeKey(dir, 'mallory', 'ed25519');
  allowedSigners = join(dir, 'allowed_signers');
  writeFileSync(allowedSigners, `alice@example.com namespaces="linkgate-policy,linkgate-bundle" ${key.publicKey}\n`);
  server = await listenOnLoopback(async (req, res) => {
    if (
      password !== undefined &&
      req.headers.authorization !== `Basic ${Buffer.from(`ci:${password}`).toString('base64')}`
    ) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="bundles"' }).end();
      return;
    }
    const name = (req.url ?? '').slice(1);
    try {
      if (!/^[\w.-]+$/.test(name)) throw new Error('bad name');
      res.writeHead(200).end(readFileSync(join(www(), name)));
    } catch {
      res.writeHead(404).end();
    }
  });
});
afterAll(async () => {
  await server?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

// publishes `revision` into the served folder: reviewed policy, manifest signed by `signer` in `namespace`
async function publish(
  revision: number,
  options: {
    signer?: TestKey;
    namespace?: string;
    linkgateVersion?: string;
    reviewed?: boolean;
    edit?: (m: string) => string;
  } = {},
) {
  const source = join(dir, `policy-${revision}.yaml`);
  writeFileSync(source, policyText(['alice@example.com']));
  rmSync(`${source}.sig`, { force: true });
  if (options.reviewed !== false)
    execFileSync(sshKeygen(), ['-Y', 'sign', '-n', 'linkgate-policy', '-f', key.file, source], { stdio: 'ignore' });
  else writeFileSync(`${source}.sig`, '');
  const out = join(dir, `bundle-${revision}-${Math.random().toString(36).slice(2)}`);
  await buildBundle(source, { revision, outDir: out, linkgateVersion: options.linkgateVersion ?? '0.1.0' });
  if (options.edit !== undefined)
    writeFileSync(join(out, 'manifest.json'), options.edit(readFileSync(join(out, 'manifest.json'), 'utf8')));
  execFileSync(
    sshKeygen(),
    [
      '-Y',
      'sign',
      '-n',
      options.namespace ?? 'linkgate-bundle',
      '-f',
      (options.signer ?? key).file,
      join(out, 'manifest.json'),
    ],
    { stdio: 'ignore' },
  );
  rmSync(www(), { recursive: true, force: true });
  cpSync(out, www(), { recursive: true });
}

const pull = (state: string, credentials?: { username: string; password: string }) =>
  pullBundle({
    stateDir: state,
    source: httpFolderSource(
      parseFolderUrl(`${server.origin}/`, true),
      server.origin,
      credentials === undefined ? {} : { credentials },
    ),
    allowedSigners,
    linkgateVersion: '0.1.0',
  });

describe('pull checks', () => {
  const state = () => join(dir, 'state');

  it('activates a good revision, then refuses each bad one naming why, the good one staying active', async () => {
    await publish(1);
    expect(await pull(state())).toEqual({ result: 'activated', revision: 1, previous: undefined });

    const cases: [string, Parameters<typeof publish>[1], string, RegExp][] = [
      [
        'another namespace',
        { namespace: 'linkgate-policy' },
        'bundle.signature',
        /made in namespace `linkgate-policy`, not `linkgate-bundle`/,
      ],
      [
        'a key not allowed',
        { signer: stranger },
        'bundle.signature',
        /ED25519 key SHA256:\S+ is not in the allowed signers/,
      ],
      [
        'a newer linkgate',
        { linkgateVersion: '9.0.0' },
        'bundle.needs-newer-linkgate',
        /needs linkgate 9\.0\.0 or newer \(minLinkgateVersion\); this is 0\.1\.0/,
      ],
      [
        'an unreviewed policy',
        { reviewed: false },
        'bundle.policy-unreviewed',
        /the policy's review does not hold: no signature/,
      ],
      [
        'a bad field',
        { edit: (m) => m.replace('"revision": 2', '"revision": "2"') },
        'bundle.manifest-invalid',
        /manifest\.json: `revision` must be a whole number ≥ 1/,
      ],
    ];
    for (const [what, options, code, reason] of cases) {
      await publish(2, options);
      const result = await pull(state());
      expect(result, what).toMatchObject({ result: 'refused', code, revision: 1 });
      // the revision is known only once the signature holds and the manifest parses
      const known = code !== 'bundle.manifest-invalid' && code !== 'bundle.signature';
      expect(result.result === 'refused' ? result.offered : 0, what).toBe(known ? 2 : undefined);
      expect(result.result === 'refused' ? result.reason : '', what).toMatch(reason);
    }
    await publish(2);
    expect(await pull(state())).toEqual({ result: 'activated', revision: 2, previous: 1 });
  });

  it('every field of the manifest is checked, and the message names it', () => {
    const good = {
      format: 'linkgate-bundle/1',
      revision: 3,
      publishedAt: '2026-01-01T00:00:00Z',
      expiresAt: '2026-02-01T00:00:00Z',
      minLinkgateVersion: '0.1.0',
      policy: 'policy.yaml',
      files: { 'policy.yaml': `sha256:${'a'.repeat(64)}`, 'policy.yaml.sig': `sha256:${'b'.repeat(64)}` },
    };
    const bad = (patch: Record<string, unknown>) => {
      const parsed = parseBundleManifest(Buffer.from(JSON.stringify({ ...good, ...patch })));
      return parsed.ok ? 'ok' : parsed.message;
    };
    expect(bad({})).toBe('ok');
    expect(bad({ format: 'x' })).toContain('`format`');
    expect(bad({ revision: 0 })).toContain('`revision`');
    expect(bad({ expiresAt: '2026-02-01' })).toContain('`expiresAt`');
    expect(bad({ expiresAt: '2025-01-01T00:00:00Z' })).toContain('`expiresAt` must be after `publishedAt`');
    expect(bad({ minLinkgateVersion: 'one' })).toContain('`minLinkgateVersion`');
    expect(bad({ files: { '../etc/passwd': `sha256:${'a'.repeat(64)}` } })).toContain('not a plain file name');
    expect(bad({ files: { ...good.files, 'policy.yaml': 'md5:1' } })).toContain('`files.policy.yaml`');
    expect(bad({ policy: 'other.yaml' })).toContain('`policy`');
    expect(bad({ extra: 1 })).toContain('unknown field `extra`');
  });

  it("a pull refuses while another holds the state folder, and takes over a crashed pull's stale lock", async () => {
    await publish(6);
    const held = join(dir, 'lock-state');
    mkdirSync(join(held, '.pull.lock'), { recursive: true });
    const busy = await pull(held);
    expect(busy).toMatchObject({ result: 'refused', code: 'bundle.busy', revision: undefined });
    expect(existsSync(join(held, 'active.json'))).toBe(false);
    const old = new Date(Date.now() - 11 * 60_000);
    utimesSync(join(held, '.pull.lock'), old, old);
    expect(await pull(held)).toMatchObject({ result: 'activated', revision: 6 });
    expect(existsSync(join(held, '.pull.lock'))).toBe(false);
  });

  it('a folder behind basic auth: refused without credentials, pulled with them', async () => {
    password = 's3cret';
    try {
      await publish(5);
      const denied = await pull(join(dir, 'auth-state'));
      expect(denied).toMatchObject({ result: 'refused', code: 'bundle.fetch-failed' });
      expect(await pull(join(dir, 'auth-state'), { username: 'ci', password: 's3cret' })).toMatchObject({
        result: 'activated',
        revision: 5,
      });
    } finally {
      password = undefined;
    }
  });
});
