// The json-logic operator allow-list: arities for the load-time checker and the eager
// operations of json-logic-js 2.0.5, reproduced exactly (its loose `==`, `parseFloat` and
// `String` coercions included) so that compiled rules answer what `jsonLogic.apply` answers.

/** How an operator evaluates its arguments: `eager` ops see evaluated values; the others steer evaluation. */
export type OperatorKind = 'eager' | 'var' | 'missing' | 'missing_some' | 'if' | 'and' | 'or' | 'scoped' | 'reduce';

/** One allowed operator: its evaluation kind and argument count (inclusive bounds; `maxArgs` may be Infinity). */
export interface OperatorSpec {
  readonly kind: OperatorKind;
  readonly minArgs: number;
  readonly maxArgs: number;
}

/** An eager operation: receives its arguments already evaluated. */
export type EagerOperation = (...args: unknown[]) => unknown;

/** Prefix of linkgate's own operators; registered once here, never at run time. */
export const customOperatorPrefix = 'lg_';

/** json-logic truthiness (jsonlogic.com/truthy): like JavaScript, except that `[]` is falsy. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value) && value.length === 0) return false;
  return !!value;
}

// Casts below only quiet the type checker: the operators must coerce exactly as json-logic-js does.
type Loose = number;

const eager: Record<string, EagerOperation> = {
  '==': (a, b) => a == b,
  '===': (a, b) => a === b,
  '!=': (a, b) => a != b,
  '!==': (a, b) => a !== b,
  '>': (a, b) => (a as Loose) > (b as Loose),
  '>=': (a, b) => (a as Loose) >= (b as Loose),
  '<': (a, b, c) =>
    c === undefined ? (a as Loose) < (b as Loose) : (a as Loose) < (b as Loose) && (b as Loose) < (c as Loose),
  '<=': (a, b, c) =>
    c === undefined ? (a as Loose) <= (b as Loose) : (a as Loose) <= (b as Loose) && (b as Loose) <= (c as Loose),
  '!!': (a) => truthy(a),
  '!': (a) => !truthy(a),
  '%': (a, b) => (a as Loose) % (b as Loose),
  in: (a, b) => {
    if (!b || typeof (b as { indexOf?: unknown }).indexOf === 'undefined') return false;
    return (b as { indexOf(x: unknown): number }).indexOf(a) !== -1;
  },
  cat: (...args) => args.join(''),
  substr: (source, start, end) => {
    // a negative end counts from the end of the string (json-logic-js emulates PHP here)
    if ((end as Loose) < 0) {
      const temp = String(source).substr(start as Loose);
      return temp.substr(0, temp.length + (end as Loose));
    }
    return String(source).substr(start as Loose, end as Loose);
  },
  '+': (...args) => args.reduce<unknown>((a, b) => parseFloat(a as string) + parseFloat(b as string), 0),
  '*': (...args) => args.reduce((a, b) => parseFloat(a as string) * parseFloat(b as string)),
  '-': (a, b) => (b === undefined ? -(a as Loose) : (a as Loose) - (b as Loose)),
  '/': (a, b) => (a as Loose) / (b as Loose),
  min: (...args) => Math.min(...(args as Loose[])),
  max: (...args) => Math.max(...(args as Loose[])),
  merge: (...args) => args.reduce<unknown[]>((a, b) => a.concat(b), []),
};

/** The standard eager operators whose result is always a boolean, whatever their operands. */
export const booleanEagerOperators: ReadonlySet<string> = new Set([
  '==',
  '===',
  '!=',
  '!==',
  '>',
  '>=',
  '<',
  '<=',
  '!',
  '!!',
  'in',
]);

