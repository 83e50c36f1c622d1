import {
  isAlias,
  isMap,
  isScalar,
  LineCounter,
  parseAllDocuments,
  visit,
  type Document,
  type Node,
  type ParsedNode,
} from 'yaml';
import { isKnownMime } from '../content/kinds.ts';
import { neverAllowedSchemes } from '../link/known-schemes.ts';
import { GateError, type Diagnostic } from '../errors.ts';
import { checkRuleLogic } from './check-rule.ts';
import type { PolicyDiagnosticCode } from './policy-diagnostic-codes.ts';
import { policySchema } from './policy-schema.ts';
import { buildPolicy, type Policy } from './policy.ts';
import { ruleFacts, type RuleStage } from './rule-facts.ts';
import { describeSchemaIssue, type SchemaFinding } from './schema-issues.ts';
import { describeNode, followPath, locatePath, nodePosition, positionOf, type LineCol } from './yaml-locate.ts';

/** The outcome of checking a policy text: `policy` only when there is no error; diagnostics sorted by line, then column. */
export interface PolicyCheck {
  readonly policy?: Policy;
  readonly diagnostics: readonly Diagnostic[];
}

/** Largest policy text accepted, characters (UTF-16 code units); a policy is a page of settings, not data. */
export const maxPolicyChars = 1_048_576;

// yaml error codes about tags; every other yaml error (but duplicate keys) leaves the document too broken to validate
const tagErrorCodes = new Set(['TAG_RESOLVE_FAILED', 'MULTIPLE_TAGS', 'BAD_COLLECTION_TYPE']);

/** Checks policy YAML text without throwing: every yaml, schema, semantic and rule finding as a located diagnostic. */
export function checkPolicyText(text: string, file: string): PolicyCheck {
  const out = new Findings(file);
  if (text.length > maxPolicyChars) {
    out.add(
      { line: 1, col: 1 },
      'yaml.syntax',
      `the file has ${text.length} characters, more than the ${maxPolicyChars} a policy may have`,
    );
    return out.result();
  }
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter, uniqueKeys: true, merge: false, prettyErrors: false });
  const first = docs[0];
  if (first === undefined) {
    out.add({ line: 1, col: 1 }, 'yaml.not-a-mapping', 'expected a policy mapping, the file holds no yaml document');
    return out.result();
  }
  for (const extra of docs.slice(1)) {
    out.add(
      positionOf(lineCounter, extra.range[0]),
      'yaml.multiple-documents',
      'a policy file holds one yaml document; found another',
    );
  }
  let broken = false;
  for (const doc of docs) {
    for (const error of [...doc.errors, ...doc.warnings]) {
      const at = positionOf(lineCounter, error.pos[0]);
      if (error.code === 'DUPLICATE_KEY') {
        out.add(at, 'yaml.duplicate-key', `duplicate key ${keyTextAt(doc, error.pos[0], text)}`);
      } else if (tagErrorCodes.has(error.code)) {
        const tag = /tag:? (\S+)/i.exec(error.message)?.[1];
        out.add(at, 'yaml.tag', tag === undefined ? lowerFirst(error.message) : `unresolved tag \`${tag}\``);
      } else if (!broken) {
        // yaml recovers poorly from a syntax error: the errors after the first are mostly its echoes
        broken = true;
        out.add(at, 'yaml.syntax', lowerFirst(error.message));
      }
    }
  }
  checkYamlFeatures(first, text, lineCounter, out);
  if (broken) return out.result();
  const root = first.contents;
  if (!isMap(root)) {
    out.add(
      nodePosition(lineCounter, root ?? undefined),
      'yaml.not-a-mapping',
      `expected a policy mapping, got ${describeNode(text, root ?? undefined)}`,
    );
    return out.result();
  }

  const raw: unknown = first.toJS();
  const locate = (f: SchemaFinding): void =>
    out.add(locatePath(root, lineCounter, f.path, f.at), f.code, f.message, f.path);
  const parsed = policySchema.safeParse(raw);
  const view = {
    present: (path: readonly PropertyKey[]) => valueAt(raw, path) !== undefined,
    describe: (path: readonly PropertyKey[]) => describeNode(text, followPath(root, path).node),
  };
  const schemaPaths = new Set<string>();
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      for (const finding of describeSchemaIssue(issue, view)) {
        schemaPaths.add(pathKey(finding.path));
        locate(finding);
      }
    }
  }
  // semantic checks run on the raw value so that one pass reports everything; a path zod already flagged is not flagged twice
  for (const finding of semanticFindings(raw, view.describe)) {
    if (!schemaPaths.has(pathKey(finding.path))) locate(finding);
  }
  if (out.hasErrors() || !parsed.success) return out.result();
  try {
    return out.result(buildPolicy(parsed.data, file));
  } catch (error) {
    // checks above mirror compileRule; reaching here is a checker gap, still reported as a value
    out.add(
      { line: 1, col: 1 },
      'schema.invalid',
      error instanceof GateError ? error.message : 'the policy could not be built',
    );
    return out.result();
  }
}

