// `linkgate hook --allowed-signers`: a policy whose review does not verify denies reads and withholds bodies, and
// the validated-policy cache never lets a policy skip the check (poisoned entry, .sig removed, signers changed).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPolicyCached, policyBuildKey } from '../../src/policy/policy-cache.ts';
import { policyDigest } from '../../src/policy/policy-digest.ts';
import { runCli } from '../helpers/run-cli.ts';
import { type ReviewFolder, reviewFolder } from '../helpers/ssh-keygen.ts';
import { readRequested, readReturned } from './hook-events.ts';

let f: ReviewFolder;
let state: string;
beforeEach(() => {
  f = reviewFolder({ 'alice@example.com': 'ed25519' });
  f.sign('alice@example.com');
  state = join(f.dir, 'state');
});
afterEach(() => f.cleanup());

const hook = (event: unknown, reviewed = true, env: Record<string, string> = {}) =>
  runCli(
    [
      'hook',
      'claude-code',
      '--policy',
      f.policy,
      '--state',
      state,
      ...(reviewed ? ['--allowed-signers', f.allowedSigners] : []),
    ],
    JSON.stringify(event),
    env,
  );
const read = (uri: string, reviewed = true) => hook(readRequested('docs', uri), reviewed);
const deniedFor = (stdout: string) =>
  stdout === ''
    ? 'allowed'
    : /"permissionDecision":"deny"/.test(stdout)
      ? /policy\.unreviewed/.test(stdout)
        ? 'unreviewed'
        : 'denied'
      : stdout;
const cacheEntries = () => {
  try {
    return readdirSync(state).filter((n) => /^policy-[0-9a-f]{64}\.json$/.test(n));
  } catch {
    return [];
  }
};

describe('linkgate hook --allowed-signers', () => {
  it('a verified policy decides as usual; an edited one denies every read (pre) with policy.unreviewed', async () => {
    expect(deniedFor((await read('guide://manuals/a')).stdout)).toBe('allowed');
    expect(deniedFor((await read('http://127.0.0.1/admin')).stdout)).toBe('denied');
    writeFileSync(
      f.policy,
      readFileSync(f.policy, 'utf8').replace('schemes: [https, http]', 'schemes: [https, http, file]'),
    );
    const run = await read('guide://manuals/a');
    expect(run.code).toBe(0);
    expect(deniedFor(run.stdout)).toBe('unreviewed');
    expect(run.stdout).toContain('does not match these bytes');
    // LINKGATE_ALLOWED_SIGNERS does the same without the option
    const byEnv = await hook(readRequested('docs', 'guide://manuals/a'), false, {
      LINKGATE_ALLOWED_SIGNERS: f.allowedSigners,
    });
    expect(deniedFor(byEnv.stdout)).toBe('unreviewed');
  });

  it('withholds a read result (post) when the policy is not reviewed', async () => {
    rmSync(f.sig);
    const body = 'the secret body text 7f3a';
    const run = await hook(
      readReturned('docs', 'guide://manuals/a', [{ uri: 'guide://manuals/a', mimeType: 'text/plain', text: body }]),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('policy.unreviewed');
    expect(run.stdout).not.toContain(body);
    const unchecked = await hook(
      readReturned('docs', 'guide://manuals/a', [{ uri: 'guide://manuals/a', mimeType: 'text/plain', text: body }]),
      false,
    );
    expect(unchecked.stdout).toBe('');
  });

  it('a poisoned cache entry for the signed bytes is never used, under review or not', async () => {
    // an event without the check keeps no entry in the state folder (the cache lives next to the installed bundle)
    await read('guide://manuals/a', false);
    expect(cacheEntries()).toEqual([]);
    // the agent plants one there: the cache's own format, under the key a build would read, for these exact bytes
    await loadPolicyCached(f.policy, 'policy.yaml', { dir: state, buildKey: policyBuildKey() });
    const [name] = cacheEntries();
    expect(name).toBeDefined();
    const entryFile = join(state, name ?? '');
    const entry = JSON.parse(readFileSync(entryFile, 'utf8')) as {
      digest: string;
      document: { links: { denyNonPublicAddresses: boolean } };
    };
    entry.document.links.denyNonPublicAddresses = false;
    entry.digest = policyDigest(entry.document);
    writeFileSync(entryFile, JSON.stringify(entry), { mode: 0o600 });
    // neither an unchecked hook nor a reviewed one reads it
    expect(deniedFor((await read('http://127.0.0.1/admin', false)).stdout)).toBe('denied');
    expect(deniedFor((await read('http://127.0.0.1/admin')).stdout)).toBe('denied');
    const before = readFileSync(entryFile, 'utf8');
    await read('guide://manuals/a');
    expect(readFileSync(entryFile, 'utf8')).toBe(before);
  });

  it('a .sig removed after a verified event, or a signer dropped from the allowed signers, is seen at the next event', async () => {
    expect(deniedFor((await read('guide://manuals/a')).stdout)).toBe('allowed');
    await read('guide://manuals/a', false);
    const sig = readFileSync(f.sig);
    rmSync(f.sig);
    const gone = await read('guide://manuals/a');
    expect(deniedFor(gone.stdout)).toBe('unreviewed');
    expect(gone.stdout).toContain('no signature');
    writeFileSync(f.sig, sig);
    expect(deniedFor((await read('guide://manuals/a')).stdout)).toBe('allowed');
    writeFileSync(f.allowedSigners, '# nobody\n');
    const dropped = await read('guide://manuals/a');
    expect(deniedFor(dropped.stdout)).toBe('unreviewed');
    expect(dropped.stdout).toContain('is not in the allowed signers');
  });

  it('--print-config carries the review options into the hook command', async () => {
    // --print-config now verifies the review first: the policy carries the two signatures --min-signers 2 asks for
    f.cleanup();
    f = reviewFolder({ 'alice@example.com': 'ed25519', 'bob@example.com': 'ed25519' });
    f.sign('alice@example.com');
    f.sign('bob@example.com');
    const run = await runCli([
      'hook',
      'claude-code',
      '--print-config',
      '--policy',
      f.policy,
      '--allowed-signers',
      f.allowedSigners,
      '--min-signers',
      '2',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`--allowed-signers ${f.allowedSigners} --min-signers 2`);
  });

  it('--min-signers without an allowed-signers file is a usage error', async () => {
    const run = await runCli(['hook', 'claude-code', '--policy', f.policy, '--min-signers', '2'], '{}');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('`--min-signers` needs `--allowed-signers FILE`');
  });
});
