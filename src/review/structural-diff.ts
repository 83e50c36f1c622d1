import { canonicalJson } from '../policy/policy-digest.ts';
import type { PolicyDocument } from '../policy/policy-schema.ts';

/** Which way a change moves the policy: fewer things get through (tightening), more do (loosening), or neither. */
export type Direction = 'tightening' | 'loosening' | 'neutral';

/** One change between two policy documents, by dotted path (`links.schemes`, `rules.<id>.when`). */
export interface SettingChange {
  readonly path: string;
  /** `added`/`removed`: the setting, list member or rule appeared or went away; `changed`: a value differs */
  readonly kind: 'added' | 'removed' | 'changed';
  readonly old?: unknown;
  readonly new?: unknown;
  readonly direction: Direction;
}

type Order =
  | 'more-is-looser'
  | 'more-is-tighter'
  | 'true-is-tighter'
  | 'true-is-looser'
  | 'allow-list'
  | 'deny-list'
  | 'enum'
  | 'neutral';

// how each setting orders its values; a path not listed is neutral (metadata, wording)
const orders: Readonly<Record<string, Order>> = {
  'links.schemes': 'allow-list',
  'links.origins': 'allow-list',
  'links.servers': 'allow-list',
  'links.allowNonPublicOrigins': 'allow-list',
  'links.internalNames': 'deny-list',
  'links.customSchemes': 'enum',
  'links.requireSameServer': 'true-is-tighter',
  'links.denyNonPublicAddresses': 'true-is-tighter',
  'links.denyDeclaredTypes': 'true-is-tighter',
  'links.resolveNames': 'true-is-tighter',
  'links.maxDeclaredBytes': 'more-is-looser',
  'credentials.forward': 'enum',
  'credentials.apiKeyHeaders': 'deny-list',
  'read.readTimeoutMs': 'more-is-looser',
  'read.maxBytes': 'more-is-looser',
  'read.maxItemBytes': 'more-is-looser',
  'read.maxItems': 'more-is-looser',
  'read.overCap': 'enum',
  'read.allowTaskResults': 'true-is-looser',
  'read.answerInputRequired': 'true-is-looser',
  'content.allow': 'allow-list',
  'content.maxImagePixels': 'more-is-looser',
  'content.flagInvisibleText': 'true-is-tighter',
  'fetch.enabled': 'true-is-looser',
  'fetch.schemes': 'allow-list',
  'fetch.maxRedirects': 'more-is-looser',
  'fetch.connectTimeoutMs': 'more-is-looser',
  'fetch.overCap': 'enum',
  'hook.requireDiscovered': 'true-is-tighter',
  'hook.webFetch': 'true-is-tighter',
};

// for enums: values from tightest to loosest
const enumRanks: Readonly<Record<string, readonly string[]>> = {
  'links.customSchemes': ['deny', 'allow'],
  'credentials.forward': ['never', 'same-origin'],
  'read.overCap': ['deny', 'partial'],
  'fetch.overCap': ['deny', 'partial'],
};

// settings whose absence means "no limit of this kind": adding one tightens, removing one loosens
const absentIsOpen = new Set([
  'links.origins',
  'links.servers',
  'read.maxItemBytes',
  'content.maxImagePixels',
  'fetch.connectTimeoutMs',
]);
// optional booleans read as false when absent
const absentIsFalse = new Set([
  'content.flagInvisibleText',
  'links.denyDeclaredTypes',
  'hook.requireDiscovered',
  'links.resolveNames',
  'read.allowTaskResults',
  'read.answerInputRequired',
  'fetch.enabled',
]);

// optional booleans read as true when absent
const absentIsTrue = new Set(['hook.webFetch']);

const loosenWhen = (looser: boolean): Direction => (looser ? 'loosening' : 'tightening');

function valueDirection(path: string, before: unknown, after: unknown): Direction {
  const order = orders[path] ?? 'neutral';
  switch (order) {
    case 'more-is-looser':
      return typeof before === 'number' && typeof after === 'number' ? loosenWhen(after > before) : 'neutral';
    case 'more-is-tighter':
      return typeof before === 'number' && typeof after === 'number' ? loosenWhen(after < before) : 'neutral';
    case 'true-is-tighter':
      return loosenWhen(before === true && after !== true);
    case 'true-is-looser':
      return loosenWhen(before !== true && after === true);
    case 'enum': {
      const ranks = enumRanks[path] ?? [];
      const a = ranks.indexOf(String(before));
      const b = ranks.indexOf(String(after));
      return a === -1 || b === -1 ? 'neutral' : loosenWhen(b > a);
    }
    default:
      return 'neutral';
  }
}

