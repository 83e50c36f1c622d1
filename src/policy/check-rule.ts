import { forbiddenSegments, operatorSpecs, pathSegments } from './json-logic-ops.ts';
import type { PolicyDiagnosticCode } from './policy-diagnostic-codes.ts';
import { ruleFacts, type FactType, type RuleStage } from './rule-facts.ts';

/** A problem inside a rule's `when`, located by its path below `when` (object keys and array indexes). */
export interface LogicIssue {
  readonly path: readonly (string | number)[];
  /** `key` points at an operator key, `value` at the node itself */
  readonly at: 'key' | 'value';
  readonly code: PolicyDiagnosticCode;
  readonly message: string;
}

/** What a `var` may read in some scope: the stage facts, a list, a scalar, or something only known at run time. */
type Shape =
  | { readonly t: 'record'; readonly what: string; readonly fields: Readonly<Record<string, Shape>> }
  | { readonly t: 'list'; readonly what: string; readonly of: Shape }
  | { readonly t: 'scalar'; readonly what: string }
  | { readonly t: 'unknown' };

const unknownShape: Shape = { t: 'unknown' };
const indexPattern = /^(?:0|[1-9][0-9]*)$/;

function factShape(name: string, type: FactType): Shape {
  if (type === 'string[]')
    return { t: 'list', what: `fact \`${name}\``, of: { t: 'scalar', what: `an item of \`${name}\`` } };
  return { t: 'scalar', what: `fact \`${name}\`` };
}

function stageShape(stage: RuleStage): Shape {
  const fields: Record<string, Shape> = Object.create(null) as Record<string, Shape>;
  for (const [name, type] of Object.entries(ruleFacts[stage])) fields[name] = factShape(name, type);
  return { t: 'record', what: `stage \`${stage}\``, fields };
}

type Path = readonly (string | number)[];

class Checker {
  readonly issues: LogicIssue[] = [];

  private report(path: Path, at: LogicIssue['at'], code: PolicyDiagnosticCode, message: string): void {
    this.issues.push({ path, at, code, message });
  }

  /** Checks one node in a scope; returns the shape of its value when it can be known at load. */
  node(node: unknown, path: Path, scope: Shape): Shape {
    if (Array.isArray(node)) {
      node.forEach((item, i) => this.node(item, [...path, i], scope));
      return unknownShape;
    }
    if (node === null || typeof node === 'string' || typeof node === 'boolean') return unknownShape;
    if (typeof node === 'number') {
      // the digest hashes canonical json, where a non-finite number would read as `null`
      if (!Number.isFinite(node))
        this.report(path, 'value', 'logic.invalid-expression', `expected a finite number, got \`${node}\``);
      return unknownShape;
    }
    if (typeof node !== 'object') {
      this.report(path, 'value', 'logic.invalid-expression', `expected json, got a ${typeof node}`);
      return unknownShape;
    }
    const keys = Object.keys(node);
    const op = keys[0];
    if (keys.length !== 1 || op === undefined) {
      this.report(
        path,
        'value',
        'logic.invalid-expression',
        `expected an operation with exactly one key, got ${keys.length} keys`,
      );
      return unknownShape;
    }
    return this.operation(op, (node as Record<string, unknown>)[op], [...path, op], scope);
  }

