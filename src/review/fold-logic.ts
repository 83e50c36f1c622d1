import { compileLogic } from '../policy/compile-rule.ts';
import { operatorSpecs, pathSegments, truthy } from '../policy/json-logic-ops.ts';
import { freezeFacts, ruleFacts, type FactType, type RuleStage } from '../policy/rule-facts.ts';

/** A comparison of a fact with a literal of another type, located below `when` (keys and indexes). */
export interface TypeMismatch {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** What folding a rule's `when` found: its truthiness when it is the same for every input, and type mismatches. */
export interface FoldResult {
  /** true: fires for every input; false: never fires; undefined: depends on the facts */
  readonly truth: boolean | undefined;
  readonly mismatches: readonly TypeMismatch[];
}

type Abstract =
  | { readonly kind: 'const'; readonly value: unknown }
  | { readonly kind: 'fact'; readonly name: string; readonly type: FactType }
  | { readonly kind: 'dynamic'; readonly truth?: boolean };

type Path = readonly (string | number)[];

const dynamic: Abstract = { kind: 'dynamic' };
const comparisons = new Set(['==', '===', '!=', '!==', '<', '<=', '>', '>=']);
// operators whose result depends on the data even when every argument is a literal
const dataOperators = new Set(['var', 'missing', 'missing_some']);
const emptyFacts = freezeFacts({});

function truthOf(a: Abstract): boolean | undefined {
  if (a.kind === 'const') return truthy(a.value);
  if (a.kind === 'dynamic') return a.truth;
  return undefined;
}

function literalType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'object') return 'mapping';
  return typeof value;
}

const factTypeNames: Readonly<Record<FactType, string>> = {
  string: 'a string',
  'string?': 'a string or null',
  number: 'a number',
  'number?': 'a number or null',
  boolean: 'a boolean',
  'string[]': 'a list of strings',
};

/** Whether a literal of `literal` type can equal a value of fact type `type` without coercion. */
function compatible(type: FactType, literal: string): boolean {
  if (literal === 'null') return type.endsWith('?');
  if (type === 'string[]') return literal === 'list';
  return type.replace('?', '') === literal;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return `\`${text.length > 40 ? `${text.slice(0, 39)}…` : text}\``;
}

class Folder {
  readonly mismatches: TypeMismatch[] = [];
  constructor(private readonly stage: RuleStage) {}

  fold(node: unknown, path: Path, top: boolean): Abstract {
    if (Array.isArray(node)) {
      const items = node.map((item, i) => this.fold(item, [...path, i], top));
      if (items.every((i) => i.kind === 'const'))
        return { kind: 'const', value: items.map((i) => (i as { value: unknown }).value) };
      return { kind: 'dynamic', truth: node.length > 0 };
    }
    if (node === null || typeof node !== 'object') return { kind: 'const', value: node };
    const keys = Object.keys(node);
    const op = keys[0];
    if (keys.length !== 1 || op === undefined || !operatorSpecs.has(op)) return dynamic;
    const raw = (node as Record<string, unknown>)[op];
    const wrapped = !Array.isArray(raw);
    const args: readonly unknown[] = wrapped ? [raw] : (raw as unknown[]);
    const argPath = (i: number): Path => (wrapped ? [...path, op] : [...path, op, i]);

    if (op === 'var') return this.variable(args, top);
    if (dataOperators.has(op)) return dynamic;
    // `some`/`all`/`none`/`map`/`filter`/`reduce` read list items in their body: not the stage facts
    const scoped = op === 'some' || op === 'all' || op === 'none' || op === 'map' || op === 'filter' || op === 'reduce';
    const folded = args.map((arg, i) => this.fold(arg, argPath(i), top && (!scoped || i === 0 || i === 2)));
    if (folded.every((a) => a.kind === 'const')) {
      try {
        return { kind: 'const', value: compileLogic(node)(emptyFacts) };
      } catch {
        return dynamic;
      }
    }
    const truths = folded.map(truthOf);
    switch (op) {
      case 'and':
        if (truths.some((t) => t === false)) return { kind: 'dynamic', truth: false };
        return truths.every((t) => t === true) ? { kind: 'dynamic', truth: true } : dynamic;
      case 'or':
        if (truths.some((t) => t === true)) return { kind: 'dynamic', truth: true };
        return truths.every((t) => t === false) ? { kind: 'dynamic', truth: false } : dynamic;
      case '!':
        return truths[0] === undefined ? dynamic : { kind: 'dynamic', truth: !truths[0] };
      case '!!':
        return truths[0] === undefined ? dynamic : { kind: 'dynamic', truth: truths[0] };
      case 'if':
      case '?:':
        return ifTruth(truths);
      case 'in':
        return this.membership(folded, path, op);
      default:
        if (comparisons.has(op) && folded.length === 2) return this.comparison(op, folded, path);
        return dynamic;
    }
  }

