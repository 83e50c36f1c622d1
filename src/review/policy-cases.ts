import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import { reasonCodes } from '../decision/reason-codes.ts';
import { z } from 'zod';
import { formatDiagnostic, GateError, type Diagnostic } from '../errors.ts';
import { readNamedFile } from '../policy/read-named-file.ts';
import { describeSchemaIssue } from '../policy/schema-issues.ts';
import { describeNode, followPath, locatePath, nodePosition, positionOf } from '../policy/yaml-locate.ts';

/** Largest case file accepted, characters (UTF-16 code units); read cases carry base64 bodies. */
export const maxCasesChars = 8 * 1024 * 1024;
/** Most characters plus items that `$repeat` / `$items` may generate in one case file; caps need bodies past them. */
export const maxExpandedUnits = 64 * 1024 * 1024;

const knownCodes: ReadonlySet<string> = new Set(reasonCodes);
const effectSchema = z.enum(['allow', 'deny', 'partial']);
const reasonCodeSchema = z.string().refine((code) => knownCodes.has(code) || /^rule\.[a-z0-9][a-z0-9-]*$/.test(code), {
  message: 'expected a reason code (`uri.userinfo`, `rule.<id>`)',
});

/** What a case expects: the effect, reason codes that must all appear (a subset), and per-item effects. */
export const wantSchema = z.strictObject({
  effect: effectSchema,
  reasons: z.array(reasonCodeSchema).optional(),
  items: z
    .array(
      z.strictObject({
        index: z.number().int().min(0),
        effect: effectSchema,
        reasons: z.array(reasonCodeSchema).optional(),
      }),
    )
    .optional(),
});

/** One case: a note saying what it shows, an eval line (DESIGN §4) and what the decision must be. */
export const caseSchema = z.strictObject({
  note: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
  want: wantSchema,
});

/** A case file (`X.cases.yaml` beside `X.yaml`): optional fixed name resolution, then the cases. */
export const casesFileSchema = z.strictObject({
  /** host name → addresses for `links.resolveNames`; a name absent or mapped to `[]` does not resolve (as `eval --resolve-from`) */
  resolve: z.record(z.string(), z.array(z.string())).optional(),
  cases: z.array(caseSchema).min(1),
});

/** A case's expectation. */
export type CaseWant = z.infer<typeof wantSchema>;

/** One loaded case with where it is written (1-based line and column of its mapping). */
export interface PolicyCase {
  readonly note: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly want: CaseWant;
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

/** A loaded case file. */
export interface CasesFile {
  readonly file: string;
  /** lower-case host name → addresses, or null when the file has no `resolve` (names are judged by their text) */
  readonly resolve: ReadonlyMap<string, readonly string[]> | null;
  readonly cases: readonly PolicyCase[];
}

/** The outcome of checking a case file's text: `cases` only when there is no error; diagnostics sorted by position. */
export interface CasesCheck {
  readonly cases?: CasesFile;
  readonly diagnostics: readonly Diagnostic[];
}

/** Checks case-file YAML without throwing: yaml and schema findings located at `file:line:col`. */
export function checkCasesText(text: string, file: string): CasesCheck {
  const diagnostics: Diagnostic[] = [];
  const add = (at: { line: number; col: number }, code: string, message: string, path?: readonly PropertyKey[]) => {
    const d: Diagnostic = { file, line: at.line, col: at.col, severity: 'error', code, message };
    if (path !== undefined && path.length > 0) d.path = path.map(String).join('.');
    diagnostics.push(d);
  };
  const done = (cases?: CasesFile): CasesCheck => {
    diagnostics.sort((a, b) => a.line - b.line || a.col - b.col);
    return cases === undefined || diagnostics.length > 0 ? { diagnostics } : { cases, diagnostics };
  };
  if (text.length > maxCasesChars) {
    add(
      { line: 1, col: 1 },
      'yaml.syntax',
      `the file has ${text.length} characters, more than the ${maxCasesChars} a case file may have`,
    );
    return done();
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, merge: false, prettyErrors: false });
  for (const error of [...doc.errors, ...doc.warnings]) {
    const line = (error.message.split('\n', 1)[0] ?? '').replace(/\.$/, '');
    add(
      positionOf(lineCounter, error.pos[0]),
      error.code === 'DUPLICATE_KEY' ? 'yaml.duplicate-key' : 'yaml.syntax',
      `${line.charAt(0).toLowerCase()}${line.slice(1)}`,
    );
  }
  if (diagnostics.length > 0) return done();
  const root = doc.contents;
  if (!isMap(root)) {
    add(
      nodePosition(lineCounter, root ?? undefined),
      'yaml.not-a-mapping',
      `expected a mapping with \`cases\`, got ${describeNode(text, root ?? undefined)}`,
    );
    return done();
  }
  const raw: unknown = doc.toJS();
  const parsed = casesFileSchema.safeParse(raw);
  if (!parsed.success) {
    const view = {
      present: (path: readonly PropertyKey[]) => followPath(root, path).node !== undefined,
      describe: (path: readonly PropertyKey[]) => describeNode(text, followPath(root, path).node),
    };
    for (const issue of parsed.error.issues) {
      for (const f of describeSchemaIssue(issue, view))
        add(locatePath(root, lineCounter, f.path, f.at), f.code, f.message, f.path);
    }
    return done();
  }
  const list = followPath(root, ['cases']).node;
  const budget = { left: maxExpandedUnits };
  const cases = parsed.data.cases.map((c, i): PolicyCase => {
    const at = nodePosition(
      lineCounter,
      isSeq(list) ? ((list.items[i] ?? undefined) as Parameters<typeof nodePosition>[1]) : undefined,
    );
    const expanded = expandGenerators(c.input, ['cases', i, 'input'], budget);
    for (const problem of expanded.problems)
      add(locatePath(root, lineCounter, problem.path, 'value'), 'schema.invalid', problem.message, problem.path);
    return {
      note: c.note,
      input: expanded.value as Record<string, unknown>,
      want: c.want,
      file,
      line: at.line,
      col: at.col,
    };
  });
  if (diagnostics.length > 0) return done();
  const resolve =
    parsed.data.resolve === undefined
      ? null
      : new Map(
          Object.entries(parsed.data.resolve).map(
            ([name, addrs]) => [name.toLowerCase(), Object.freeze([...addrs])] as const,
          ),
        );
  return done({ file, resolve, cases });
}

