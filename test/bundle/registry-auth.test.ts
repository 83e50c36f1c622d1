// The registry token flow (distribution's token spec) in front of a real registry: a loopback front answers 401 with
// a `Bearer realm=…,service=…,scope=…` challenge unless the request carries the token its token service hands out
// for basic credentials, and forwards everything else to docker-registry. Push and pull with `--user` and
// LINKGATE_REGISTRY_PASSWORD work; without credentials the pull is refused and nothing is activated.
import { execFileSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle } from '../../src/bundle/build-bundle.ts';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-http.ts';
import { runCli } from '../helpers/run-cli.ts';
import { makeKey, policyText, sshKeygen } from '../helpers/ssh-keygen.ts';
import { type LoopbackRegistry, registryBinary, startRegistry } from './docker-registry.ts';

const binary = await registryBinary();
if (!binary.ok && process.env['CI'] === 'true')
  throw new Error(`docker-registry is required under CI=true: ${binary.reason}`);

describe.skipIf(!binary.ok)('token auth in front of a real registry', () => {
  let registry: LoopbackRegistry;
  let front: LoopbackServer;
  let dir: string;
  const seen: string[] = [];

  beforeAll(async () => {
    if (!binary.ok) return;
    registry = await startRegistry(binary.bin);
    const basic = `Basic ${Buffer.from('ci:s3cret').toString('base64')}`;
    front = await listenOnLoopback(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://front');
      if (url.pathname === '/token') {
        seen.push(`token ${url.searchParams.get('scope') ?? ''}`);
        if (req.headers.authorization !== basic) res.writeHead(401).end();
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: 'tok-123' }));
        return;
      }
      if (req.headers.authorization !== 'Bearer tok-123') {
        const realm = `http://${req.headers.host ?? ''}/token`;
        res
          .writeHead(401, {
            'www-authenticate': `Bearer realm="${realm}",service="front",scope="repository:security/policy:pull,push"`,
          })
          .end();
        return;
      }
      // forwarded with the front's Host, so the registry's upload locations point back at the front
      const [host, port] = registry.host.split(':');
      const upstream = httpRequest(
        { host, port: Number(port), method: req.method, path: req.url, headers: { ...req.headers, authorization: '' } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
      await new Promise<void>((resolve) => res.on('close', resolve));
    });
    dir = mkdtempSync(join(tmpdir(), 'linkgate-registry-auth-'));
  });
  afterAll(async () => {
    await front?.close();
    await registry?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('pushes and pulls with a bearer token got for basic credentials; without them the pull is refused', async () => {
    const key = makeKey(dir, 'alice', 'ed25519');
    const allowedSigners = join(dir, 'allowed_signers');
    writeFileSync(allowedSigners, `alice@example.com namespaces="linkgate-policy,linkgate-bundle" ${key.publicKey}\n`);
    const source = join(dir, 'policy.yaml');
    writeFileSync(source, policyText(['alice@example.com']));
    execFileSync(sshKeygen(), ['-Y', 'sign', '-n', 'linkgate-policy', '-f', key.file, source], { stdio: 'ignore' });
    await buildBundle(source, { revision: 1, outDir: join(dir, 'b'), linkgateVersion: '0.1.0' });
    execFileSync(
      sshKeygen(),
      ['-Y', 'sign', '-n', 'linkgate-bundle', '-f', key.file, join(dir, 'b', 'manifest.json')],
      {
        stdio: 'ignore',
      },
    );
    const ref = `oci://${new URL(front.origin).host}/security/policy:stable`;
    const env = { LINKGATE_REGISTRY_PASSWORD: 's3cret' };

    const anonymous = await runCli(['bundle', 'push', join(dir, 'b'), ref, '--plain-http']);
    expect(anonymous.code).toBe(2);
    expect(anonymous.stderr).toContain('the token service answered 401');
    const push = await runCli(['bundle', 'push', join(dir, 'b'), ref, '--plain-http', '--user', 'ci'], '', env);
    expect([push.code, push.stderr]).toEqual([0, '']);
    expect(seen).toContain('token repository:security/policy:pull,push');

    const state = join(dir, 'state');
    const args = ['bundle', 'pull', ref, '--plain-http', '--allowed-signers', allowedSigners, '--state', state];
    const refused = await runCli(args);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('(bundle.fetch-failed)');
    expect(refused.stderr).toContain('no bundle is active');
    const noPassword = await runCli([...args, '--user', 'ci']);
    expect([noPassword.code, noPassword.stderr.split('\n')[0]]).toEqual([
      2,
      'linkgate: `--user` needs the password in $LINKGATE_REGISTRY_PASSWORD',
    ]);
    const pulled = await runCli([...args, '--user', 'ci'], '', env);
    expect([pulled.code, pulled.stdout.trim()]).toEqual([0, `activated revision 1 from ${ref}`]);
  });
});
