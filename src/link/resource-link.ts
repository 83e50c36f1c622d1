import { isPlainRecord, isRecord } from '../decision/json-value.ts';

/**
 * A `resource_link` content item (the MCP spec's `ResourceLink`), read-only. The gate judges `uri`, `name`, the
 * declared `mimeType` and `size`; `annotations` and `_meta` are kept as the server sent them and never read.
 */
export interface ResourceLink {
  readonly type: 'resource_link';
  readonly uri: string;
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly mimeType?: string | undefined;
  /** declared size in bytes, as the server claims it */
  readonly size?: number | undefined;
  /** not checked: the gate never reads it */
  readonly annotations?: unknown;
  /** not checked: the gate never reads it */
  readonly _meta?: unknown;
}

/** A link item checked: the typed link (the value itself, not a copy), or the first member that is malformed. */
export type CheckedLink = { ok: true; link: ResourceLink } | { ok: false; field: string; message: string };

/**
 * Checks an item a server sent (plain JSON data: own data members, plain prototype) as a `ResourceLink`; unknown
 * members are allowed and kept. `field` names the offending member (`uri`, `size`, or `(item)` for the item itself).
 */
export function checkResourceLink(value: unknown): CheckedLink {
  const problem = linkProblem(value);
  return problem === undefined ? { ok: true, link: value as ResourceLink } : { ok: false, ...problem };
}

/** `checkResourceLink(value).ok`, with no result built (the per-link input check of the gate). */
export function isResourceLink(value: unknown): value is ResourceLink {
  return linkProblem(value) === undefined;
}

// the first malformed member of an item, or undefined when it is a well-formed link
function linkProblem(value: unknown): { field: string; message: string } | undefined {
  if (!isPlainRecord(value)) return malformed('(item)', 'expected a json object');
  if (value['type'] !== 'resource_link') return malformed('type', 'expected `resource_link`');
  if (typeof value['uri'] !== 'string') return malformed('uri', 'expected a string');
  if (typeof value['name'] !== 'string') return malformed('name', 'expected a string');
  // for…in also sees inherited enumerable members; `__proto__` as a member would set a copy's prototype
  for (const key in value) {
    // compared as the interned names they are (no set lookup per member of every link)
    if (key === 'title' || key === 'description' || key === 'mimeType') {
      if (typeof value[key] !== 'string') return malformed(key, 'expected a string');
    } else if (key === 'size') {
      const size = value[key];
      if (typeof size !== 'number' || !Number.isFinite(size)) return malformed(key, 'expected a finite number');
    } else if (key === '__proto__') return malformed(key, 'unexpected member');
  }
  return undefined;
}

/** The link's uri, or '' for an item whose uri is not a string (what a record keeps of a malformed link). */
export function uriOf(item: unknown): string {
  const uri = isRecord(item) ? item['uri'] : undefined;
  return typeof uri === 'string' ? uri : '';
}

function malformed(field: string, message: string): { field: string; message: string } {
  return { field, message };
}
