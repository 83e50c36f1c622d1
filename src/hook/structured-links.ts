import { isRecord } from '../decision/json-value.ts';

/** A `resource_link` object found inside a tool result's `structuredContent`, and the path to it. */
export interface StructuredLink {
  path: readonly (string | number)[];
  link: Record<string, unknown>;
}

/** Most values walked in one `structuredContent`; a larger one is withheld whole. */
export const maxStructuredNodes = 100_000;
/** Deepest nesting walked in one `structuredContent`; a deeper one is withheld whole. */
export const maxStructuredDepth = 64;

/**
 * Every `resource_link` object inside `structuredContent` (a host such as Codex hands the model `structuredContent`
 * in place of `content[]`, so a link there is a link the model is given), in document order; null when the value is
 * larger or deeper than the caps, and then it cannot be judged in time.
 */
export function structuredLinks(value: unknown): StructuredLink[] | null {
  const found: StructuredLink[] = [];
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  let nodes = 0;
  while (stack.length > 0) {
    const next = stack.pop() as { value: unknown; path: (string | number)[] };
    if (++nodes > maxStructuredNodes || next.path.length > maxStructuredDepth) return null;
    const node = next.value;
    // every value waiting on the stack is one more walked: past the cap before any is pushed, so one array of
    // millions never allocates a stack entry each (the walk's cost is the cap's, not the array's)
    if (Array.isArray(node)) {
      if (nodes + stack.length + node.length > maxStructuredNodes) return null;
      for (let i = node.length - 1; i >= 0; i--) stack.push({ value: node[i], path: [...next.path, i] });
    } else if (isRecord(node)) {
      if (node['type'] === 'resource_link') {
        found.push({ path: next.path, link: node });
        continue;
      }
      const keys = Object.keys(node);
      if (nodes + stack.length + keys.length > maxStructuredNodes) return null;
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push({ value: node[key], path: [...next.path, key] });
      }
    }
  }
  return found;
}

/** `value` with the value at each path replaced (a copy; `value` is not changed); the root path replaces the whole. */
export function replacedAt(value: unknown, replacements: ReadonlyMap<readonly (string | number)[], unknown>): unknown {
  let copy = structuredClone(value);
  for (const [path, replacement] of replacements) {
    if (path.length === 0) {
      copy = replacement;
      continue;
    }
    let parent: unknown = copy;
    for (const key of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[key];
    (parent as Record<string | number, unknown>)[path.at(-1) as string | number] = replacement;
  }
  return copy;
}
