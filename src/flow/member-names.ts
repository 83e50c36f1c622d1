import { type Brackets, stringEnd } from './json-scan.ts';

// A line the gate judged by `JSON.parse`'s reading is forwarded as its bytes, so every reader of those bytes must read
// what was judged. Two common readers do not: one that keeps the first of two members of the same name (JSON.parse
// keeps the last), and Go's `encoding/json`, which matches a struct's field names in any case (the last matching
// member wins: `URI` fills `uri`; `ſ` U+017F and `K` U+212A fold to `s` and `k`). A judged object that names a
// member twice, or names one the gate reads in another case, is therefore refused, never forwarded (issue 39).

/** Names the gate reads (of messages, results, items, links, resources, tasks, elicitations), as they are spelled. */
export const readNames: readonly string[] = [
  'jsonrpc',
  'id',
  'method',
  'params',
  'result',
  'error',
  'code',
  'message',
  'data',
  'content',
  'contents',
  'structuredContent',
  'isError',
  'resultType',
  'type',
  'uri',
  'name',
  'title',
  'description',
  'mimeType',
  'size',
  'text',
  'blob',
  'resource',
  'resources',
  '_meta',
  'messages',
  'role',
  'task',
  'taskId',
  'url',
  'mode',
  'elicitationId',
  'uriTemplate',
  'resourceTemplates',
  'nextCursor',
];

/** Why a text is ambiguous: an object names `name` twice, or names `name`, which a case-insensitive reader takes for `reads`. */
export type AmbiguousName = { kind: 'duplicate'; name: string } | { kind: 'case'; name: string; reads: string };

// a name's hash, its characters folded as Go folds them onto ASCII letters (A-Z, U+017F, U+212A)
function fold(c: number): number {
  if (c >= 65 && c <= 90) return c + 32;
  if (c === 0x17f) return 115;
  if (c === 0x212a) return 107;
  return c;
}

function hashOf(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i += 1) h = (Math.imul(h, 31) + fold(name.charCodeAt(i))) | 0;
  return h;
}

function folded(name: string): string {
  let out = '';
  for (let i = 0; i < name.length; i += 1) out += String.fromCharCode(fold(name.charCodeAt(i)));
  return out;
}

// what the gate reads by a name, by the hash of its folded spelling: the read names of that hash, and the protocol
// part that name opens (the members whose value the gate reads by name too: the message's parts, the items of a
// result). Names in another case are refused in those objects only; in data (`structuredContent`, `_meta`, a JSON
// text's value, arguments) the gate judges every string whatever its name, so there only a name given twice hides a
// value from it
interface ReadName {
  readonly reads: readonly string[];
  readonly part: string | undefined;
  /** whether every spelling of `reads` is its own folding: a name with no letter that folds cannot be another case */
  readonly lower: boolean;
}
const protocolParts = [
  'result',
  'params',
  'error',
  'content',
  'contents',
  'resource',
  'messages',
  'task',
  'resources',
  'resourceTemplates',
];
const readByHash = new Map<number, ReadName>();
for (const name of readNames) {
  const h = hashOf(name);
  const known = readByHash.get(h);
  const part = protocolParts.includes(name) ? name : undefined;
  const reads = [...(known?.reads ?? []), name];
  readByHash.set(h, { reads, part: known?.part ?? part, lower: reads.every((r) => folded(r) === r) });
}
const textHash = hashOf('text');

// past this many members, an object's names are looked up in a map, not compared one by one
const pairwiseMembers = 32;

/**
 * The first member name of `text` (one JSON text) that readers differ on, or null: an object naming a member twice
 * (after escapes are read), or naming one of `readNames` in another case. The JSON text of a `text` member (a text
 * item or resource that is one JSON object or array, which the gate judges as JSON) is searched the same way. One
 * pass, no recursion however deep it nests, nothing kept per member but its offsets and hash. `text` is taken as valid
 * JSON (`JSON.parse` accepted it); with `validate`, undefined when it is not one JSON object or array structurally.
 */
export function ambiguousName(text: string, validate = false): AmbiguousName | null | undefined {
  return new Scan(text, validate).run();
}

