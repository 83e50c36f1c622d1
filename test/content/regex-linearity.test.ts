// Every regular expression in src/content runs on attacker text somewhere (bodies, attribute values, PDF
// dictionaries, destinations), so none may backtrack into superlinear time. The expressions are read from the
// sources themselves (every regular-expression literal the TypeScript parser finds), so a new one is tested the
// day it is written; a RegExp built at run time cannot be read this way and is refused.
//
// Each expression runs over every match (as `replace` with `g` would) on long runs of every Unicode space class
// (the runs `\s`, `trim` and the renderers' trimming act on), alone and between other characters, at 3 KB and at
// 30 KB in the same run: linear code takes about 10× as long on the longer input, quadratic code about 100×.
// Timings are compared with each other, never with a constant.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// src/content reads bodies; src/link reads the uris, names and hosts a server sends
const roots = ['content', 'link'].map((folder) => join(import.meta.dirname, '../../src', folder));
const srcRoot = join(import.meta.dirname, '../../src');

interface Found {
  where: string;
  regex: RegExp | null;
  text: string;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (path.endsWith('.ts')) yield path;
  }
}

function regexesIn(path: string): Found[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: Found[] = [];
  const visit = (node: ts.Node): void => {
    const where = `${path.slice(srcRoot.length + 1)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const text = node.getText();
      const slash = text.lastIndexOf('/');
      found.push({ where, regex: new RegExp(text.slice(1, slash), text.slice(slash + 1)), text });
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'RegExp'
    ) {
      found.push({ where, regex: null, text: node.getText() });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const found = roots.flatMap((root) => [...sourceFiles(root)]).flatMap(regexesIn);

// every character JavaScript's `\s` matches, and the ones a renderer or browser may trim besides (U+180E, once a
// space separator; the zero-width space, joiners and word joiner)
const spaceClasses = [
  ...[...Array(0x10000).keys()].map((c) => String.fromCharCode(c)).filter((c) => /\s/.test(c)),
  '\u180e',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
];

// a run of `length` characters cycling through the space classes in blocks, so every class forms runs of its own
function spaceRun(length: number): string {
  const block = Math.max(1, Math.floor(length / spaceClasses.length));
  let run = '';
  for (const c of spaceClasses) run += c.repeat(block);
  return run.padEnd(length, ' ');
}

// shapes around a run: alone, between letters (an end anchor retried from each position), after a quote, `<`, `=`
// and a PDF name (what the expressions start on)
const shapes: readonly ((run: string) => string)[] = [
  (run) => run,
  (run) => `x${run}x`,
  (run) => `'${run}"`,
  (run) => `<${run}=${run}>`,
  (run) => `/Length${run}1${run}/Type${run}x`,
];

function allMatches(regex: RegExp, input: string): number {
  const flags = regex.flags.includes('g') ? regex.flags.replace('y', '') : `${regex.flags.replace('y', '')}g`;
  let n = 0;
  for (const _ of input.matchAll(new RegExp(regex.source, flags))) n++;
  return n;
}

// time per run, ms: repeated until at least 1 ms has passed, the least of three such rounds (one round when a
// round takes long enough, 100 ms, to need no repeating: a quadratic expression on the longer input)
function timePerRun(regex: RegExp, input: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    let runs = 0;
    const start = performance.now();
    let elapsed: number;
    do {
      allMatches(regex, input);
      runs++;
      elapsed = performance.now() - start;
    } while (elapsed < 1);
    best = Math.min(best, elapsed / runs);
    if (elapsed >= 100) break;
  }
  return best;
}

describe('regular expressions in src/content and src/link stay linear on runs of unicode space', () => {
  it('finds the expressions (the source reading works)', () => {
    expect(found.length).toBeGreaterThan(20);
    expect(spaceClasses).toContain('\u3000');
    expect(spaceClasses).toContain('\ufeff');
  });

  it('builds none at run time (only literals can be checked)', () => {
    expect(found.filter((f) => f.regex === null).map((f) => `${f.where} ${f.text}`)).toEqual([]);
  });

  it('the check itself sees a quadratic expression (the destination trim it replaced)', () => {
    const quadratic = /^[\s\u180e\u200b-\u200d\u2060]+|[\s\u180e\u200b-\u200d\u2060]+$/g;
    expect(growth(quadratic, shapes[1] ?? ((r) => r))).toBeGreaterThan(40);
  });

  it.each(found.filter((f) => f.regex !== null).map((f) => [f.where, f.text, f.regex as RegExp] as const))(
    '%s %s',
    (_where, _text, regex) => {
      for (const shape of shapes) expect(leastGrowth(regex, shape)).toBeLessThan(30);
    },
  );
});

// Runs of one ASCII character that expressions quantify (brackets, tags, dashes, letters, digits, references,
// slashes, percent escapes, dots, quotes), each ended by a line feed and by a character no class takes: an
// expression anchored at the end, or one whose greedy run is retried from every start, is quadratic on them
const runCharacters = ['[', '<', '-', 'a', '0', '&', '/', '%', '.', '"', '#', '='];
const charShapes: readonly (readonly [string, (run: string) => string])[] = runCharacters.flatMap((c) => [
  [`${c}… then a line feed`, (run: string) => `${c.repeat(run.length)}\n`] as const,
  [`${c}… then U+FFFF`, (run: string) => `${c.repeat(run.length)}\uffff`] as const,
]);

describe('regular expressions in src/content and src/link stay linear on runs of one character', () => {
  it.each(found.filter((f) => f.regex !== null).map((f) => [f.where, f.text, f.regex as RegExp] as const))(
    '%s %s',
    (_where, _text, regex) => {
      for (const [name, shape] of charShapes) expect(leastGrowth(regex, shape), name).toBeLessThan(30);
    },
  );
});

// the least growth of up to five measurements: a linear expression measured while the machine was busy elsewhere
// can look superlinear once, a quadratic one (100× for 10× the input) never looks linear
function leastGrowth(regex: RegExp, shape: (run: string) => string): number {
  let least = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 5 && least >= 30; attempt++) least = Math.min(least, growth(regex, shape));
  return least;
}

// how many times longer one run takes on 30 KB than on 3 KB of the shaped input
function growth(regex: RegExp, shape: (run: string) => string): number {
  const small = shape(spaceRun(3_000));
  const large = shape(spaceRun(30_000));
  // the smaller input is timed again after the larger, so a slow start (compilation, a cold cache) counts once
  timePerRun(regex, small);
  const largeTime = timePerRun(regex, large);
  const smallTime = timePerRun(regex, small);
  return largeTime / smallTime;
}
