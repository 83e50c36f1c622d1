// The hook, the resident server, the CLI and doctor keep no state in a module: what an event keeps is held by its
// caller (the state, the context), so two events or two sessions in one process (the in-process hooks, the resident
// server) never share a value by accident. State is a module-level `let` or `var`, or a module-level container (a
// `Map`, `Set`, array or object, `const` or not) that code run later changes: `.set`, `.push`, `x[k] = …`, `delete`,
// `Object.assign(x, …)`, inside a function, in its own file or in one that imports it. Filling a table while the
// module loads is not state. The memo of refused forms' build key (`refused-forms.ts`) was one: it is now held by
// `SessionState`. A memo of something fixed for the process (linkgate's own version, read from its package) is named
// here with why it is safe. Read with the TypeScript compiler's parser.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', 'src');
const folders = ['hook', 'resident', 'cli', 'doctor'];
// module-level bindings that are safe, each with why
const allowed = new Map([
  // linkgate's own version, read once from its package.json: the same for every caller for the life of the process
  ['cli/package-version.ts', ['cached']],
]);

// the methods that change a Map, Set, WeakMap, WeakSet or array in place
const changing = new Set([
  'set',
  'add',
  'delete',
  'clear',
  'push',
  'pop',
  'shift',
  'unshift',
  'splice',
  'sort',
  'reverse',
  'fill',
  'copyWithin',
]);

const parse = (file: string) =>
  ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

/** The module-level bindings of `source`: each `let`/`var`, and each `const` whose value is a container. */
export function moduleBindings(source: ts.SourceFile): { name: string; kind: 'let' | 'container' }[] {
  const found: { name: string; kind: 'let' | 'container' }[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const isConst = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const d of statement.declarationList.declarations) {
      if (!ts.isIdentifier(d.name)) continue;
      if (!isConst) found.push({ name: d.name.text, kind: 'let' });
      else if (d.initializer !== undefined && isContainer(d.initializer))
        found.push({ name: d.name.text, kind: 'container' });
    }
  }
  return found;
}

function isContainer(node: ts.Expression): boolean {
  let e = node;
  while (ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isParenthesizedExpression(e)) e = e.expression;
  if (ts.isArrayLiteralExpression(e) || ts.isObjectLiteralExpression(e)) return true;
  return ts.isNewExpression(e) && ts.isIdentifier(e.expression) && /^(Weak)?(Map|Set)$|^Array$/.test(e.expression.text);
}

// the identifier a target expression starts from (`a.b[c].d` → `a`)
function rootName(node: ts.Expression): string | undefined {
  let e = node;
  while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e) || ts.isNonNullExpression(e))
    e = e.expression;
  return ts.isIdentifier(e) ? e.text : undefined;
}

const inFunction = (node: ts.Node): boolean => {
  for (let p = node.parent; p !== undefined; p = p.parent) if (ts.isFunctionLike(p)) return true;
  return false;
};

const assigning = new Set([
  ts.SyntaxKind.EqualsToken,
  ts.SyntaxKind.PlusEqualsToken,
  ts.SyntaxKind.MinusEqualsToken,
  ts.SyntaxKind.QuestionQuestionEqualsToken,
  ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken,
]);

