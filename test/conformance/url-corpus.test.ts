import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Decision } from '../../src/decision/decision.ts';
import { createGate, type Resolver } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { Policy } from '../../src/policy/policy.ts';
import { hasShared } from '../helpers/shared-dir.ts';

// Conformance against ../shared/corpus/url (DESIGN §5, corpus README): runs only where the corpus exists.
const repoRoot = path.resolve(import.meta.dirname, '../..');
const corpusDir = path.resolve(repoRoot, '../shared/corpus/url');
const hasCorpus = hasShared('corpus/url/ssrf-cases.jsonl');

/** Share of non-ambiguous `allow` cases that must be allowed (corpus README). */
const minAllowRate = 0.98;

/**
 * Allow labels the gate disputes (issue 14), each with the rule that denies it and why; they are reported,
 * left out of the allow rate, and must be denied with that reason code.
 */
const labelDisputes = new Map<string, readonly [code: string, why: string]>([
  [
    'ssrf-0715',
    ['uri.invalid', 'a raw C0 control (U+0008) is not valid in a uri (RFC 3986 §2); WHATWG percent-encodes it'],
  ],
]);

interface SsrfCase {
  id: string;
  input: string;
  expect: 'block' | 'allow';
  ambiguous: boolean;
  dns: boolean;
  why: string;
}

interface CredentialCase {
  id: string;
  from: string;
  to: string;
  via?: string[];
  credential: string;
  expect: 'forward' | 'strip';
  why: string;
}

function readJsonl<T>(file: string): T[] {
  return readFileSync(path.join(corpusDir, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

function summary(d: Decision): string {
  return `${d.effect} [${d.reasons.map((r) => r.code).join(', ')}]`;
}

describe.skipIf(!hasCorpus)('url corpus: ssrf-cases.jsonl with policies/web-public.yaml', () => {
  let policy: Policy;
  let results: { c: SsrfCase; decision: Decision }[];

  beforeAll(async () => {
    policy = await loadPolicy(path.join(repoRoot, 'policies/web-public.yaml'));
    const dns = JSON.parse(readFileSync(path.join(corpusDir, 'fake-dns.json'), 'utf8')) as {
      answers: Record<string, string[]>;
    };
    const answers = new Map(Object.entries(dns.answers));
    // a name not listed, or listed with [], does not resolve
    const fakeResolve: Resolver = async (name) => {
      const found = answers.get(name);
      if (found === undefined || found.length === 0) throw new Error(`\`${name}\` does not resolve`);
      return found;
    };
    const withDns = createGate(policy, { resolve: fakeResolve });
    const textOnly = createGate(policy, { resolve: 'none' });
    const cases = readJsonl<SsrfCase>('ssrf-cases.jsonl');
    results = await Promise.all(
      cases.map(async (c) => {
        const line = { stage: 'link', server: 'default', link: { type: 'resource_link', uri: c.input, name: c.id } };
        return { c, decision: await (c.dns ? withDns : textOnly).decide(line) };
      }),
    );
  });

  const agrees = ({ c, decision }: { c: SsrfCase; decision: Decision }) =>
    (c.expect === 'block') === (decision.effect === 'deny');

  function report(label: string, rows: { c: SsrfCase; decision: Decision }[]): void {
    for (const { c, decision } of rows) {
      console.log(
        `${label} ${c.id} expect ${c.expect} got ${summary(decision)}: ${JSON.stringify(c.input)} (${c.why.slice(0, 100)})`,
      );
    }
  }

  it('denies every non-ambiguous block case', () => {
    const block = results.filter((r) => !r.c.ambiguous && r.c.expect === 'block');
    const misses = block.filter((r) => !agrees(r));
    report('miss', misses);
    console.log(`block: ${block.length - misses.length}/${block.length} denied`);
    expect(block.length).toBeGreaterThan(0);
    expect(misses.map((r) => r.c.id)).toEqual([]);
  });

  it(`allows at least ${minAllowRate * 100}% of non-ambiguous allow cases`, () => {
    const allow = results.filter((r) => !r.c.ambiguous && r.c.expect === 'allow' && !labelDisputes.has(r.c.id));
    const misses = allow.filter((r) => !agrees(r));
    report('miss', misses);
    console.log(`allow: ${allow.length - misses.length}/${allow.length} allowed`);
    expect(allow.length).toBeGreaterThan(0);
    expect((allow.length - misses.length) / allow.length).toBeGreaterThanOrEqual(minAllowRate);
  });

  it('denies each disputed allow label for the disputed reason', () => {
    for (const [id, [code, why]] of labelDisputes) {
      const row = results.find((r) => r.c.id === id);
      expect(row?.c.expect, id).toBe('allow');
      expect(row?.decision.effect, `${id}: ${why}`).toBe('deny');
      expect(row?.decision.reasons.map((r) => r.code)).toContain(code);
      console.log(`disputed ${id} ${JSON.stringify(row?.c.input)}: denied as ${code}, ${why}`);
    }
  });

  it('reports how many ambiguous cases agree (not gated)', () => {
    const ambiguous = results.filter((r) => r.c.ambiguous);
    report(
      'ambiguous-disagrees',
      ambiguous.filter((r) => !agrees(r)),
    );
    console.log(`ambiguous: ${ambiguous.filter(agrees).length}/${ambiguous.length} agree with their label`);
    expect(ambiguous.length).toBeGreaterThan(0);
  });

  it('gives every deny at least one reason', () => {
    const silent = results.filter((r) => r.decision.effect === 'deny' && r.decision.reasons.length === 0);
    expect(silent.map((r) => r.c.id)).toEqual([]);
  });
});

describe.skipIf(!hasCorpus)('url corpus: credential-cases.jsonl with policies/default.yaml', () => {
  let policy: Policy;
  beforeAll(async () => {
    policy = await loadPolicy(path.join(repoRoot, 'policies/default.yaml'));
  });

  const cases = hasCorpus ? readJsonl<CredentialCase>('credential-cases.jsonl') : [];

  it('has cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const gate = createGate(policy, { resolve: 'none' });
    const line = {
      stage: 'credential',
      kind: c.credential,
      from: c.from,
      to: c.to,
      ...(c.via === undefined ? {} : { via: c.via }),
    };
    const decision = await gate.decide(line);
    const want = c.expect === 'forward' ? 'allow' : 'deny';
    if (decision.effect !== want) console.log(`miss ${c.id} expect ${c.expect} got ${summary(decision)} (${c.why})`);
    expect(decision.effect).toBe(want);
    expect(gate.decideCredential(line)).toEqual(decision);
  });
});