  private variable(args: readonly unknown[], top: boolean): Abstract {
    if (!top || args.length > 1) return dynamic;
    const segments = pathSegments(args[0]);
    const [name] = segments;
    const facts: Readonly<Record<string, FactType>> = ruleFacts[this.stage];
    if (segments.length !== 1 || name === undefined || !Object.hasOwn(facts, name)) return dynamic;
    return { kind: 'fact', name, type: facts[name] as FactType };
  }

  private comparison(op: string, [a, b]: Abstract[], path: Path): Abstract {
    const fact = a?.kind === 'fact' ? a : b?.kind === 'fact' ? b : undefined;
    const literal = a?.kind === 'const' ? a : b?.kind === 'const' ? b : undefined;
    if (fact === undefined || literal === undefined || fact.kind !== 'fact' || literal.kind !== 'const') return dynamic;
    const type = literalType(literal.value);
    if (compatible(fact.type, type)) return dynamic;
    const message =
      type === 'null'
        ? `\`${op}\` compares fact \`${fact.name}\` with \`null\`, but it is never null`
        : `\`${op}\` compares fact \`${fact.name}\` (${factTypeNames[fact.type]}) with ${shown(literal.value)} (a ${type})`;
    this.mismatches.push({ path: [...path, op], message });
    // strict comparisons of different types have a fixed answer
    if (op === '===') return { kind: 'dynamic', truth: false };
    if (op === '!==') return { kind: 'dynamic', truth: true };
    return dynamic;
  }

  private membership([needle, haystack]: Abstract[], path: Path, op: string): Abstract {
    if (needle?.kind === 'fact' && haystack?.kind === 'const' && Array.isArray(haystack.value)) {
      if (haystack.value.length === 0) return { kind: 'dynamic', truth: false };
      const wrong = haystack.value.filter((v) => !compatible(needle.type, literalType(v)));
      if (wrong.length > 0) {
        this.mismatches.push({
          path: [...path, op],
          message: `\`in\` looks for fact \`${needle.name}\` (${factTypeNames[needle.type]}) in a list holding ${shown(wrong[0])} (a ${literalType(wrong[0])})`,
        });
      }
    }
    return dynamic;
  }
}

function ifTruth(truths: readonly (boolean | undefined)[]): Abstract {
  // the results a chain of `if cond then … else …` may yield, given the conditions known so far
  const outcomes: (boolean | undefined)[] = [];
  let i = 0;
  let decided = false;
  for (; i < truths.length - 1; i += 2) {
    const cond = truths[i];
    if (cond === false) continue;
    outcomes.push(truths[i + 1]);
    if (cond === true) {
      decided = true;
      break;
    }
  }
  if (!decided) outcomes.push(i === truths.length - 1 ? truths[i] : false);
  const [first] = outcomes;
  return first !== undefined && outcomes.every((o) => o === first) ? { kind: 'dynamic', truth: first } : dynamic;
}

/** Folds a validated rule condition over the facts of `stage`: constant truthiness and wrong-type comparisons. */
export function foldRule(when: unknown, stage: RuleStage): FoldResult {
  const folder = new Folder(stage);
  const result = folder.fold(when, [], true);
  return { truth: truthOf(result), mismatches: folder.mismatches };
}