interface Expanded {
  readonly value: unknown;
  readonly problems: { path: readonly PropertyKey[]; message: string }[];
}

/**
 * Replaces generators in a case input: `{$repeat: "a", times: N}` → the string repeated N times,
 * `{$items: VALUE, times: N}` → a list of N copies of VALUE. They let a case exceed a policy's byte and item
 * caps without carrying megabytes of YAML; all of a file's generators together stay under `maxExpandedUnits`.
 */
function expandGenerators(value: unknown, path: readonly PropertyKey[], budget: { left: number }): Expanded {
  const problems: Expanded['problems'] = [];
  // takes `units` (characters or items) from the file's budget before they are made; false, with a problem at `at`, when too few are left
  const spend = (units: number, at: readonly PropertyKey[]): boolean => {
    if (units > budget.left) {
      problems.push({
        path: at,
        message: `generators would make more than ${maxExpandedUnits} characters and items in this file`,
      });
      return false;
    }
    budget.left -= units;
    return true;
  };
  const walk = (v: unknown, at: readonly PropertyKey[]): unknown => {
    if (Array.isArray(v)) return v.map((item, i) => walk(item, [...at, i]));
    if (v === null || typeof v !== 'object') return v;
    const keys = Object.keys(v).sort();
    const record = v as Record<string, unknown>;
    const generator =
      keys.length === 2 && keys[1] === 'times' && (keys[0] === '$repeat' || keys[0] === '$items') ? keys[0] : undefined;
    if (generator === undefined)
      return Object.fromEntries(Object.entries(record).map(([k, x]) => [k, walk(x, [...at, k])]));
    const times = record['times'];
    if (typeof times !== 'number' || !Number.isSafeInteger(times) || times < 0) {
      problems.push({
        path: [...at, 'times'],
        message: `\`times\` must be a whole number ≥ 0, got \`${String(times)}\``,
      });
      return v;
    }
    const item = record[generator];
    if (generator === '$repeat') {
      if (typeof item !== 'string') {
        problems.push({ path: [...at, '$repeat'], message: '`$repeat` needs a string' });
        return v;
      }
      return spend(item.length * times, at) ? item.repeat(times) : v;
    }
    if (!spend(times, at)) return v;
    const copy = walk(item, [...at, '$items']);
    return Array.from({ length: times }, () => structuredClone(copy));
  };
  return { value: walk(value, path), problems };
}

/** Reads and checks a case file; throws GateError USAGE when unreadable, INPUT_INVALID with every located diagnostic when invalid. */
export async function loadCases(path: string, shownAs: string = path): Promise<CasesFile> {
  const text = (await readNamedFile('USAGE', 'case file', path, shownAs)).toString('utf8');
  const { cases, diagnostics } = checkCasesText(text, shownAs);
  if (cases === undefined) {
    const first = diagnostics[0];
    throw new GateError(
      'INPUT_INVALID',
      first === undefined ? `${shownAs}: the case file could not be loaded` : formatDiagnostic(first),
      { diagnostics },
    );
  }
  return cases;
}

/** True for a case file name (`X.cases.yaml`, `X.cases.yml`): a shell glob over `policies/*.yaml` matches them too. */
export function isCasesPath(path: string): boolean {
  return /\.cases\.ya?ml$/i.test(path);
}

/** The case file that sits beside a policy: `X.yaml` → `X.cases.yaml` (`X.yml` → `X.cases.yml`). */
export function casesPathFor(policyPath: string): string {
  const m = /\.(ya?ml)$/i.exec(policyPath);
  return m === null ? `${policyPath}.cases.yaml` : `${policyPath.slice(0, -m[0].length)}.cases.${m[1]}`;
}
