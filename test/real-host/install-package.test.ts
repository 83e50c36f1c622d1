// The on-demand installer against a local registry (npm's own client, no network): one download however many
// processes ask at once, nothing half-installed left behind, and a clear reason instead of a failure.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir, hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tsServerCommand } from './fixture-process.ts';
import { cacheDir, type HostInstall, installPackage, type PackageSpec } from './install-package.ts';

const run = promisify(execFile);
const name = '@linkgate-test/fake-host';
const version = '1.2.3';
const spec: PackageSpec = {
  name,
  version,
  bin: path.join('node_modules', '@linkgate-test', 'fake-host', 'host.js'),
  versionCheck: { args: ['--version'], expect: `fake-host ${version}` },
  viaNode: true,
};

let dir = '';
let tarball: Buffer = Buffer.alloc(0);
let registry: Server;
let registryUrl = '';
let mode: 'ok' | 'fail' = 'ok';
let downloads = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'linkgate-install-'));
  const pkg = path.join(dir, 'pkg');
  await mkdir(pkg);
  await writeFile(path.join(pkg, 'package.json'), JSON.stringify({ name, version, license: 'MIT' }));
  await writeFile(path.join(pkg, 'host.js'), `console.log('fake-host ${version}');\n`);
  const packed = await run('npm', ['pack', pkg, '--pack-destination', dir, '--silent'], { cwd: dir });
  tarball = await readFile(path.join(dir, packed.stdout.trim()));
  registry = createServer((req, res) => {
    if (mode === 'fail') {
      res.writeHead(500).end('registry down');
      return;
    }
    if (req.url === '/fake-host.tgz') {
      downloads++;
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball);
      return;
    }
    if (decodeURIComponent(req.url ?? '') === `/${name}`) {
      const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
      const shasum = createHash('sha1').update(tarball).digest('hex');
      const manifest = { name, version, dist: { tarball: `${registryUrl}/fake-host.tgz`, integrity, shasum } };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ name, 'dist-tags': { latest: version }, versions: { [version]: manifest } }));
      return;
    }
    res.writeHead(404).end('{}');
  });
  await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
  registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  registry?.closeAllConnections();
  await new Promise<void>((resolve) => (registry === undefined ? resolve() : registry.close(() => resolve())));
  await rm(dir, { recursive: true, force: true });
});

async function freshEnv(): Promise<NodeJS.ProcessEnv> {
  const cache = await mkdtemp(path.join(dir, 'cache-'));
  // npm's own cache too: a tarball it kept from an earlier test would hide a download
  return {
    ...process.env,
    LINKGATE_TEST_CACHE: cache,
    npm_config_registry: registryUrl,
    npm_config_cache: `${cache}-npm`,
  };
}

async function leftovers(cache: string): Promise<string[]> {
  return (await readdir(cache)).filter((f) => f.startsWith('.tmp-') || f.endsWith('.lock'));
}

describe('installPackage', () => {
  test('processes that ask at once share one download and all get the same binary', async () => {
    mode = 'ok';
    downloads = 0;
    const env = await freshEnv();
    const script = path.join(dir, 'install-once.mts');
    await writeFile(
      script,
      `import { installPackage } from ${JSON.stringify(path.join(import.meta.dirname, 'install-package.ts'))};\n` +
        `console.log(JSON.stringify(await installPackage(${JSON.stringify(spec)})));\n`,
    );
    const [node, ...args] = tsServerCommand(script);
    const results = await Promise.all(
      [1, 2, 3].map(async () => {
        const out = await run(node as string, args, { env, timeout: 120_000 });
        return JSON.parse(out.stdout) as HostInstall;
      }),
    );
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
    expect(new Set(results.map((r) => (r.ok ? r.bin : r.reason))).size).toBe(1);
    expect(downloads).toBe(1);
    const cache = String(env['LINKGATE_TEST_CACHE']);
    expect(await leftovers(cache)).toEqual([]);
    expect(await readdir(cache)).toEqual([`linkgate-test+fake-host@${version}`]);
  }, 150_000);

  test('an unreachable registry gives a reason naming the package, and leaves nothing behind', async () => {
    mode = 'fail';
    const env = await freshEnv();
    const result = await installPackage(spec, env);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toMatch(/^npm install @linkgate-test\/fake-host@1\.2\.3 failed: .*500/);
    const cache = String(env['LINKGATE_TEST_CACHE']);
    expect(await readdir(cache)).toEqual([]);
  }, 60_000);

  test('a lock left by a process that died is taken over', async () => {
    mode = 'ok';
    const env = await freshEnv();
    const cache = String(env['LINKGATE_TEST_CACHE']);
    const lock = path.join(cache, `linkgate-test+fake-host@${version}.lock`);
    await mkdir(lock, { recursive: true });
    // pid 2^22 + 1 is above Linux's pid_max ceiling, so no process has it
    await writeFile(path.join(lock, 'owner.json'), JSON.stringify({ pid: 4_194_305, host: hostname() }));
    const result = await installPackage(spec, env);
    expect(result.ok, result.ok ? '' : result.reason).toBe(true);
    expect(existsSync(lock)).toBe(false);
  }, 60_000);

  test('a binary that does not print the pinned version is refused', async () => {
    mode = 'ok';
    const env = await freshEnv();
    const result = await installPackage(
      { ...spec, versionCheck: { args: ['--version'], expect: 'fake-host 9.9.9' } },
      env,
    );
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.reason).toContain('does not run here');
    expect(await readdir(String(env['LINKGATE_TEST_CACHE']))).toEqual([]);
  }, 60_000);

  test('LINKGATE_REAL_HOST=skip skips without touching the registry', async () => {
    const result = await installPackage(spec, { ...(await freshEnv()), LINKGATE_REAL_HOST: 'skip' });
    expect(result).toEqual({ ok: false, reason: 'LINKGATE_REAL_HOST=skip is set' });
  });

  test.each([
    [{ LINKGATE_TEST_CACHE: '/c/own', XDG_CACHE_HOME: '/x' }, '/c/own'],
    [{ LINKGATE_TEST_CACHE: '', XDG_CACHE_HOME: '/x' }, '/x/linkgate'],
    [{ HOME: '/h' }, path.join(homedir(), '.cache', 'linkgate')],
  ])('cacheDir(%j) is %s', (env, want) => {
    expect(cacheDir(env)).toBe(want);
  });
});
