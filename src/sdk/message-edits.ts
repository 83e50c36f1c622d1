import { isRecord } from '../decision/json-value.ts';

/** A path into a JSON message from its top: member names and array indices. */
export type JsonPath = readonly (string | number)[];

/**
 * One change the gate makes to a message. `keep`: the array at `path` keeps only the elements at `indices`
 * (increasing). `set`: the object at `path` gets member `key` = `value` (the last member of that name is replaced,
 * else the member is added at the end). `setAt`: `set` of the object at element `index` of the array at `path` (the
 * links of one `content` share one `path`, not an array each). `replace`: the value at `path` becomes `value`. Edits
 * of one message never overlap: no path of one lies inside the value another replaces or filters.
 */
export type MessageEdit =
  | { readonly op: 'keep'; readonly path: JsonPath; readonly indices: readonly number[] }
  | { readonly op: 'set'; readonly path: JsonPath; readonly key: string; readonly value: unknown }
  | {
      readonly op: 'setAt';
      readonly path: JsonPath;
      readonly index: number;
      readonly key: string;
      readonly value: unknown;
    }
  | { readonly op: 'replace'; readonly path: JsonPath; readonly value: unknown };

/** A message the gate changed: the one it came as, and the edits. */
export interface EditedFrom {
  readonly from: object;
  readonly edits: readonly MessageEdit[];
}

// the member under which an edited message carries the message it was made from and the edits, so a front end that
// kept the original bytes (the proxy) writes those bytes with only the edited parts changed, instead of serializing
// the whole message again; a symbol (no JSON text has one) and not enumerable (never serialized, never spread)
const editedFrom = Symbol('linkgate.edited-from');

/**
 * `message` with `edits` applied, as a new object (only the objects and arrays on the edited paths are copied);
 * `editsOf` on the result gives the original and the edits. Throws TypeError when a path does not lead to the
 * container the edit needs (a caller bug: edits are made from the parsed message).
 */
export function editMessage(message: Readonly<Record<string, unknown>>, edits: readonly MessageEdit[]): object {
  let root: unknown = message;
  const copied = new Set<unknown>();
  const copy = (value: unknown): unknown => {
    if (copied.has(value)) return value;
    const made = Array.isArray(value) ? [...(value as unknown[])] : copyObject(value as object);
    copied.add(made);
    return made;
  };
  for (const edit of edits) {
    root = copy(root);
    const walk = edit.op === 'replace' ? edit.path.slice(0, -1) : edit.path;
    let parent = root as Record<string | number, unknown>;
    for (const step of walk) {
      const child = parent[step];
      if (child === null || typeof child !== 'object') throw new TypeError(`no container at \`${String(step)}\``);
      parent[step] = copy(child);
      parent = parent[step] as Record<string | number, unknown>;
    }
    if (edit.op === 'keep') {
      const list: unknown = parent;
      if (!Array.isArray(list)) throw new TypeError('`keep` needs an array');
      const elements = list as unknown[];
      const kept = edit.indices.map((i): unknown => elements[i]);
      elements.length = kept.length;
      kept.forEach((value, i) => {
        elements[i] = value;
      });
    } else if (edit.op === 'set') {
      if (!isRecord(parent)) throw new TypeError('`set` needs an object');
      parent[edit.key] = edit.value;
    } else if (edit.op === 'setAt') {
      const list: unknown = parent;
      if (!Array.isArray(list)) throw new TypeError('`setAt` needs an array');
      const child: unknown = (list as unknown[])[edit.index];
      if (!isRecord(child)) throw new TypeError('`setAt` needs an object');
      const made = copy(child) as Record<string, unknown>;
      (list as unknown[])[edit.index] = made;
      made[edit.key] = edit.value;
    } else {
      const last = edit.path.at(-1);
      if (last === undefined) throw new TypeError('`replace` needs a path');
      parent[last] = edit.value;
    }
  }
  const made = root as object;
  Object.defineProperty(made, editedFrom, { value: { from: message, edits } satisfies EditedFrom });
  return made;
}

// a copy of an object's own enumerable members, made member by member: V8 takes a slow path for every member added to
// a spread copy later (the `_meta` of 500 links costs ten times more), not for one built this way; a member named
// `__proto__` (JSON.parse makes it an own member) is defined as an own member again, never set as the prototype
function copyObject(source: object): Record<string, unknown> {
  const made: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const value: unknown = (source as Record<string, unknown>)[key];
    if (key === '__proto__')
      Object.defineProperty(made, key, { value, writable: true, enumerable: true, configurable: true });
    else made[key] = value;
  }
  return made;
}

/** The original and the edits of a message `editMessage` made, or undefined. */
export function editsOf(message: object): EditedFrom | undefined {
  return (message as { [editedFrom]?: EditedFrom })[editedFrom];
}