/** The names `source` changes in place from inside a function (the containers it changes at run time). */
export function changedAtRunTime(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    let target: string | undefined;
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (ts.isPropertyAccessExpression(callee) && changing.has(callee.name.text)) target = rootName(callee.expression);
      // Object.assign(x, …), Reflect.set(x, …), Object.defineProperty(x, …)
      else if (
        ts.isPropertyAccessExpression(callee) &&
        ts.isIdentifier(callee.expression) &&
        /^(Object|Reflect)$/.test(callee.expression.text) &&
        /^(assign|set|defineProperty|deleteProperty|setPrototypeOf)$/.test(callee.name.text) &&
        node.arguments[0] !== undefined
      )
        target = rootName(node.arguments[0]);
    } else if (ts.isBinaryExpression(node) && assigning.has(node.operatorToken.kind)) {
      const left = node.left;
      if (ts.isPropertyAccessExpression(left) || ts.isElementAccessExpression(left)) target = rootName(left);
    } else if (ts.isDeleteExpression(node)) target = rootName(node.expression);
    else if (
      (ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
      (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken) &&
      (ts.isPropertyAccessExpression(node.operand) || ts.isElementAccessExpression(node.operand))
    )
      target = rootName(node.operand);
    if (target !== undefined && inFunction(node)) names.add(target);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

// what `source` imports by name from each file of src: local name → [file (relative to src), exported name]
function namedImports(source: ts.SourceFile, file: string): Map<string, [string, string]> {
  const found = new Map<string, [string, string]>();
  for (const s of source.statements) {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier)) continue;
    const bindings = s.importClause?.namedBindings;
    if (bindings === undefined || !ts.isNamedImports(bindings) || !s.moduleSpecifier.text.startsWith('.')) continue;
    const from = relative(root, resolve(dirname(file), s.moduleSpecifier.text));
    for (const e of bindings.elements) found.set(e.name.text, [from, (e.propertyName ?? e.name).text]);
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sourceFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

/** Every module-level state in the folders of `src` named, as `folder/file.ts: name`. */
function moduleState(): Record<string, string[]> {
  const all = sourceFiles(root).map((file) => ({ file, rel: relative(root, file), source: parse(file) }));
  // the containers of every file that some file (its own, or one importing it) changes at run time
  const changedElsewhere = new Set<string>();
  for (const { file, source } of all) {
    const imports = namedImports(source, file);
    for (const name of changedAtRunTime(source)) {
      const from = imports.get(name);
      if (from !== undefined) changedElsewhere.add(`${from[0]}:${from[1]}`);
    }
  }
  const found: Record<string, string[]> = {};
  for (const folder of folders) {
    found[folder] = [];
    for (const { rel, source } of all.filter(
      (f) => f.rel.startsWith(`${folder}/`) && !f.rel.slice(folder.length + 1).includes('/'),
    )) {
      const changed = changedAtRunTime(source);
      const safe = allowed.get(rel) ?? [];
      for (const { name, kind } of moduleBindings(source)) {
        if (safe.includes(name)) continue;
        const stateful =
          kind === 'let' || changed.has(name) || changedElsewhere.has(`${rel.replace(/\.ts$/, '.ts')}:${name}`);
        if (stateful) found[folder]?.push(`${rel}: ${name}`);
      }
    }
  }
  return found;
}

describe('module-level state', () => {
  const found = moduleState();
  it.each(folders)('src/%s keeps none but the named memos', (folder) => {
    expect(found[folder]).toEqual([]);
  });

  // the guard itself: each form of state it must see, and what is not state
  it('sees a container changed at run time, in its file or through an import, and no table filled at load', () => {
    const kinds = (text: string) => {
      const source = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
      const changed = changedAtRunTime(source);
      return moduleBindings(source)
        .filter((b) => b.kind === 'let' || changed.has(b.name))
        .map((b) => b.name);
    };
    expect(kinds('let a = 1; var b = 2;')).toEqual(['a', 'b']);
    expect(kinds('const m = new Map<string, number>(); export function f(k: string) { m.set(k, 1); }')).toEqual(['m']);
    expect(kinds('const s = new Set(); const g = () => s.add(1);')).toEqual(['s']);
    expect(kinds('const xs: number[] = []; function f() { xs.push(1); }')).toEqual(['xs']);
    expect(kinds('const o = {} as Record<string, number>; function f(k: string) { o[k] = 1; }')).toEqual(['o']);
    expect(kinds('const o = { n: 0 }; function f() { o.n++; }')).toEqual(['o']);
    expect(kinds('const o = { a: 1 }; function f() { delete o.a; }')).toEqual(['o']);
    expect(kinds('const o = {}; function f() { Object.assign(o, { a: 1 }); }')).toEqual(['o']);
    expect(kinds('const m = new WeakMap(); class C { f(k: object) { m.set(k, 1); } }')).toEqual(['m']);
    // filled while the module loads, or only read: a table, not state
    expect(kinds('const t = new Map(); t.set("a", 1); for (const k of ["b"]) t.set(k, 2);')).toEqual([]);
    expect(kinds('const t = { a: 1 } as const; export const f = () => t.a;')).toEqual([]);
    expect(
      kinds('const t = new Map(); export function f() { const u = new Map(); u.set(1, 2); return t.get(1); }'),
    ).toEqual([]);
  });
});