  private operation(op: string, raw: unknown, opPath: Path, scope: Shape): Shape {
    const spec = operatorSpecs.get(op);
    if (spec === undefined) {
      this.report(opPath, 'key', 'logic.unknown-operator', `unknown operator \`${op}\``);
      return unknownShape;
    }
    // json-logic-js reads a lone non-list operand as a one-argument list ({"var": "x"})
    const wrapped = !Array.isArray(raw);
    const args: readonly unknown[] = wrapped ? [raw] : (raw as unknown[]);
    const argPath = (i: number): Path => (wrapped ? opPath : [...opPath, i]);
    if (args.length < spec.minArgs || args.length > spec.maxArgs) {
      const want =
        spec.minArgs === spec.maxArgs
          ? `${spec.minArgs}`
          : spec.maxArgs === Infinity
            ? `at least ${spec.minArgs}`
            : `${spec.minArgs} to ${spec.maxArgs}`;
      const plural =
        spec.maxArgs === 1 && spec.minArgs === 1 ? '' : spec.minArgs === 1 && spec.maxArgs === Infinity ? '' : 's';
      this.report(opPath, 'key', 'logic.arity', `\`${op}\` takes ${want} argument${plural}, got ${args.length}`);
      return unknownShape;
    }
    switch (spec.kind) {
      case 'var': {
        if (args.length > 1) this.node(args[1], argPath(1), scope);
        return this.path(args[0], argPath(0), scope, 'var');
      }
      case 'missing': {
        const first = args[0];
        if (Array.isArray(first)) {
          if (args.length > 1)
            this.report(opPath, 'key', 'logic.arity', '`missing` takes a list of names or names, not both');
          first.forEach((name, i) => this.path(name, [...argPath(0), i], scope, 'missing'));
        } else {
          args.forEach((name, i) => this.path(name, argPath(i), scope, 'missing'));
        }
        return unknownShape;
      }
      case 'missing_some': {
        this.node(args[0], argPath(0), scope);
        const names = args[1];
        if (!Array.isArray(names)) {
          this.report(argPath(1), 'value', 'logic.invalid-expression', '`missing_some` needs a literal list of names');
          return unknownShape;
        }
        names.forEach((name, i) => this.path(name, [...argPath(1), i], scope, 'missing_some'));
        return unknownShape;
      }
      case 'scoped': {
        const list = this.node(args[0], argPath(0), scope);
        this.node(args[1], argPath(1), list.t === 'list' ? list.of : unknownShape);
        return op === 'filter' ? list : unknownShape;
      }
      case 'reduce': {
        const list = this.node(args[0], argPath(0), scope);
        const fields: Record<string, Shape> = Object.create(null) as Record<string, Shape>;
        fields.current = list.t === 'list' ? list.of : unknownShape;
        fields.accumulator = unknownShape;
        this.node(args[1], argPath(1), { t: 'record', what: '`reduce`', fields });
        if (args.length > 2) this.node(args[2], argPath(2), scope);
        return unknownShape;
      }
      default:
        args.forEach((arg, i) => this.node(arg, argPath(i), scope));
        return unknownShape;
    }
  }

  /** Checks a literal path (`var`, `missing`) against the scope; returns the shape it reads. */
  private path(raw: unknown, path: Path, scope: Shape, op: string): Shape {
    const literal =
      typeof raw === 'string' || (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) || raw === null;
    if (!literal) {
      this.report(
        path,
        'value',
        'logic.invalid-expression',
        `\`${op}\` needs a literal path (a string or a whole number)`,
      );
      return unknownShape;
    }
    const segments = pathSegments(raw);
    const bad = segments.find((s) => forbiddenSegments.has(s));
    if (bad !== undefined) {
      this.report(path, 'value', 'logic.forbidden-path', `path \`${String(raw)}\` names \`${bad}\``);
      return unknownShape;
    }
    let shape = scope;
    if (segments.length === 0 && shape.t === 'record') {
      this.report(path, 'value', 'logic.unknown-fact', `\`${op}\` needs a fact name of ${shape.what}`);
      return unknownShape;
    }
    for (const segment of segments) {
      const next = this.step(shape, segment);
      if (typeof next === 'string') {
        this.report(path, 'value', 'logic.unknown-fact', next);
        return unknownShape;
      }
      shape = next;
    }
    return shape;
  }

  /** The shape one path segment leads to, or the message saying why it cannot be read. */
  private step(shape: Shape, segment: string): Shape | string {
    switch (shape.t) {
      case 'record':
        return Object.hasOwn(shape.fields, segment)
          ? (shape.fields[segment] ?? unknownShape)
          : `${shape.what} has no fact \`${segment}\``;
      case 'list':
        return indexPattern.test(segment)
          ? shape.of
          : `${shape.what} is a list: index it with a whole number, not \`${segment}\``;
      case 'scalar':
        return `${shape.what} is a single value and has no \`${segment}\``;
      case 'unknown':
        return indexPattern.test(segment)
          ? unknownShape
          : `only whole-number indexes can be read here, not \`${segment}\``;
    }
  }
}

/** Checks a rule's `when` against the allow-list, arities and the facts of `stage`; never throws, returns every issue. */
export function checkRuleLogic(when: unknown, stage: RuleStage): LogicIssue[] {
  const checker = new Checker();
  checker.node(when, [], stageShape(stage));
  return checker.issues;
}
