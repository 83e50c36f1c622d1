import type { JsonPath, MessageEdit } from '../sdk/message-edits.ts';
import { type Brackets, stringEnd } from '../flow/json-scan.ts';

/** Where one JSON value sits in a text: `[start, end)` in UTF-16 code units. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** One member of an object in a text: its name (decoded) and where its value sits. */
interface Member extends Span {
  readonly key: string;
}

/** A change to a text: `[start, end)` becomes `text`. */
interface Splice extends Span {
  readonly text: string;
}

/**
 * `text` (one JSON text that JSON.parse accepted, with whatever surrounds it: spaces, the newline) with `edits`
 * made in place: only the values the edits name change, every other byte stays as written (numbers such as `1e400`
 * or 20-digit integers, spacing, member order, duplicate members). A member named twice resolves to the last, as
 * JSON.parse does. Work is linear in the text and needs no recursion, however deep it nests. Returns null when a
 * path does not lead where the edit needs (the caller fails the message instead of rewriting it another way).
 * `parsed`: `JSON.parse(text)` itself, when the caller has it: a `set` whose object has no member of that name (its
 * parsed value has no own one) adds it before the closing brace without searching the object's text for the name.
 */
export function spliceEdits(
  text: string,
  edits: readonly MessageEdit[],
  parsed?: unknown,
  brackets?: Brackets,
): string | null {
  const splices = editSplices(text, edits, parsed, brackets);
  if (splices === null) return null;
  const pieces: string[] = [];
  let last = 0;
  for (const s of splices) {
    pieces.push(text.slice(last, s.start), s.text);
    last = s.end;
  }
  pieces.push(text.slice(last));
  return pieces.join('');
}

/**
 * `spliceEdits` made on the line's bytes when its `text` is all ASCII (`bytes` as long as `text`, so an offset in
 * the text is one in the bytes): the bytes between the edits are copied as they came, with no string built and
 * encoded again. null when a path does not lead where an edit needs, or the line is not ASCII. `brackets`: the
 * text's containers when a scan of it already found them (else found here, once).
 */
export function spliceEditsInto(
  text: string,
  bytes: readonly Buffer[],
  size: number,
  edits: readonly MessageEdit[],
  parsed?: unknown,
  brackets?: Brackets,
): Buffer | null {
  if (size !== text.length) return null;
  const splices = editSplices(text, edits, parsed, brackets);
  if (splices === null) return null;
  // each text spliced in is encoded once (the links of one result share theirs, and mostly follow each other), and
  // copied in as bytes
  const encoded = new Map<string, Buffer>();
  let lastText = '';
  let lastBytes: Buffer = Buffer.alloc(0);
  const bytesOf = (spliced: string): Buffer => {
    if (spliced === lastText) return lastBytes;
    let made = encoded.get(spliced);
    if (made === undefined) {
      made = Buffer.from(spliced, 'utf8');
      encoded.set(spliced, made);
    }
    lastText = spliced;
    lastBytes = made;
    return made;
  };
  let length = size;
  for (const s of splices) length += bytesOf(s.text).length - (s.end - s.start);
  const whole = bytes.length === 1 ? (bytes[0] as Buffer) : Buffer.concat(bytes, size);
  // a plain view: its pieces are plain views too, far cheaper to make than a Buffer's
  const source = new Uint8Array(whole.buffer, whole.byteOffset, size);
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  let last = 0;
  for (const s of splices) {
    out.set(source.subarray(last, s.start), at);
    at += s.start - last;
    const spliced = bytesOf(s.text);
    out.set(spliced, at);
    at += spliced.length;
    last = s.end;
  }
  out.set(source.subarray(last, size), at);
  at += size - last;
  return at === length ? out : null;
}

