// `JSON.parse` is one step nothing can interrupt: a budget checked between steps, or a timer, cannot end it. Its cost
// is in the values it builds and the depth it nests, not the bytes (64 MiB of one string parses in a blink; 64 MiB of
// `{"k":1},` builds eight million objects; 32 million `[` nest that deep), so a text a caller would parse is scanned
// first, in one linear pass that builds nothing, and one past the caller's caps is withheld without being parsed.

/** What one pass over a JSON text found, without parsing it. */
export interface JsonShape {
  /** containers opened and members separated (`{`, `[`, `,` outside strings): never more than the values parse builds */
  readonly values: number;
  /** deepest nesting of containers */
  readonly depth: number;
  /** false once a character outside strings is none JSON has: the text is prose, whatever parse would say */
  readonly lexical: boolean;
}

const quote = 0x22;
const backslash = 0x5c;

// characters JSON allows outside strings: structure, white space, numbers and the letters of true, false and null
const jsonAlphabet = new Uint8Array(128);
for (const c of '{}[],: \t\n\r0123456789+-.eEtrufalsn') jsonAlphabet[c.charCodeAt(0)] = 1;

/**
 * Scans a JSON text fed in pieces (UTF-8 bytes, or UTF-16 code units: every character the scan looks at is ASCII, and
 * no byte of a multi-byte UTF-8 sequence is), counting values and depth as `JSON.parse` would meet them.
 */
export class JsonScan implements JsonShape {
  values = 0;
  depth = 0;
  lexical = true;
  #open = 0;
  #inString = false;
  #escaped = false;

  // once the text is prose the scan stops: parse would refuse it at that character, so what follows costs nothing

  /** Scans the next bytes of the text. */
  feed(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length && this.lexical; i++) this.#unit(bytes[i] as number);
  }

  /** Scans the next characters of the text. */
  feedText(text: string): void {
    for (let i = 0; i < text.length && this.lexical; i++) this.#unit(text.charCodeAt(i));
  }

  #unit(c: number): void {
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false;
      else if (c === backslash) this.#escaped = true;
      else if (c === quote) this.#inString = false;
      return;
    }
    if (c === quote) {
      this.#inString = true;
      return;
    }
    if (c === 0x7b || c === 0x5b) {
      this.values += 1;
      this.#open += 1;
      if (this.#open > this.depth) this.depth = this.#open;
    } else if (c === 0x7d || c === 0x5d) this.#open -= 1;
    else if (c === 0x2c) this.values += 1;
    else if (c >= 128 || jsonAlphabet[c] !== 1) this.lexical = false;
  }
}

/** The shape of one JSON text held as a string. */
export function jsonShape(text: string): JsonShape {
  const scan = new JsonScan();
  scan.feedText(text);
  return scan;
}

/**
 * Where every container of one JSON text ends, by where it opens: `opens` in increasing order, `ends[k]` the offset
 * after the bracket that closes `opens[k]` (-1: none, an unbalanced text). Made by one pass over the text
 * (`matchBrackets`), or by the pass that checks its member names (`member-names.ts`), so a line is not read twice.
 */
export interface Brackets {
  readonly opens: readonly number[];
  readonly ends: readonly number[];
}

/** The index after the closing quote of the JSON string opening at `i` in `text`, or -1. */
export function stringEnd(text: string, i: number): number {
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