function get(doc: unknown, path: string): unknown {
  let value = doc;
  for (const segment of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** Every dotted path of a document down to scalars and lists (lists are compared as a whole or as sets). */
function leafPaths(doc: unknown, prefix = ''): string[] {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return prefix === '' ? [] : [prefix];
  return Object.keys(doc).flatMap((key) =>
    leafPaths((doc as Record<string, unknown>)[key], prefix === '' ? key : `${prefix}.${key}`),
  );
}

function settingChanges(path: string, before: unknown, after: unknown): SettingChange[] {
  if (before === undefined && after === undefined) return [];
  const order = orders[path] ?? 'neutral';
  if (before === undefined || after === undefined) {
    const kind = before === undefined ? 'added' : 'removed';
    let direction: Direction = 'neutral';
    if (absentIsOpen.has(path)) direction = loosenWhen(kind === 'removed');
    else if (absentIsFalse.has(path) || absentIsTrue.has(path)) {
      // an optional boolean written out as its own default changes nothing
      const fallback = absentIsTrue.has(path);
      const [was, is] = [before ?? fallback, after ?? fallback];
      if (was !== is) direction = valueDirection(path, was, is);
    } else if (order === 'allow-list' || order === 'deny-list') {
      // a list that is absent is empty: judge it member by member
      return settingChanges(path, before ?? [], after ?? []);
    }
    return [
      {
        path,
        kind,
        ...(before === undefined ? {} : { old: before }),
        ...(after === undefined ? {} : { new: after }),
        direction,
      },
    ];
  }
  if ((order === 'allow-list' || order === 'deny-list') && Array.isArray(before) && Array.isArray(after)) {
    const b = new Set(before.map((v) => canonicalJson(v)));
    const a = new Set(after.map((v) => canonicalJson(v)));
    const out: SettingChange[] = [];
    for (const v of after)
      if (!b.has(canonicalJson(v)))
        out.push({ path, kind: 'added', new: v, direction: order === 'allow-list' ? 'loosening' : 'tightening' });
    for (const v of before)
      if (!a.has(canonicalJson(v)))
        out.push({ path, kind: 'removed', old: v, direction: order === 'allow-list' ? 'tightening' : 'loosening' });
    return out;
  }
  if (canonicalJson(before) === canonicalJson(after)) return [];
  return [{ path, kind: 'changed', old: before, new: after, direction: valueDirection(path, before, after) }];
}

function ruleChanges(before: Readonly<PolicyDocument>, after: Readonly<PolicyDocument>): SettingChange[] {
  const out: SettingChange[] = [];
  const oldRules = new Map((before.rules ?? []).map((r) => [r.id, r]));
  const newRules = new Map((after.rules ?? []).map((r) => [r.id, r]));
  for (const [id, rule] of newRules) {
    const was = oldRules.get(id);
    // a custom rule can only tighten: adding one tightens, removing one loosens
    if (was === undefined) {
      out.push({ path: `rules.${id}`, kind: 'added', new: rule, direction: 'tightening' });
      continue;
    }
    for (const field of ['stage', 'effect', 'message', 'when'] as const) {
      if (canonicalJson(was[field]) === canonicalJson(rule[field])) continue;
      const direction: Direction =
        field === 'effect'
          ? loosenWhen(was.effect === 'deny' && rule.effect === 'partial')
          : field === 'message'
            ? 'neutral'
            : 'neutral';
      out.push({ path: `rules.${id}.${field}`, kind: 'changed', old: was[field], new: rule[field], direction });
    }
  }
  for (const [id, rule] of oldRules)
    if (!newRules.has(id)) out.push({ path: `rules.${id}`, kind: 'removed', old: rule, direction: 'loosening' });
  const oldOrder = (before.rules ?? []).map((r) => r.id).filter((id) => newRules.has(id));
  const newOrder = (after.rules ?? []).map((r) => r.id).filter((id) => oldRules.has(id));
  if (canonicalJson(oldOrder) !== canonicalJson(newOrder))
    out.push({ path: 'rules', kind: 'changed', old: oldOrder, new: newOrder, direction: 'neutral' });
  return out;
}

/**
 * The settings and rules that differ between two policy documents, by dotted path, each with the direction it moves
 * the policy; lists of schemes, origins, types, … compared as sets; rules matched by id. Sorted by path.
 */
export function structuralDiff(before: Readonly<PolicyDocument>, after: Readonly<PolicyDocument>): SettingChange[] {
  const { rules: _o, ...oldRest } = before;
  const { rules: _n, ...newRest } = after;
  const paths = [...new Set([...leafPaths(oldRest), ...leafPaths(newRest)])];
  const changes = paths.flatMap((path) => settingChanges(path, get(oldRest, path), get(newRest, path)));
  changes.push(...ruleChanges(before, after));
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