// the splices `edits` make of `text`, in order and not overlapping; null when a path does not lead where an edit needs
function editSplices(
  text: string,
  edits: readonly MessageEdit[],
  parsed: unknown,
  brackets: Brackets | undefined,
): Splice[] | null {
  const index = new TextIndex(text, brackets);
  const splices: Splice[] = [];
  // the JSON of each value and name, once: the links of one result share their compact decision
  const written = new Map<unknown, string>();
  let lastValue: unknown;
  let lastJson: string | undefined;
  const json = (value: unknown): string => {
    if (lastJson !== undefined && value === lastValue) return lastJson;
    let made = written.get(value);
    if (made === undefined) {
      made = JSON.stringify(value);
      written.set(value, made);
    }
    lastValue = value;
    lastJson = made;
    return made;
  };
  // a member name's JSON, kept apart from the values' (a `set` asks for both: one last-asked slot for the two missed
  // every time and looked both up in the map)
  let lastKey: string | undefined;
  let lastKeyJson = '';
  const jsonKey = (key: string): string => {
    if (key !== lastKey) {
      lastKeyJson = JSON.stringify(key);
      lastKey = key;
    }
    return lastKeyJson;
  };
  // the text of each member added, made once for its value and name (not a new string per link): `"key":value`, and
  // after a comma
  const added = new Map<string, Map<string, readonly [string, string]>>();
  const member = (comma: boolean, key: string, value: string): string => {
    let byKey = added.get(value);
    if (byKey === undefined) {
      byKey = new Map();
      added.set(value, byKey);
    }
    let made = byKey.get(key);
    if (made === undefined) {
      made = [`${key}:${value}`, `,${key}:${value}`];
      byKey.set(key, made);
    }
    return made[comma ? 1 : 0];
  };
  // the edits of one message mostly share their parent (the links of one `content`): located once for all of them
  // (a `setAt`'s parent is its whole `path`, any other edit's all of its path but the last step)
  let parentPath: JsonPath | null = null;
  let parentSteps = 0;
  let parentAt: Span | null = null;
  // the parsed value of that parent (undefined: no parsed value, or none there)
  let parentValue: unknown;
  for (let e = 0; e < edits.length; e += 1) {
    const edit = edits[e] as MessageEdit;
    const { path } = edit;
    const setAt = edit.op === 'setAt';
    const step = setAt ? edit.index : path.at(-1);
    let at: Span | null;
    if (step === undefined) at = index.locate(path);
    else {
      const steps = setAt ? path.length : path.length - 1;
      if (parentPath === null || !samePrefix(parentPath, parentSteps, path, steps)) {
        parentPath = path;
        parentSteps = steps;
        parentAt = index.locate(setAt ? path : path.slice(0, -1));
        parentValue = valueAt(parsed, path, steps);
      }
      at = parentAt === null ? null : index.child(parentAt, step);
    }
    if (at === null) return null;
    if (edit.op === 'replace') {
      splices.push({ start: at.start, end: at.end, text: json(edit.value) });
    } else if (edit.op === 'keep') {
      const elements = index.elements(at.start);
      if (elements === null) return null;
      const kept: string[] = [];
      for (const i of edit.indices) {
        const element = elements[i];
        if (element === undefined) return null;
        kept.push(text.slice(element.start, element.end));
      }
      splices.push({ start: at.start, end: at.end, text: `[${kept.join(',')}]` });
    } else {
      const value = json(edit.value);
      const key = jsonKey(edit.key);
      const lacks = step === undefined ? lacksMember(parsed, path, edit.key) : lacksOwn(parentValue, step, edit.key);
      const added = lacks ? index.closingBrace(at) : index.addedMember(at, key);
      if (added !== undefined) {
        if (added === null) return null;
        const comma = text.charCodeAt(skipSpace(text, at.start + 1)) === 125 ? '' : ',';
        splices.push({ start: added, end: added, text: member(comma === ',', key, value) });
        continue;
      }
      const members = index.members(at.start);
      if (members === null) return null;
      const last = members.findLast((m) => m.key === edit.key);
      if (last !== undefined) splices.push({ start: last.start, end: last.end, text: value });
      else {
        // added as the last member, just before the closing brace
        const close = at.end - 1;
        splices.push({ start: close, end: close, text: member(members.length > 0, key, value) });
      }
    }
  }
  // the edits of a judged result come in the order of the text: sorted only when they do not
  if (!inOrder(splices)) splices.sort((a, b) => a.start - b.start || a.end - b.end);
  let last = 0;
  for (const s of splices) {
    if (s.start < last) return null;
    last = s.end;
  }
  return splices;
}

// whether the value at `path` in `parsed` (the parsed text, when given) is an object with no own member `key`: the
// object its text holds then has no member of that name, however written (JSON.parse makes every member an own one)
function lacksMember(parsed: unknown, path: JsonPath, key: string): boolean {
  return isObjectLacking(valueAt(parsed, path, path.length), key);
}

