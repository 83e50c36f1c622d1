// Only a policy in force is read (issue 35, item 1): every setting of the policy schema is either kept from an
// unverified file because it is harmless (identity and review, listed in `unverifiedKeptFields`) or comes from the
// locked document, so a loosened, unsigned file switches nothing off. The schema is walked leaf by leaf: a setting
// added without a loose value below (or a place in the kept fields) fails the first test.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy, parsePolicy } from '../../src/policy/load-policy.ts';
import { lockedDocument, unverifiedKeptFields } from '../../src/policy/locked-document.ts';
import type { Policy } from '../../src/policy/policy.ts';
import { runCli } from '../helpers/run-cli.ts';
import { webFetch } from '../hook/hook-events.ts';

/** A loose value, valid for the schema, for every setting an unverified policy must not contribute. */
const looseValues: Readonly<Record<string, unknown>> = {
  'links.schemes': ['https', 'http', 'file'],
  'links.customSchemes': 'allow',
  'links.origins': ['https://*.example.com'],
  'links.servers': ['docs'],
  'links.requireSameServer': false,
  'links.denyNonPublicAddresses': false,
  'links.internalNames': ['*.corp'],
  'links.resolveNames': true,
  'links.allowNonPublicOrigins': ['http://127.0.0.1:8080'],
  'links.maxDeclaredBytes': 999_999_999,
  'links.denyDeclaredTypes': false,
  'credentials.forward': 'same-origin',
  'credentials.apiKeyHeaders': ['X-Api-Key'],
  'read.readTimeoutMs': 999_999,
  'read.maxBytes': 999_999_999,
  'read.maxItemBytes': 999_999_999,
  'read.maxItems': 9999,
  'read.overCap': 'partial',
  'read.allowTaskResults': true,
  'read.answerInputRequired': true,
  'content.allow': ['application/x-executable', 'text/html'],
  'content.maxImagePixels': 999_999_999,
  'content.flagInvisibleText': false,
  // a profile without the browser and markdown consumers judges fewer bodies
  'content.consumers': ['shell'],
  // so does one that leaves the terminal out by name
  'content.excludeConsumers': ['terminal', 'browser'],
  'fetch.enabled': true,
  'fetch.schemes': ['https', 'http'],
  'fetch.maxRedirects': 20,
  'fetch.connectTimeoutMs': 999_999,
  'fetch.overCap': 'partial',
  'hook.requireDiscovered': false,
  'hook.webFetch': false,
  rules: [{ id: 'never', stage: 'link', effect: 'deny', message: 'never', when: false }],
};

type JsonSchema = { type?: string; properties?: Record<string, JsonSchema> };

// the leaf settings of the policy schema, as dotted paths (an array or a value is a leaf)
function leaves(schema: JsonSchema, prefix = ''): string[] {
  if (schema.type !== 'object' || schema.properties === undefined) return [prefix];
  return Object.entries(schema.properties).flatMap(([key, child]) => leaves(child, prefix ? `${prefix}.${key}` : key));
}

const kept = (path: string) => unverifiedKeptFields.some((f) => path === f || path.startsWith(`${f}.`));
const schema = JSON.parse(readFileSync('schemas/policy.schema.json', 'utf8')) as JsonSchema;
const base = parsePolicy(readFileSync('policies/default.yaml', 'utf8'), 'default.yaml').document;

function withSetting(path: string, value: unknown): Record<string, unknown> {
  const document = structuredClone(base) as Record<string, unknown>;
  const keys = path.split('.');
  let at = document;
  for (const key of keys.slice(0, -1)) {
    at[key] ??= key === 'fetch' ? { enabled: false, maxRedirects: 0 } : {};
    at = at[key] as Record<string, unknown>;
  }
  at[keys.at(-1) ?? ''] = value;
  return document;
}

const valueAt = (document: unknown, path: string) =>
  path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], document);

const dir = mkdtempSync(join(tmpdir(), 'linkgate-unverified-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const allowedSigners = join(dir, 'allowed_signers');
writeFileSync(allowedSigners, '# no reviewer: nothing verifies\n');

async function loadUnverified(name: string, document: unknown): Promise<Policy> {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, stringify(document));
  return loadPolicy(file, { allowedSigners, env: {} });
}

// what a front end can read from a policy, as plain data
const readable = (p: Policy) =>
  JSON.stringify({
    document: p.document,
    rules: p.rules.length,
    stages: p.stages,
    kinds: [...p.allowedKinds],
    link: { ...p.link, schemes: [...p.link.schemes], servers: p.link.servers && [...p.link.servers] },
  });

describe('an unverified policy contributes nothing but the deny', () => {
  it('every setting of the policy schema is classified: kept as harmless, or has a loose value tested below', () => {
    const settings = leaves(schema).filter((p) => !kept(p));
    expect(settings.sort()).toEqual(Object.keys(looseValues).sort());
  });

  it('the locked document is valid for the schema, and the kept fields are exactly identity and review', async () => {
    const locked = await loadUnverified('base-check', lockedDocument(base));
    expect(locked.document.links.schemes).toEqual([]);
    expect(Object.keys(lockedDocument(base)).filter(kept).sort()).toEqual(['description', 'id', 'review', 'version']);
  });

  it.each(Object.entries(looseValues))('%s from an unverified file is not read', async (path, value) => {
    const baseline = await loadUnverified('baseline', base);
    const loosened = withSetting(path, value);
    // the loosened file is itself a valid policy: verified, it would be read
    expect(valueAt(parsePolicy(stringify(loosened), 'loose.yaml').document, path)).toEqual(value);
    const policy = await loadUnverified(`loose-${path}`, loosened);
    expect(policy.reviewCheck?.verified).toBe(false);
    expect(valueAt(policy.document, path)).not.toEqual(value);
    expect(readable(policy)).toBe(readable(baseline));
    expect(createGate(policy).decideLink({ stage: 'link', link: { uri: 'https://example.com/a' } }).effect).toBe(
      'deny',
    );
  });

  it("the hook judges the host's web fetch when an unsigned file turns `hook.webFetch` off", async () => {
    const file = join(dir, 'no-webfetch.yaml');
    writeFileSync(file, readFileSync('policies/default.yaml', 'utf8').replace('webFetch: true', 'webFetch: false'));
    const state = join(dir, 'state');
    const event = JSON.stringify(webFetch('http://169.254.169.254/latest/meta-data/'));
    const run = await runCli(
      ['hook', 'claude-code', '--policy', file, '--state', state, '--allowed-signers', allowedSigners],
      event,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"permissionDecision":"deny"');
    expect(run.stdout).toContain('policy.unreviewed');
  });
});
