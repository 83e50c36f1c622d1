import { isMap, isPair, isScalar, isSeq, type LineCounter, type Node, type Pair, type ParsedNode } from 'yaml';

/** A 1-based line and column. */
export interface LineCol {
  line: number;
  col: number;
}

/** A path into a yaml document: mapping keys and sequence indexes, as zod reports them. */
export type YamlPath = readonly PropertyKey[];

/** Where a path leads: the value node, the key node of the last pair, and the deepest node that exists. */
export interface PathTarget {
  readonly node: Node | undefined;
  readonly key: Node | undefined;
  readonly deepest: Node | undefined;
}

/** The last pair of `map` whose scalar key reads as `segment` (the one `toJS` keeps when a key repeats). */
function findPair(items: readonly Pair<unknown, unknown>[], segment: PropertyKey): Pair<unknown, unknown> | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const pair = items[i];
    if (pair !== undefined && isScalar(pair.key) && String(pair.key.value) === String(segment)) return pair;
  }
  return undefined;
}

/** Follows `path` from `root` as far as the document goes. */
export function followPath(root: Node | null | undefined, path: YamlPath): PathTarget {
  let node: Node | undefined = root ?? undefined;
  let key: Node | undefined;
  let deepest = node;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = findPair(node.items, segment);
      if (pair === undefined) return { node: undefined, key: undefined, deepest };
      key = isPair(pair) && pair.key !== null && typeof pair.key === 'object' ? (pair.key as Node) : undefined;
      node = (pair.value ?? undefined) as Node | undefined;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment];
      if (item === undefined) return { node: undefined, key: undefined, deepest };
      key = undefined;
      node = (item ?? undefined) as Node | undefined;
    } else {
      return { node: undefined, key: undefined, deepest };
    }
    deepest = node ?? key ?? deepest;
  }
  return { node, key, deepest };
}

/** True for the empty scalar yaml makes for `key:` with nothing after it (zero-width range). */
export function isEmptyScalar(node: Node | undefined): boolean {
  return isScalar(node) && node.range !== undefined && node.range !== null && node.range[0] === node.range[1];
}

/** 1-based position of a source offset. */
export function positionOf(lineCounter: LineCounter, offset: number): LineCol {
  const { line, col } = lineCounter.linePos(offset);
  return { line, col };
}

/** 1-based position where `node` starts, or 1:1 when it has no range. */
export function nodePosition(lineCounter: LineCounter, node: Node | undefined): LineCol {
  const start = (node as ParsedNode | undefined)?.range?.[0];
  return start === undefined ? { line: 1, col: 1 } : positionOf(lineCounter, start);
}

/**
 * Locates a path: `value` is the node at the path (its key when the value is empty), `key` the key of
 * the last pair, `holder` the mapping that should hold a missing last key. Falls back to the deepest
 * node that exists, then 1:1.
 */
export function locatePath(
  root: Node | null | undefined,
  lineCounter: LineCounter,
  path: YamlPath,
  at: 'value' | 'key' | 'holder',
): LineCol {
  if (at === 'holder') {
    const holder = followPath(root, path.slice(0, -1));
    return nodePosition(lineCounter, pickValue(holder));
  }
  const target = followPath(root, path);
  if (at === 'key') return nodePosition(lineCounter, target.key ?? target.node ?? target.deepest);
  return nodePosition(lineCounter, pickValue(target));
}

function pickValue(target: PathTarget): Node | undefined {
  if (target.node !== undefined && !(isEmptyScalar(target.node) && target.key !== undefined)) return target.node;
  return target.key ?? target.deepest;
}

/** Longest user value quoted in a message, characters. */
export const maxQuotedChars = 40;

/** How a message names the value of `node`: its source text in backticks, or `a mapping`, `a list`, `nothing`. */
export function describeNode(text: string, node: Node | undefined): string {
  if (node === undefined || isEmptyScalar(node)) return 'nothing';
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  const range = (node as ParsedNode).range;
  const source = range === undefined ? String((node as { value?: unknown }).value) : text.slice(range[0], range[1]);
  const oneLine = source.replace(/\s+/g, ' ').trim();
  const shown = oneLine.length > maxQuotedChars ? `${oneLine.slice(0, maxQuotedChars - 1)}…` : oneLine;
  return `\`${shown.replaceAll('`', "'")}\``;
}