// whether member or element `step` of `parent` (a parsed value, or undefined) is an object with no own member `key`
function lacksOwn(parent: unknown, step: string | number, key: string): boolean {
  if (parent === null || typeof parent !== 'object') return false;
  if (Array.isArray(parent) ? typeof step !== 'number' : !Object.hasOwn(parent, step)) return false;
  return isObjectLacking((parent as Record<string | number, unknown>)[step], key);
}

function isObjectLacking(value: unknown, key: string): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !Object.hasOwn(value, key);
}

// the value the first `steps` steps of `path` lead to in `parsed`, by own members and array elements only; undefined
// when they lead nowhere
function valueAt(parsed: unknown, path: JsonPath, steps: number): unknown {
  let value = parsed;
  for (let i = 0; i < steps; i += 1) {
    if (value === null || typeof value !== 'object') return undefined;
    const step = path[i] as string | number;
    if (Array.isArray(value) ? typeof step !== 'number' : !Object.hasOwn(value, step)) return undefined;
    value = (value as Record<string | number, unknown>)[step];
  }
  return value;
}

// whether the first `aSteps` steps of `a` and the first `bSteps` of `b` name the same container
function samePrefix(a: JsonPath, aSteps: number, b: JsonPath, bSteps: number): boolean {
  if (aSteps !== bSteps) return false;
  if (a === b) return true;
  for (let i = 0; i < aSteps; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

function inOrder(splices: readonly Splice[]): boolean {
  for (let i = 1; i < splices.length; i += 1) {
    const a = splices[i - 1] as Splice;
    const b = splices[i] as Splice;
    if (a.start > b.start || (a.start === b.start && a.end > b.end)) return false;
  }
  return true;
}

/** The span of the value at `path` in `text` (a JSON text), or null; exported for tests. */
export function spanAt(text: string, path: JsonPath): Span | null {
  return new TextIndex(text).locate(path);
}

// what is known of a text's structure, found as it is asked for: where each container closes (one pass over the text,
// made on first need), and objects' members and arrays' elements by the offset where they open, each scanned once
class TextIndex {
  private readonly objects = new Map<number, Member[] | null>();
  private readonly arrays = new Map<number, Span[] | null>();
  private readonly found = new Map<string, number[]>();
  private readonly end = (i: number): number => valueEnd(this.text, i, this.closeOf);

  constructor(
    private readonly text: string,
    private brackets: Brackets | undefined = undefined,
  ) {}

  locate(path: JsonPath): Span | null {
    const start = skipSpace(this.text, 0);
    // the top value's end is needed only when the path is empty: each step finds its child's span
    let at: Span | null = { start, end: path.length === 0 ? this.end(start) : start };
    if (at.end === -1) return null;
    for (const step of path) {
      at = this.child(at, step);
      if (at === null) return null;
    }
    return at;
  }

  /** The span of member or element `step` of the container at `at`, or null. */
  child(at: Span, step: string | number): Span | null {
    const next =
      typeof step === 'number'
        ? this.elements(at.start)?.[step]
        : this.members(at.start)?.findLast((m) => m.key === step);
    return next ?? null;
  }

  // each scanned once, kept by the offset of its opening bracket (no closure made per lookup: one per link's edit)
  members(open: number): Member[] | null {
    if (this.text.charCodeAt(open) !== 123) return null;
    let members = this.objects.get(open);
    if (members === undefined) {
      members = scanMembers(this.text, open, this.end);
      this.objects.set(open, members);
    }
    return members;
  }

  elements(open: number): Span[] | null {
    if (this.text.charCodeAt(open) !== 91) return null;
    let elements = this.arrays.get(open);
    if (elements === undefined) {
      elements = scanElements(this.text, open, this.end);
      this.arrays.set(open, elements);
    }
    return elements;
  }

  /** The offset of the closing brace of the object at `at` (where a member is added last), or null: not an object. */
  closingBrace(at: Span): number | null {
    if (this.text.charCodeAt(at.start) !== 123) return null;
    const end = at.end > at.start ? at.end : this.end(at.start);
    return end === -1 ? null : end - 1;
  }

  /**
   * Where a member named `quotedKey` (its JSON text) is added to the object at `at` when it surely has none of that
   * name (no backslash in the object's text, so every name is written as it reads, and `quotedKey` nowhere in it):
   * just before its closing brace. null: not an object; undefined: it may have one (scan its members).
   */
  addedMember(at: Span, quotedKey: string): number | null | undefined {
    const close = this.closingBrace(at);
    if (close === null) return null;
    if (anyWithin(this.positions('\\'), at.start, close) || anyWithin(this.positions(quotedKey), at.start, close))
      return undefined;
    return close;
  }

  // where `part` occurs in the text, in order: found in one pass the first time it is asked for, so each of many
  // objects asks in O(log n) whether it holds it, instead of searching its own text
  private positions(part: string): number[] {
    let found = this.found.get(part);
    if (found === undefined) {
      found = [];
      for (let i = this.text.indexOf(part); i !== -1; i = this.text.indexOf(part, i + 1)) found.push(i);
      this.found.set(part, found);
    }
    return found;
  }

  // the offset after the container opening at `open`, or -1: every container's end is found in one pass, on first need
  private readonly closeOf = (open: number): number => {
    this.brackets ??= matchBrackets(this.text);
    const { opens, ends } = this.brackets;
    // opens are in increasing order: a binary search
    let lo = 0;
    let hi = opens.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((opens[mid] as number) < open) lo = mid + 1;
      else hi = mid;
    }
    return opens[lo] === open ? (ends[lo] as number) : -1;
  };
}

// whether one of `sorted` (increasing offsets) lies in `[start, end)`
function anyWithin(sorted: readonly number[], start: number, end: number): boolean {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < start) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && (sorted[lo] as number) < end;
}

