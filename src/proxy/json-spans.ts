/** Where one JSON value sits in a text: `[start, end)` in UTF-16 code units. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** An edit of one element of an array found by `arrayAt`: a member added to an object element, or the element replaced. */
export type ElementEdit = { readonly addMember: string } | { readonly replace: string };

/**
 * The spans of the elements of the array at `path` (member names, from the top-level object) in `text`, which must be
 * valid JSON (JSON.parse accepted it). A member named twice resolves to the last, as JSON.parse does. Returns null
 * when a member is missing or not where expected, or when any key on the way is written with an escape (its name
 * cannot be compared without decoding it, so the caller rebuilds the message instead).
 */
export function arrayAt(text: string, path: readonly string[]): Span[] | null {
  const ends = containerEnds(text, path.length + 2);
  if (ends === null) return null;
  let at = skipSpace(text, 0);
  for (const name of path) {
    if (text.charCodeAt(at) !== 123) return null;
    const member = lastMember(text, ends, at, name);
    if (member === null) return null;
    at = member.start;
  }
  if (text.charCodeAt(at) !== 91) return null;
  return elements(text, ends, at);
}

/**
 * `text` with `edits` applied to the elements at `spans` (edits by element index, in increasing order). `addMember`
 * text goes in as the last member of an object element (`"name":value`, comma added as needed). Returns null when an
 * element to extend is not an object, or the edits are out of order.
 */
export function applyEdits(
  text: string,
  spans: readonly Span[],
  edits: ReadonlyMap<number, ElementEdit>,
): string | null {
  const pieces: string[] = [];
  let last = 0;
  let previous = -1;
  for (const [index, edit] of edits) {
    const span = spans[index];
    if (span === undefined || index <= previous) return null;
    previous = index;
    if ('replace' in edit) {
      pieces.push(text.slice(last, span.start), edit.replace);
      last = span.end;
      continue;
    }
    const close = span.end - 1;
    if (text.charCodeAt(span.start) !== 123 || text.charCodeAt(close) !== 125) return null;
    pieces.push(text.slice(last, close));
    if (text.charCodeAt(skipSpaceBack(text, close - 1)) !== 123) pieces.push(',');
    pieces.push(edit.addMember);
    last = close;
  }
  pieces.push(text.slice(last));
  return pieces.join('');
}

// the span of the value of the last member called `name` in the object opening at `open`
function lastMember(text: string, ends: Ends, open: number, name: string): Span | null {
  const wanted = JSON.stringify(name);
  let found: Span | null = null;
  let i = skipSpace(text, open + 1);
  if (text.charCodeAt(i) === 125) return null;
  for (;;) {
    if (text.charCodeAt(i) !== 34) return null;
    const keyEnd = stringEnd(text, i);
    if (keyEnd === -1) return null;
    const key = text.slice(i, keyEnd);
    if (key.includes('\\')) return null;
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== 58) return null;
    const start = skipSpace(text, i + 1);
    const end = valueEnd(text, ends, start);
    if (end === -1) return null;
    if (key === wanted) found = { start, end };
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === 125) return found;
    if (c !== 44) return null;
    i = skipSpace(text, i + 1);
  }
}

function elements(text: string, ends: Ends, open: number): Span[] | null {
  const out: Span[] = [];
  let i = skipSpace(text, open + 1);
  if (text.charCodeAt(i) === 93) return out;
  for (;;) {
    const end = valueEnd(text, ends, i);
    if (end === -1) return null;
    out.push({ start: i, end });
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === 93) return out;
    if (c !== 44) return null;
    i = skipSpace(text, i + 1);
  }
}

// where each object or array down to `depth` levels ends (the index after its closing bracket), by its start
type Ends = ReadonlyMap<number, number>;

// one pass over the text: strings are skipped whole, brackets matched on a stack; null when they do not match
function containerEnds(text: string, depth: number): Ends | null {
  const ends = new Map<number, number>();
  const open: number[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = stringEnd(text, i);
      if (i === -1) return null;
      continue;
    }
    if (c === 123 || c === 91) open.push(i);
    else if (c === 125 || c === 93) {
      const start = open.pop();
      if (start === undefined) return null;
      if (open.length < depth) ends.set(start, i + 1);
    }
    i += 1;
  }
  return open.length === 0 ? ends : null;
}

// the end of the value starting at `i` (no leading space), or -1
function valueEnd(text: string, ends: Ends, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 34) return stringEnd(text, i);
  if (c === 123 || c === 91) return ends.get(i) ?? -1;
  let j = i;
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d === 44 || d === 125 || d === 93 || d === 32 || d === 9 || d === 10 || d === 13) break;
    j += 1;
  }
  return j === i ? -1 : j;
}

// the index after the closing quote of the string opening at `i`, or -1
function stringEnd(text: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return -1;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === 92) slashes += 1;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

function skipSpace(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i;
    i += 1;
  }
}

function skipSpaceBack(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i;
    i -= 1;
  }
}
