// A bundle published as a static folder on an https server (a self-signed certificate trusted through
// NODE_EXTRA_CA_CERTS): the first pull downloads and activates it; the next polls send the ETag back and get a 304,
// so an unchanged bundle is not downloaded again. Then the front ends read the active bundle: eval, probe and hook
// carry its revision; a file of the active revision changed in the state folder, or an expired bundle, denies.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../../src/bundle/build-bundle.ts';
import { loadBundlePolicy } from '../../src/bundle/bundle-policy.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { readRequested } from '../hook/hook-events.ts';
import { jsonLines, linkRecordLines, runCli } from '../helpers/run-cli.ts';
import { waitUntil } from '../helpers/wait-until.ts';
import { demoServer, processEnv, proxyCommandLine } from '../proxy/proxy-helpers.ts';
import { makeKey, policyText, sshKeygen, type TestKey } from '../helpers/ssh-keygen.ts';

const repoRoot = join(import.meta.dirname, '../..');
let dir: string;
let key: TestKey;
let allowedSigners: string;
let server: Server;
let origin: string;
const requests: { path: string; status: number; bytes: number }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-static-'));
  key = makeKey(dir, 'alice', 'ed25519');
  allowedSigners = join(dir, 'allowed_signers');
  writeFileSync(allowedSigners, `alice@example.com namespaces="linkgate-policy,linkgate-bundle" ${key.publicKey}\n`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'tls.key'),
      '-out',
      join(dir, 'tls.crt'),
    ],
    { stdio: 'ignore' },
  );
  const source = join(dir, 'policy.yaml');
  writeFileSync(source, policyText(['alice@example.com']).replace(/^version: .*$/m, 'version: 7.0.0'));
  execFileSync(sshKeygen(), ['-Y', 'sign', '-n', 'linkgate-policy', '-f', key.file, source], { stdio: 'ignore' });
  await buildBundle(source, { revision: 7, outDir: join(dir, 'www', 'bundle'), linkgateVersion: '0.1.0' });
  execFileSync(
    sshKeygen(),
    ['-Y', 'sign', '-n', 'linkgate-bundle', '-f', key.file, join(dir, 'www', 'bundle', 'manifest.json')],
    {
      stdio: 'ignore',
    },
  );
  // a static file server with strong ETags and If-None-Match, as nginx or a bucket serves a folder
  server = createServer(
    { key: readFileSync(join(dir, 'tls.key')), cert: readFileSync(join(dir, 'tls.crt')) },
    (req, res) => {
      const name = (req.url ?? '').replace(/^\/bundle\//, '');
      let body: Buffer;
      try {
        if (!/^[\w.-]+$/.test(name)) throw new Error('bad name');
        body = readFileSync(join(dir, 'www', 'bundle', name));
      } catch {
        res.writeHead(404).end();
        requests.push({ path: req.url ?? '', status: 404, bytes: 0 });
        return;
      }
      const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, { etag }).end();
        requests.push({ path: req.url ?? '', status: 304, bytes: 0 });
        return;
      }
      res.writeHead(200, { etag, 'content-length': body.length }).end(body);
      requests.push({ path: req.url ?? '', status: 200, bytes: body.length });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  origin = `https://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

// `linkgate bundle pull` in its own process: NODE_EXTRA_CA_CERTS is read when node starts
function pullProcess(state: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(repoRoot, 'src/cli/main.ts'),
        'bundle',
        'pull',
        `${origin}/bundle/`,
        '--allowed-signers',
        allowedSigners,
        '--state',
        state,
      ],
      {
        cwd: repoRoot,
        env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'tls.crt') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('a static https folder with ETags', () => {
  const state = () => join(dir, 'state');

  it('downloads and activates once; an unchanged bundle is one conditional request answered 304, nothing downloaded', async () => {
    const first = await pullProcess(state());
    expect(first.stderr).toBe('');
    expect([first.code, first.stdout.trim()]).toEqual([0, `activated revision 7 from ${origin}/bundle/`]);
    expect(requests.map((r) => [r.path, r.status])).toEqual([
      ['/bundle/manifest.json', 200],
      ['/bundle/manifest.json.sig', 200],
      ['/bundle/policy.yaml', 200],
      ['/bundle/policy.yaml.sig', 200],
    ]);
    requests.length = 0;
    for (let i = 0; i < 2; i++) {
      const again = await pullProcess(state());
      expect([again.code, again.stdout.trim()]).toEqual([0, 'unchanged: revision 7 stays active']);
    }
    expect(requests).toEqual([
      { path: '/bundle/manifest.json', status: 304, bytes: 0 },
      { path: '/bundle/manifest.json', status: 304, bytes: 0 },
    ]);
  }, 120_000);

  it('refuses plain http to a host that is not loopback, and http without --plain-http', async () => {
    const run = await runCli([
      'bundle',
      'pull',
      'http://example.com/b/',
      '--plain-http',
      '--allowed-signers',
      allowedSigners,
      '--state',
      state(),
    ]);
    expect([run.code, run.stderr.split('\n')[0]]).toEqual([
      2,
      'linkgate: the reference `http://example.com/b/` uses `--plain-http` with a host that is not loopback',
    ]);
    const plain = await runCli([
      'bundle',
      'pull',
      `${origin.replace('https', 'http')}/b/`,
      '--allowed-signers',
      allowedSigners,
      '--state',
      state(),
    ]);
    expect(plain.code).toBe(2);
  });

  it('eval, probe and hook use the active bundle and name its revision', async () => {
    const line = JSON.stringify({
      stage: 'link',
      server: 'docs',
      readFrom: 'docs',
      link: { type: 'resource_link', uri: 'https://docs.example.com/a.md', name: 'a' },
    });
    const evaluated = await runCli(['eval', '--bundle', state(), '--allowed-signers', allowedSigners], line);
    expect(JSON.parse(evaluated.stdout)).toMatchObject({
      effect: 'allow',
      policy: { version: '7.0.0', bundleRevision: 7 },
    });

    const probe = await runCli([
      'probe',
      '--bundle',
      state(),
      '--allowed-signers',
      allowedSigners,
      '--json',
      '--tool',
      'show-links',
      '--',
      process.execPath,
      '--import',
      'tsx',
      join(repoRoot, 'src/demo/demo-server.ts'),
    ]);
    expect(probe.code).toBe(0);
    const records = jsonLines(probe.stdout).filter((r) => (r as { decisions?: unknown }).decisions !== undefined) as {
      decisions: { link: { policy: { bundleRevision?: number } } };
    }[];
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) expect(r.decisions.link.policy.bundleRevision).toBe(7);

    const hook = (extra: string[]) =>
      runCli(
        ['hook', 'claude-code', '--bundle', state(), '--state', join(dir, 'hook-state'), ...extra],
        JSON.stringify(readRequested('docs', 'guide://manuals/a')),
      );
    expect((await hook(['--allowed-signers', allowedSigners])).stdout).toBe('');
    expect(
      (await runCli(['hook', 'claude-code', '--bundle', state(), '--policy', 'policies/default.yaml'], '{}')).code,
    ).toBe(2);
  }, 120_000);

  it('the proxy with --bundle records the revision on every link', async () => {
    const recordsFile = join(dir, 'proxy-records.jsonl');
    const [command, ...args] = proxyCommandLine(
      ['--bundle', state(), '--allowed-signers', allowedSigners, '--server', 'demo', '--records', recordsFile],
      demoServer,
    );
    const client = new Client({ name: 'bundle-host', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: command as string, args, env: processEnv(), stderr: 'ignore' }),
    );
    await client.callTool({ name: 'show-links', arguments: {} });
    await client.close();
    // the proxy writes the records of links never read as it shuts down
    const records = await waitUntil('proxy records', async () => {
      const lines = linkRecordLines(await readFile(recordsFile, 'utf8').catch(() => '')) as {
        decisions: { link: { policy: { bundleRevision?: number } } };
      }[];
      return lines.length > 0 ? lines : undefined;
    });
    for (const r of records) expect(r.decisions.link.policy.bundleRevision).toBe(7);
  }, 120_000);

  it('a file of the active revision changed in the state folder, or a bundle past its expiry, denies every decision', async () => {
    const current = await loadBundlePolicy(state(), { env: {} });
    expect(current.policy.reviewCheck).toBeUndefined();
    const later = await loadBundlePolicy(state(), { env: {}, nowMs: Date.now() + 365 * 86_400_000 });
    expect(later.policy.reviewCheck).toMatchObject({ verified: false, problems: ['expired'] });
    const decision = await createGate(later.policy).decide({
      stage: 'link',
      link: { type: 'resource_link', uri: 'https://docs.example.com/a', name: 'a' },
    });
    expect(decision).toMatchObject({
      effect: 'deny',
      reasons: [{ code: 'policy.unreviewed' }],
      policy: { bundleRevision: 7 },
    });

    const file = join(state(), 'revisions', '7', 'policy.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('schemes: [https, http]', 'schemes: [https, http, file]'));
    const hook = await runCli(
      ['hook', 'claude-code', '--bundle', state(), '--state', join(dir, 'hook-state')],
      JSON.stringify(readRequested('docs', 'guide://manuals/a')),
    );
    expect(hook.stdout).toContain('"permissionDecision":"deny"');
    expect(hook.stdout).toContain('changed after it was activated');
  });
});