/**
 * The end of every container of `text` by the offset where it opens, from one pass that skips strings (no recursion:
 * depth costs a stack entry, not a frame); an unbalanced container has none (-1). Exported for tests.
 */
export function matchBrackets(text: string): Brackets {
  const opens: number[] = [];
  const ends: number[] = [];
  // indices into `opens` of the containers open
  const open: number[] = [];
  for (let j = 0; j < text.length; ) {
    const c = text.charCodeAt(j);
    if (c === 34) {
      j = stringEnd(text, j);
      if (j === -1) break;
      continue;
    }
    if (c === 123 || c === 91) {
      open.push(opens.length);
      opens.push(j);
      ends.push(-1);
    } else if (c === 125 || c === 93) {
      const at = open.pop();
      if (at === undefined) break;
      ends[at] = j + 1;
    }
    j += 1;
  }
  return { opens, ends };
}

function scanMembers(text: string, open: number, valueEnd: (i: number) => number): Member[] | null {
  const out: Member[] = [];
  let i = skipSpace(text, open + 1);
  if (text.charCodeAt(i) === 125) return out;
  for (;;) {
    if (text.charCodeAt(i) !== 34) return null;
    const keyEnd = stringEnd(text, i);
    if (keyEnd === -1) return null;
    const raw = text.slice(i, keyEnd);
    // a name written with escapes is compared decoded, as JSON.parse reads it
    const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== 58) return null;
    const start = skipSpace(text, i + 1);
    const end = valueEnd(start);
    if (end === -1) return null;
    out.push({ key, start, end });
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === 125) return out;
    if (c !== 44) return null;
    i = skipSpace(text, i + 1);
  }
}

function scanElements(text: string, open: number, valueEnd: (i: number) => number): Span[] | null {
  const out: Span[] = [];
  let i = skipSpace(text, open + 1);
  if (text.charCodeAt(i) === 93) return out;
  for (;;) {
    const end = valueEnd(i);
    if (end === -1) return null;
    out.push({ start: i, end });
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === 93) return out;
    if (c !== 44) return null;
    i = skipSpace(text, i + 1);
  }
}

// the end of the value starting at `i` (no leading space), or -1; a container's from `closeOf`
function valueEnd(text: string, i: number, closeOf: (open: number) => number): number {
  const c = text.charCodeAt(i);
  if (c === 34) return stringEnd(text, i);
  if (c === 123 || c === 91) return closeOf(i);
  let j = i;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d === 44 || d === 125 || d === 93 || d === 32 || d === 9 || d === 10 || d === 13) break;
    j += 1;
  }
  return j === i ? -1 : j;
}

function skipSpace(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i;
    i += 1;
  }
}
