import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicyCached, policyCacheFormat } from '../../src/hook/policy-cache.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { policyDigest } from '../../src/policy/policy-digest.ts';
import { runCli } from '../helpers/run-cli.ts';
import { readRequested } from './hook-events.ts';

let dir: string;
let cacheDir: string;
let policyFile: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-policy-cache-'));
  cacheDir = join(dir, 'state');
  policyFile = join(dir, 'policy.yaml');
  writeFileSync(policyFile, readFileSync('policies/default.yaml'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const options = (buildKey = 'v1 schema-a') => ({ dir: cacheDir, buildKey });
const entries = () => readdirSync(cacheDir).filter((n) => /^policy-[0-9a-f]{64}\.json$/.test(n));
const entryPath = () => join(cacheDir, entries()[0] ?? 'none');

interface Entry {
  format: number;
  key: string;
  digest: string;
  document: { id: string; links: { denyNonPublicAddresses: boolean } };
}
const readEntry = () => JSON.parse(readFileSync(entryPath(), 'utf8')) as Entry;

// an entry whose document lets loopback links through, with a digest that matches it: what a writer of the
// cache folder could plant. Used to see whether the cache is read (the link is allowed) or not (denied).
function plantLoopbackEntry(): void {
  const entry = readEntry();
  entry.document.links.denyNonPublicAddresses = false;
  entry.digest = policyDigest(entry.document);
  writeFileSync(entryPath(), JSON.stringify(entry), { mode: 0o600 });
}
const loopbackLink = { stage: 'link', link: { type: 'resource_link', uri: 'http://127.0.0.1/admin', name: 'a' } };
const effectOnLoopback = async () =>
  createGate(await loadPolicyCached(policyFile, 'policy.yaml', options())).decideLink(loopbackLink).effect;

describe('loadPolicyCached', () => {
  it('loads what loadPolicy loads, and keeps the validated document under the digest of the bytes', async () => {
    const cached = await loadPolicyCached(policyFile, 'policy.yaml', options());
    const full = await loadPolicy(policyFile);
    expect(cached.ref).toEqual(full.ref);
    expect(cached.document).toEqual(full.document);
    expect(cached.source).toBe(policyFile);
    expect(entries()).toHaveLength(1);
    expect(readEntry()).toMatchObject({ format: policyCacheFormat, digest: full.ref.digest, document: full.document });

    const again = await loadPolicyCached(policyFile, 'policy.yaml', options());
    expect(again.ref).toEqual(full.ref);
    expect(again.document).toEqual(full.document);
    expect(Object.isFrozen(again.document)).toBe(true);
  });

  it('a hit reads the entry (what lets an event skip the yaml parser and the schema)', async () => {
    await loadPolicyCached(policyFile, 'policy.yaml', options());
    expect(await effectOnLoopback()).toBe('deny');
    plantLoopbackEntry();
    // the entry is trusted because only this user can write the folder: the same trust as the policy file
    expect(await effectOnLoopback()).toBe('allow');
  });

  it('an entry in a folder other users can write, or a file they can write, is never read nor written', async () => {
    await loadPolicyCached(policyFile, 'policy.yaml', options());
    plantLoopbackEntry();
    chmodSync(entryPath(), 0o666);
    expect(await effectOnLoopback()).toBe('deny');
    chmodSync(entryPath(), 0o600);
    chmodSync(cacheDir, 0o777);
    expect(await effectOnLoopback()).toBe('deny');
    rmSync(entryPath());
    await loadPolicyCached(policyFile, 'policy.yaml', options());
    expect(entries()).toHaveLength(0);
  });

  it('an edited policy file is a miss: the new bytes are loaded, never the old entry', async () => {
    await loadPolicyCached(policyFile, 'policy.yaml', options());
    const text = readFileSync(policyFile, 'utf8');
    writeFileSync(policyFile, text.replace('denyNonPublicAddresses: true', 'denyNonPublicAddresses: false'));
    expect(readFileSync(policyFile, 'utf8')).not.toBe(text);
    expect(await effectOnLoopback()).toBe('allow');
    writeFileSync(policyFile, text);
    expect(await effectOnLoopback()).toBe('deny');
    expect(entries()).toHaveLength(2);
  });

  it('another build (version or schema) is a miss', async () => {
    await loadPolicyCached(policyFile, 'policy.yaml', options('v1 schema-a'));
    plantLoopbackEntry();
    const other = await loadPolicyCached(policyFile, 'policy.yaml', options('v1 schema-b'));
    expect(createGate(other).decideLink(loopbackLink).effect).toBe('deny');
    expect(entries()).toHaveLength(2);
  });

  it.each([
    ['cut short', (text: string) => text.slice(0, text.length >> 1)],
    ['not an object', () => '[]'],
    ['null', () => 'null'],
    ['another format', (text: string) => text.replace(`"format":${policyCacheFormat}`, '"format":999')],
    ['another key', (text: string) => text.replace(/"key":"[0-9a-f]/, '"key":"x')],
    [
      'a document that does not match its digest',
      (text: string) => text.replace('"denyNonPublicAddresses":true', '"denyNonPublicAddresses":false'),
    ],
    ['no document', (text: string) => text.replace('"document":', '"documents":')],
    [
      'a rule that does not compile',
      (text: string) => {
        const entry = JSON.parse(text) as Entry & { document: { rules?: unknown } };
        entry.document.rules = [{ id: 'r', stage: 'link', effect: 'deny', message: 'm', when: { nope: [] } }];
        entry.digest = policyDigest(entry.document);
        return JSON.stringify(entry);
      },
    ],
  ])('an entry %s is a miss: the full load decides', async (_name, damage) => {
    await loadPolicyCached(policyFile, 'policy.yaml', options());
    writeFileSync(entryPath(), damage(readFileSync(entryPath(), 'utf8')), { mode: 0o600 });
    expect(await effectOnLoopback()).toBe('deny');
    // and the miss wrote the entry again
    expect(readEntry().digest).toBe((await loadPolicy(policyFile)).ref.digest);
  });

  it('a policy that does not load throws as loadPolicy does and leaves no entry', async () => {
    writeFileSync(policyFile, 'id: [oops');
    await expect(loadPolicyCached(policyFile, 'policy.yaml', options())).rejects.toMatchObject({
      code: 'POLICY_INVALID',
    });
    mkdirSync(cacheDir, { recursive: true });
    expect(entries()).toHaveLength(0);
  });

  it('a missing policy file throws POLICY_UNREADABLE naming the file as shown', async () => {
    await expect(loadPolicyCached(join(dir, 'absent.yaml'), 'absent.yaml', options())).rejects.toMatchObject({
      code: 'POLICY_UNREADABLE',
      message: 'cannot read policy `absent.yaml`: no such file',
    });
  });

  it('without a build key (the schema of this build is not known) nothing is read or written', async () => {
    await loadPolicyCached(policyFile, 'policy.yaml', options());
    plantLoopbackEntry();
    const policy = await loadPolicyCached(policyFile, 'policy.yaml', { dir: cacheDir, buildKey: undefined });
    expect(createGate(policy).decideLink(loopbackLink).effect).toBe('deny');
    expect(entries()).toHaveLength(1);
  });

  it('a cache folder that cannot be made still loads the policy', async () => {
    writeFileSync(cacheDir, 'a file where the folder would be');
    const policy = await loadPolicyCached(policyFile, 'policy.yaml', options());
    expect(policy.ref).toEqual((await loadPolicy(policyFile)).ref);
  });
});

// the hook keeps its cache next to the installed bundle only (none from source), never in the state folder the gated
// agent may write (round 9 'forged policy cache'); the loadPolicyCached cases above cover the cache itself
describe('linkgate hook, its state folder and the policy', () => {
  const hook = (uri: string) =>
    runCli(
      ['hook', 'claude-code', '--policy', policyFile, '--state', cacheDir],
      JSON.stringify(readRequested('docs', uri)),
    );
  const denied = (stdout: string) => stdout.includes('"permissionDecision":"deny"');

  it('an edit of the policy between two events decides the second one', async () => {
    expect(denied((await hook('http://127.0.0.1/admin')).stdout)).toBe(true);
    expect(entries()).toHaveLength(0);
    const text = readFileSync(policyFile, 'utf8');
    writeFileSync(policyFile, text.replace('denyNonPublicAddresses: true', 'denyNonPublicAddresses: false'));
    expect(await hook('http://127.0.0.1/admin')).toMatchObject({ code: 0, stdout: '' });
    writeFileSync(policyFile, text);
    expect(denied((await hook('http://127.0.0.1/admin')).stdout)).toBe(true);
  });

  it('a policy broken after it was cached exits 2, whatever the cache holds', async () => {
    expect((await hook('guide://a')).code).toBe(0);
    writeFileSync(policyFile, `${readFileSync(policyFile, 'utf8')}\nlinks: {}\n`);
    const run = await hook('guide://a');
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