/** Lower-cases a host and drops one trailing dot, so `Example.COM.` and `example.com` compare equal. */
function hostForm(host: string): string {
  const lower = host.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/**
 * linkgate's operators (all take 2 arguments and return a boolean, false for non-strings):
 * - `lg_suffix(host, suffix)`: host equals suffix or ends with `.suffix` on a label boundary; case-insensitive, a leading `*.` or `.` on suffix is ignored
 * - `lg_startsWith(text, prefix)`, `lg_endsWith(text, suffix)`: exact, case-sensitive
 */
export const customOperations: Readonly<Record<string, EagerOperation>> = Object.freeze({
  lg_suffix: (host, suffix) => {
    if (typeof host !== 'string' || typeof suffix !== 'string') return false;
    const want = hostForm(
      suffix.startsWith('*.') ? suffix.slice(2) : suffix.startsWith('.') ? suffix.slice(1) : suffix,
    );
    if (want === '') return false;
    const have = hostForm(host);
    return (
      have === want || (have.length > want.length && have.endsWith(want) && have[have.length - want.length - 1] === '.')
    );
  },
  lg_startsWith: (text, prefix) => typeof text === 'string' && typeof prefix === 'string' && text.startsWith(prefix),
  lg_endsWith: (text, suffix) => typeof text === 'string' && typeof suffix === 'string' && text.endsWith(suffix),
});

const many = Number.POSITIVE_INFINITY;
const spec = (kind: OperatorKind, minArgs: number, maxArgs: number): OperatorSpec =>
  Object.freeze({ kind, minArgs, maxArgs });

/** Every operator a rule may use, by name; anything else is rejected when the policy loads. */
export const operatorSpecs: ReadonlyMap<string, OperatorSpec> = new Map<string, OperatorSpec>([
  ['var', spec('var', 1, 2)],
  ['missing', spec('missing', 1, many)],
  ['missing_some', spec('missing_some', 2, 2)],
  ['if', spec('if', 1, many)],
  ['?:', spec('if', 3, 3)],
  ['and', spec('and', 1, many)],
  ['or', spec('or', 1, many)],
  ['some', spec('scoped', 2, 2)],
  ['all', spec('scoped', 2, 2)],
  ['none', spec('scoped', 2, 2)],
  ['map', spec('scoped', 2, 2)],
  ['filter', spec('scoped', 2, 2)],
  ['reduce', spec('reduce', 2, 3)],
  ['==', spec('eager', 2, 2)],
  ['===', spec('eager', 2, 2)],
  ['!=', spec('eager', 2, 2)],
  ['!==', spec('eager', 2, 2)],
  ['!', spec('eager', 1, 1)],
  ['!!', spec('eager', 1, 1)],
  ['>', spec('eager', 2, 2)],
  ['>=', spec('eager', 2, 2)],
  ['<', spec('eager', 2, 3)],
  ['<=', spec('eager', 2, 3)],
  ['max', spec('eager', 1, many)],
  ['min', spec('eager', 1, many)],
  ['+', spec('eager', 1, many)],
  ['-', spec('eager', 1, 2)],
  ['*', spec('eager', 1, many)],
  ['/', spec('eager', 2, 2)],
  ['%', spec('eager', 2, 2)],
  ['in', spec('eager', 2, 2)],
  ['cat', spec('eager', 1, many)],
  ['substr', spec('eager', 2, 3)],
  ['merge', spec('eager', 1, many)],
  ...Object.keys(customOperations).map((name): [string, OperatorSpec] => [name, spec('eager', 2, 2)]),
]);

/** The eager operation named `op` (standard or `lg_`), or undefined when `op` is not eager. */
export function eagerOperation(op: string): EagerOperation | undefined {
  if (Object.hasOwn(eager, op)) return eager[op];
  if (Object.hasOwn(customOperations, op)) return customOperations[op];
  return undefined;
}

/** Path segments a rule may never name: they reach an object's prototype. */
export const forbiddenSegments: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Splits a `var` path as json-logic-js does: `""`/null mean the whole datum (no segments), otherwise `String(path).split('.')`. */
export function pathSegments(path: unknown): string[] {
  if (path === undefined || path === '' || path === null) return [];
  // json-logic-js stringifies whatever path it is given, objects included, and the compiled rules must agree
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  return String(path).split('.');
}