/**
 * The first member name one object of `text` (one JSON text `JSON.parse` accepted) names twice, after escapes are read,
 * or null: `JSON.parse` keeps the last of the two, a model reading the text reads both (the other readings of
 * `ambiguousName`, a read name in another case, are a wire reader's: a text the model reads may spell `Name`).
 */
export function duplicateName(text: string): AmbiguousName | null {
  return new Scan(text, false, false, false).run() ?? null;
}

/**
 * `ambiguousName` of one JSON text `JSON.parse` accepted, with where its containers open and close (`Brackets`, found
 * on the way: the splice of a judged answer does not read the line again) when no name is ambiguous.
 */
export function namesAndBrackets(text: string): {
  ambiguity: AmbiguousName | null | undefined;
  brackets: Brackets | undefined;
} {
  const scan = new Scan(text, false, true);
  const ambiguity = scan.run();
  return { ambiguity, brackets: ambiguity === null ? scan.brackets : undefined };
}

// A scan's working lists, handed to the next scan when one runs to its end (every container closed, so the lists that
// push and pop are empty again; the lists indexed by `top` are written before they are read): a line's scan runs in
// one call, so one spare set serves every scan after the first, and a line costs no growth of them (~1 KB a 1 KiB read).
// A scan that stops early (an ambiguous or invalid text), and one made while another holds the set, use lists of
// their own.
interface ScanLists {
  readonly hashes: number[];
  readonly starts: number[];
  readonly ends: number[];
  readonly decoded: (string | undefined)[];
  readonly frames: number[];
  readonly byName: boolean[];
  readonly big: (Map<number, number[]> | undefined)[];
  readonly openAt: number[];
}
let spareLists: ScanLists | null = null;

function scanLists(): ScanLists {
  const lists = spareLists;
  if (lists === null)
    return { hashes: [], starts: [], ends: [], decoded: [], frames: [], byName: [], big: [], openAt: [] };
  spareLists = null;
  return lists;
}

class Scan {
  // the names of the objects open, flat (the first `top`): hash, and offsets of the name's characters (decoded only
  // when escaped); written in place, never shortened (a shorter `length` costs more than the scan of a member)
  private top = 0;
  private readonly lists = scanLists();
  private readonly hashes = this.lists.hashes;
  private readonly starts = this.lists.starts;
  private readonly ends = this.lists.ends;
  private readonly decoded = this.lists.decoded;
  // each open container: 0 array, else an object whose names start at `base - 1`; and whether the gate reads its
  // members by name (the message and its parts, not data)
  private readonly frames = this.lists.frames;
  private readonly byName = this.lists.byName;
  // an object's names by hash, once it has more than `pairwiseMembers`, by the frame's depth
  private readonly big = this.lists.big;
  // JSON texts of `text` members, searched once this text is done
  private readonly inner: string[] = [];
  // with `bracketed`: where each container opens, in order, and the offset after its close (-1 while open); the
  // indices into those of the containers open
  private readonly opens: number[] = [];
  private readonly closes: number[] = [];
  private readonly openAt = this.lists.openAt;

  constructor(
    private readonly text: string,
    private readonly validate: boolean,
    private readonly bracketed = false,
    private readonly cases = true,
  ) {}

  get brackets(): Brackets {
    return { opens: this.opens, ends: this.closes };
  }

  private opened(i: number): void {
    if (!this.bracketed) return;
    this.openAt.push(this.opens.length);
    this.opens.push(i);
    this.closes.push(-1);
  }

  // the innermost container closed just before `i`
  private closed(i: number): void {
    if (this.bracketed) this.closes[this.openAt.pop() as number] = i;
  }

  run(): AmbiguousName | null | undefined {
    const found = this.walk();
    // every container closed: the lists are as a new scan needs them
    if (this.frames.length === 0 && this.byName.length === 0 && this.openAt.length === 0) spareLists = this.lists;
    return found;
  }