/** Collects diagnostics of one file; sorts and de-duplicates them on the way out. */
class Findings {
  private readonly list: Diagnostic[] = [];
  constructor(private readonly file: string) {}

  add(at: LineCol, code: PolicyDiagnosticCode, message: string, path?: readonly PropertyKey[]): void {
    const dotted = path === undefined || path.length === 0 ? undefined : path.map(String).join('.');
    // the message names the field, so a reader of `file:line:col: …` alone knows which setting is wrong
    const text = dotted === undefined ? message : `\`${dotted}\`: ${message}`;
    const d: Diagnostic = { file: this.file, line: at.line, col: at.col, severity: 'error', code, message: text };
    if (dotted !== undefined) d.path = dotted;
    this.list.push(d);
  }

  hasErrors(): boolean {
    return this.list.some((d) => d.severity === 'error');
  }

  result(policy?: Policy): PolicyCheck {
    const seen = new Set<string>();
    const diagnostics = this.list
      .filter((d) => {
        const k = `${d.line}:${d.col}:${d.code}:${d.message}`;
        return seen.has(k) ? false : (seen.add(k), true);
      })
      .sort(
        (a, b) => a.line - b.line || a.col - b.col || compareText(a.code, b.code) || compareText(a.message, b.message),
      );
    return policy === undefined || diagnostics.some((d) => d.severity === 'error')
      ? { diagnostics }
      : { policy, diagnostics };
  }
}

/** Anchors, aliases and merge keys: a policy is read as written, every value where it applies. */
function checkYamlFeatures(doc: Document.Parsed, text: string, lineCounter: LineCounter, out: Findings): void {
  visit(doc, {
    Alias(_key, node) {
      out.add(
        nodePosition(lineCounter, node),
        'yaml.alias',
        `alias \`*${node.source}\` is not allowed; write the value out`,
      );
    },
    Node(_key, node) {
      if (isAlias(node) || node.anchor === undefined) return;
      // the node's range starts after its properties; point at the `&name` itself
      const start = (node as ParsedNode).range?.[0] ?? 0;
      const anchorAt = text.lastIndexOf(`&${node.anchor}`, start);
      out.add(
        positionOf(lineCounter, anchorAt >= 0 ? anchorAt : start),
        'yaml.anchor',
        `anchor \`&${node.anchor}\` is not allowed; write the value out`,
      );
    },
    Pair(_key, pair) {
      if (isScalar(pair.key) && pair.key.value === '<<') {
        out.add(
          nodePosition(lineCounter, pair.key),
          'yaml.merge-key',
          'merge key `<<` is not allowed; write the keys out',
        );
      }
    },
  });
}

