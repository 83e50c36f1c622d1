import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { PolicyDocument } from '../../src/policy/policy-schema.ts';
import { structuralDiff } from '../../src/review/structural-diff.ts';

const base = parse(readFileSync('test/review/fixtures/rules-policy.yaml', 'utf8')) as PolicyDocument;
const edit = (change: (d: PolicyDocument) => void): PolicyDocument => {
  const copy = structuredClone(base);
  change(copy);
  return copy;
};
type Row = [string, string, string];
const rows = (after: PolicyDocument): Row[] => structuralDiff(base, after).map((c) => [c.path, c.kind, c.direction]);

describe('structural diff', () => {
  it.each<{ name: string; change: (d: PolicyDocument) => void; want: Row[] }>([
    {
      name: 'scheme added',
      change: (d) => d.links.schemes.push('ws'),
      want: [['links.schemes', 'added', 'loosening']],
    },
    {
      name: 'scheme removed',
      change: (d) => (d.links.schemes = ['https']),
      want: [['links.schemes', 'removed', 'tightening']],
    },
    { name: 'cap raised', change: (d) => (d.read.maxBytes *= 2), want: [['read.maxBytes', 'changed', 'loosening']] },
    {
      name: 'timeout lowered',
      change: (d) => (d.read.readTimeoutMs = 100),
      want: [['read.readTimeoutMs', 'changed', 'tightening']],
    },
    {
      name: 'same server off',
      change: (d) => (d.links.requireSameServer = false),
      want: [['links.requireSameServer', 'changed', 'loosening']],
    },
    {
      name: 'custom schemes denied',
      change: (d) => (d.links.customSchemes = 'deny'),
      want: [['links.customSchemes', 'changed', 'tightening']],
    },
    {
      name: 'forward never',
      change: (d) => (d.credentials.forward = 'never'),
      want: [['credentials.forward', 'changed', 'tightening']],
    },
    {
      name: 'origins added',
      change: (d) => (d.links.origins = ['https://a.example.com']),
      want: [['links.origins', 'added', 'tightening']],
    },
    {
      name: 'denyDeclaredTypes removed',
      change: (d) => delete d.links.denyDeclaredTypes,
      want: [['links.denyDeclaredTypes', 'removed', 'loosening']],
    },
    {
      name: 'resolveNames added',
      change: (d) => (d.links.resolveNames = true),
      want: [['links.resolveNames', 'added', 'tightening']],
    },
    {
      name: 'exemption added',
      change: (d) => (d.links.allowNonPublicOrigins = ['http://127.0.0.1:8080']),
      want: [['links.allowNonPublicOrigins', 'added', 'loosening']],
    },
    {
      name: 'internal name added',
      change: (d) => (d.links.internalNames = ['*.corp']),
      want: [['links.internalNames', 'added', 'tightening']],
    },
    {
      name: 'type allowed',
      change: (d) => d.content.allow.push('text/csv'),
      want: [['content.allow', 'added', 'loosening']],
    },
    {
      name: 'rule removed',
      change: (d) => (d.rules = d.rules?.filter((r) => r.id !== 'slow-reads')),
      want: [['rules.slow-reads', 'removed', 'loosening']],
    },
    {
      name: 'rule added',
      change: (d) => d.rules?.push({ id: 'x', stage: 'link', effect: 'deny', message: 'm', when: true }),
      want: [['rules.x', 'added', 'tightening']],
    },
    {
      name: 'rule effect weakened',
      change: (d) => ((d.rules?.[0] as { effect: string }).effect = 'partial'),
      want: [['rules.no-paste-sites.effect', 'changed', 'loosening']],
    },
    {
      name: 'rule condition edited',
      change: (d) => ((d.rules?.[0] as { when: unknown }).when = { var: 'customScheme' }),
      want: [['rules.no-paste-sites.when', 'changed', 'neutral']],
    },
    { name: 'rules reordered', change: (d) => d.rules?.reverse(), want: [['rules', 'changed', 'neutral']] },
    { name: 'version bumped', change: (d) => (d.version = '2.0.0'), want: [['version', 'changed', 'neutral']] },
    {
      name: 'fetch enabled',
      change: (d) => (d.fetch = { enabled: true, maxRedirects: 3 }),
      want: [
        ['fetch.enabled', 'added', 'loosening'],
        ['fetch.maxRedirects', 'added', 'neutral'],
      ],
    },
    { name: 'nothing', change: () => {}, want: [] },
  ])('$name', ({ change, want }) => {
    expect(rows(edit(change))).toEqual(want);
  });
});
