import { canonicalJson } from '../policy/policy-digest.ts';

interface Operation {
  readonly op: string;
  readonly args: readonly unknown[];
}

function operation(node: unknown): Operation | undefined {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
  const keys = Object.keys(node);
  const op = keys[0];
  if (keys.length !== 1 || op === undefined) return undefined;
  const raw = (node as Record<string, unknown>)[op];
  return { op, args: Array.isArray(raw) ? raw : [raw] };
}

/** `{"var": "name"}` without a default: the fact name, else undefined. */
function factName(node: unknown): string | undefined {
  const o = operation(node);
  return o?.op === 'var' && o.args.length === 1 && typeof o.args[0] === 'string' ? o.args[0] : undefined;
}

const isScalar = (v: unknown): boolean => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** A condition that holds exactly when one fact takes one of some literal values (`==`, `===`, `in` a literal list). */
function valueSet(node: unknown): { fact: string; values: ReadonlySet<string> } | undefined {
  const o = operation(node);
  if (o === undefined) return undefined;
  if ((o.op === '==' || o.op === '===') && o.args.length === 2) {
    const [a, b] = o.args;
    const fact = factName(a) ?? factName(b);
    const literal = factName(a) === undefined ? a : b;
    if (fact !== undefined && isScalar(literal)) return { fact, values: new Set([canonicalJson(literal)]) };
  }
  if (o.op === 'in' && o.args.length === 2) {
    const [needle, list] = o.args;
    const fact = factName(needle);
    if (fact !== undefined && Array.isArray(list) && list.every(isScalar))
      return { fact, values: new Set(list.map((v) => canonicalJson(v))) };
  }
  return undefined;
}

/**
 * True when `b` being truthy makes `a` truthy for every input, by structure alone: equal expressions,
 * `and`/`or` decomposition and literal value sets of one fact. False means "not shown", never "disproved".
 */
export function implies(b: unknown, a: unknown): boolean {
  if (canonicalJson(b) === canonicalJson(a)) return true;
  const ob = operation(b);
  const oa = operation(a);
  if (ob?.op === 'and' && ob.args.some((x) => implies(x, a))) return true;
  if (ob?.op === 'or' && ob.args.length > 0 && ob.args.every((x) => implies(x, a))) return true;
  if (oa?.op === 'or' && oa.args.some((x) => implies(b, x))) return true;
  if (oa?.op === 'and' && oa.args.length > 0 && oa.args.every((x) => implies(b, x))) return true;
  const sb = valueSet(b);
  const sa = valueSet(a);
  return sb !== undefined && sa !== undefined && sb.fact === sa.fact && [...sb.values].every((v) => sa.values.has(v));
}