  private walk(): AmbiguousName | null | undefined {
    const { text } = this;
    const n = text.length;
    let i = skip(text, 0);
    if (this.validate) {
      const c = text.charCodeAt(i);
      if (c !== 123 && c !== 91) return undefined;
    }
    // 0: a value is next; 1: a value ended; 2: a member name is next
    let state = 0;
    let textValue = false;
    // whether the container opening next is one whose members the gate reads by name: the message itself (not a JSON
    // text: data), a protocol part of one, an element of a protocol list
    let partNext = !this.validate;
    for (;;) {
      if (state === 0) {
        const c = text.charCodeAt(i);
        if (c === 123) {
          this.frames.push(this.top + 1);
          this.byName.push(partNext);
          this.opened(i);
          i = i + 1;
          if (text.charCodeAt(i) <= 32) i = skip(text, i);
          if (text.charCodeAt(i) === 125) {
            this.close();
            i += 1;
            this.closed(i);
            state = 1;
          } else state = 2;
          textValue = false;
          continue;
        }
        if (c === 91) {
          this.frames.push(0);
          this.byName.push(partNext);
          this.opened(i);
          i = i + 1;
          if (text.charCodeAt(i) <= 32) i = skip(text, i);
          if (text.charCodeAt(i) === 93) {
            this.frames.pop();
            this.byName.pop();
            i += 1;
            this.closed(i);
            state = 1;
          }
          textValue = false;
          continue;
        }
        if (c === 34) {
          const end = stringEnd(text, i);
          if (end === -1) return undefined;
          if (textValue) this.noteJsonText(i, end);
          textValue = false;
          i = end;
          state = 1;
          continue;
        }
        let j = i;
        while (j < n && isLiteral(text.charCodeAt(j))) j += 1;
        if (j === i || (this.validate && !literal.test(text.slice(i, j)))) return undefined;
        i = j;
        state = 1;
        continue;
      }
      if (state === 1) {
        if (text.charCodeAt(i) <= 32) i = skip(text, i);
        const depth = this.frames.length;
        if (depth === 0) break;
        const c = text.charCodeAt(i);
        const frame = this.frames[depth - 1] as number;
        if (c === 44) {
          i = i + 1;
          if (text.charCodeAt(i) <= 32) i = skip(text, i);
          state = frame === 0 ? 0 : 2;
          // an element of a protocol list (`content`'s items) is a protocol part too
          partNext = frame === 0 && (this.byName[depth - 1] as boolean);
          continue;
        }
        if (c === (frame === 0 ? 93 : 125)) {
          if (frame === 0) {
            this.frames.pop();
            this.byName.pop();
          } else this.close();
          i += 1;
          this.closed(i);
          continue;
        }
        return undefined;
      }
      // a member name, then its colon
      if (text.charCodeAt(i) !== 34) return undefined;
      let h = 0;
      let escaped = false;
      // whether a character of the name folds (A-Z, or past ASCII: U+017F, U+212A)
      let cased = false;
      let j = i + 1;
      for (; j < n; j += 1) {
        const c = text.charCodeAt(j);
        if (c === 34) break;
        if (c === 92) {
          escaped = true;
          j += 1;
        } else if (c >= 65 && c <= 90) {
          cased = true;
          h = (Math.imul(h, 31) + c + 32) | 0;
        } else if (c < 128) h = (Math.imul(h, 31) + c) | 0;
        else {
          cased = true;
          h = (Math.imul(h, 31) + fold(c)) | 0;
        }
      }
      if (j >= n) return undefined;
      let decoded: string | undefined;
      if (escaped) {
        try {
          decoded = JSON.parse(text.slice(i, j + 1)) as string;
        } catch {
          return undefined;
        }
        h = hashOf(decoded);
      }
      // what the gate reads by this name, in an object whose members it reads by name
      const read = this.byName[this.byName.length - 1] === true ? readByHash.get(h) : undefined;
      // a name with no letter that folds, all of whose read spellings are lower case, is one of them or none
      const found = this.member(h, i + 1, j, decoded, cased || escaped || read?.lower === false ? read : undefined);
      if (found !== null) return found;
      const k = this.top - 1;
      textValue = h === textHash && this.spelled(k, 'text');
      const part = read?.part;
      partNext = part !== undefined && this.spelled(k, part);
      i = j + 1;
      if (text.charCodeAt(i) <= 32) i = skip(text, i);
      if (text.charCodeAt(i) !== 58) return undefined;
      i = i + 1;
      if (text.charCodeAt(i) <= 32) i = skip(text, i);
      state = 0;
    }
    if (this.validate && i !== n) return undefined;
    for (const json of this.inner) {
      const found = new Scan(json, true).run();
      if (found) return found;
    }
    return null;
  }