/** The key text of the pair whose key starts at `offset`, for duplicate-key messages. */
function keyTextAt(doc: Document.Parsed, offset: number, text: string): string {
  let found: Node | undefined;
  visit(doc, {
    Pair(_key, pair) {
      const key = pair.key as ParsedNode | null;
      if (key !== null && typeof key === 'object' && key.range?.[0] === offset) {
        found = key;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return describeNode(text, found);
}

type Describe = (path: readonly PropertyKey[]) => string;

/** Checks zod cannot express: known mime types, review dates, unique rule ids, json-logic of each rule. */
function semanticFindings(raw: unknown, describe: Describe): SchemaFinding[] {
  const findings: SchemaFinding[] = [];
  const allow = valueAt(raw, ['content', 'allow']);
  if (Array.isArray(allow)) {
    allow.forEach((mime, i) => {
      if (typeof mime === 'string' && !isKnownMime(mime)) {
        findings.push({
          path: ['content', 'allow', i],
          at: 'value',
          code: 'policy.unknown-mime',
          message: `mime type \`${mime}\` is not in the kinds table`,
        });
      }
    });
  }
  const schemes = valueAt(raw, ['links', 'schemes']);
  if (Array.isArray(schemes)) {
    schemes.forEach((scheme, i) => {
      if (typeof scheme === 'string' && neverAllowedSchemes.has(scheme)) {
        findings.push({
          path: ['links', 'schemes', i],
          at: 'value',
          code: 'policy.never-allowed-scheme',
          message: `scheme \`${scheme}\` is never allowed: a \`${scheme}:\` link is inline content or script, there is nothing to read`,
        });
      }
    });
  }
  findings.push(...reviewFindings(valueAt(raw, ['review', 'date']), valueAt(raw, ['review', 'expires']), describe));
  const rules = valueAt(raw, ['rules']);
  if (Array.isArray(rules)) findings.push(...ruleFindings(rules));
  return findings;
}

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a `YYYY-MM-DD` string naming a real calendar day. */
function isCalendarDate(value: string): boolean {
  const m = isoDate.exec(value);
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function reviewFindings(date: unknown, expires: unknown, describe: Describe): SchemaFinding[] {
  const findings: SchemaFinding[] = [];
  const dates: [string, unknown][] = [
    ['date', date],
    ['expires', expires],
  ];
  for (const [name, value] of dates) {
    if (typeof value === 'string' && isoDate.test(value) && !isCalendarDate(value)) {
      const path = ['review', name];
      findings.push({
        path,
        at: 'value',
        code: 'schema.format',
        message: `expected a calendar date, got ${describe(path)}`,
      });
    }
  }
  if (
    typeof date === 'string' &&
    typeof expires === 'string' &&
    isCalendarDate(date) &&
    isCalendarDate(expires) &&
    expires < date
  ) {
    findings.push({
      path: ['review', 'expires'],
      at: 'value',
      code: 'policy.review-dates',
      message: `review expires \`${expires}\` before its date \`${date}\``,
    });
  }
  return findings;
}

function ruleFindings(rules: readonly unknown[]): SchemaFinding[] {
  const findings: SchemaFinding[] = [];
  const ids = new Set<string>();
  rules.forEach((rule, i) => {
    if (rule === null || typeof rule !== 'object') return;
    const { id, stage, when } = rule as { id?: unknown; stage?: unknown; when?: unknown };
    if (typeof id === 'string') {
      if (ids.has(id))
        findings.push({
          path: ['rules', i, 'id'],
          at: 'value',
          code: 'policy.duplicate-rule-id',
          message: `rule id \`${id}\` is already used by an earlier rule`,
        });
      ids.add(id);
    }
    if (typeof stage === 'string' && Object.hasOwn(ruleFacts, stage) && when !== undefined) {
      for (const issue of checkRuleLogic(when, stage as RuleStage)) {
        findings.push({
          path: ['rules', i, 'when', ...issue.path],
          at: issue.at,
          code: issue.code,
          message: issue.message,
        });
      }
    }
  });
  return findings;
}

/** The plain value at `path` of a parsed document; undefined when absent (own properties only). */
function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value = raw;
  for (const segment of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

function pathKey(path: readonly PropertyKey[]): string {
  return JSON.stringify(path.map(String));
}

/** Code-unit order: the same on every machine, unlike `localeCompare`. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function lowerFirst(message: string): string {
  const line = message.split('\n', 1)[0]?.trim().replace(/\.$/, '') ?? '';
  return `${line.charAt(0).toLowerCase()}${line.slice(1)}`;
}