  private nameOf(k: number): string {
    return this.decoded[k] ?? this.text.slice(this.starts[k], this.ends[k]);
  }

  // notes the member name at `[start, end)` of the innermost object: what readers differ on, or null
  private member(
    h: number,
    start: number,
    end: number,
    decoded: string | undefined,
    read: ReadName | undefined,
  ): AmbiguousName | null {
    const base = (this.frames[this.frames.length - 1] as number) - 1;
    const k = this.top;
    this.top = k + 1;
    this.hashes[k] = h;
    this.starts[k] = start;
    this.ends[k] = end;
    // written only where a name was escaped, or over one that was: a slot past the end reads undefined as well (a
    // line with no escaped name grows no array for them)
    if (decoded !== undefined || k < this.decoded.length) this.decoded[k] = decoded;
    if (read !== undefined && this.cases)
      for (const spelling of read.reads) {
        // the gate's own spelling (the usual case) is compared in place, with no string made
        if (this.spelled(k, spelling)) continue;
        const name = this.nameOf(k);
        if (folded(name) === folded(spelling)) return { kind: 'case', name, reads: spelling };
      }
    const depth = this.frames.length;
    let byHash = k - base > pairwiseMembers ? this.big[depth] : undefined;
    if (byHash === undefined && k - base > pairwiseMembers) {
      byHash = new Map();
      for (let m = base; m < k; m += 1)
        byHash.set(this.hashes[m] as number, [...(byHash.get(this.hashes[m] as number) ?? []), m]);
      this.big[depth] = byHash;
    }
    if (byHash === undefined) {
      for (let m = base; m < k; m += 1)
        if (this.hashes[m] === h && this.same(m, k)) return { kind: 'duplicate', name: this.nameOf(k) };
      return null;
    }
    const same = byHash.get(h);
    if (same === undefined) byHash.set(h, [k]);
    else {
      for (const m of same) if (this.same(m, k)) return { kind: 'duplicate', name: this.nameOf(k) };
      same.push(k);
    }
    return null;
  }

  // whether name `k` is `spelled` exactly
  private spelled(k: number, spelled: string): boolean {
    const decoded = this.decoded[k];
    if (decoded !== undefined) return decoded === spelled;
    const start = this.starts[k] as number;
    if ((this.ends[k] as number) - start !== spelled.length) return false;
    for (let x = 0; x < spelled.length; x += 1)
      if (this.text.charCodeAt(start + x) !== spelled.charCodeAt(x)) return false;
    return true;
  }

  private same(a: number, b: number): boolean {
    const { text } = this;
    const da = this.decoded[a];
    const db = this.decoded[b];
    if (da !== undefined || db !== undefined) return this.nameOf(a) === this.nameOf(b);
    const sa = this.starts[a] as number;
    const sb = this.starts[b] as number;
    const length = (this.ends[a] as number) - sa;
    if ((this.ends[b] as number) - sb !== length) return false;
    for (let x = 0; x < length; x += 1) if (text.charCodeAt(sa + x) !== text.charCodeAt(sb + x)) return false;
    return true;
  }

  // the innermost object closes: its names are forgotten
  private close(): void {
    const depth = this.frames.length;
    const base = (this.frames.pop() as number) - 1;
    this.byName.pop();
    if (this.big[depth] !== undefined) this.big[depth] = undefined;
    this.top = base;
  }

  // the string value at `[start, end)` of a `text` member: kept when its text is one JSON object or array, as the
  // gate reads a text item (its first character past white space `{` or `[`)
  private noteJsonText(start: number, end: number): void {
    const first = this.text.charCodeAt(start + 1);
    // white space before it is written as itself or escaped
    if (first !== 123 && first !== 91 && first !== 32 && first !== 9 && first !== 92) return;
    let value: string;
    try {
      value = JSON.parse(this.text.slice(start, end)) as string;
    } catch {
      return;
    }
    const opens = value.trimStart()[0];
    if (opens === '{' || opens === '[') this.inner.push(value);
  }
}

// a number, true, false or null, as JSON writes them
const literal = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;

function isLiteral(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 45 || c === 43 || c === 46;
}

// past JSON white space from `from` (callers skip the call when the character there is past a space: most are)
function skip(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i;
    i += 1;
  }
}
