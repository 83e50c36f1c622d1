// Where a markdown link's destination may start, asked for each scheme mark of a text in increasing order: one pass
// over the bytes for all the marks (asked one by one, each rescanned its line from its start: quadratic on one long
// line of marks, 11 s for 500 000 `&#`).

/**
 * The link openings (`](`, `]:`) of one text, read once from its start as the marks asked about advance: whether a
 * `](` or `]:` stands before a mark on its line or the line before (a destination starts after at most one line
 * break); with `definition`, only a `]:` whose destination may start with the scheme that ends at the mark (every
 * byte between is one `mayStartScheme` admits). A mark before one already asked reads the text again from its start.
 */
export class LinkOpenings {
  readonly #bytes: Uint8Array;
  #scanned = 0;
  #lineStart = 0;
  #previousLineStart = 0;
  #lastOpening = -1;
  #lastBracket = -1;
  #lastBad = -1;

  /** The openings of `bytes` (a UTF-8 text). */
  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  /** Whether a link opening stands before `at` (a scheme's end) as the class comment says. */
  before(at: number, definition = false): boolean {
    if (at < this.#scanned) this.#reset();
    this.#scan(at);
    const from = this.#previousLineStart;
    if (!definition) return this.#lastOpening >= from;
    const i = this.#lastBracket;
    return i >= from && this.#bytes[i + 1] === 0x3a && this.#lastBad < i + 2;
  }

  #reset(): void {
    this.#scanned = 0;
    this.#lineStart = 0;
    this.#previousLineStart = 0;
    this.#lastOpening = -1;
    this.#lastBracket = -1;
    this.#lastBad = -1;
  }

  #scan(to: number): void {
    const bytes = this.#bytes;
    for (let i = this.#scanned; i < to; i++) {
      const b = bytes[i] ?? 0;
      if (b === 0x0a || b === 0x0d) {
        // `\r\n` is one break: its `\n` moves the line's start only
        if (!(b === 0x0a && i > 0 && bytes[i - 1] === 0x0d)) this.#previousLineStart = this.#lineStart;
        this.#lineStart = i + 1;
      } else if (b === 0x5d) {
        this.#lastBracket = i;
        const next = bytes[i + 1];
        if (next === 0x28 || next === 0x3a) this.#lastOpening = i;
      }
      if (!mayStandBeforeScheme(b)) this.#lastBad = i;
    }
    this.#scanned = Math.max(this.#scanned, to);
  }
}

// a byte that may stand before a scheme's end in a destination as some renderer and the url parser read it: white
// space, controls and a block quote's `>` (taken off or dropped), a `<` (an angle-bracket destination), a scheme's
// letters, digits, `+`, `-` and `.`, a character reference's `&`, `#` and `;`, a backslash (an escape), or any byte
// outside ASCII (Unicode spaces a renderer may trim)
function mayStandBeforeScheme(b: number): boolean {
  if (b <= 0x20 || b >= 0x7f) return true;
  if ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39)) return true;
  // + - . & # ; \ < >
  return (
    b === 0x2b ||
    b === 0x2d ||
    b === 0x2e ||
    b === 0x26 ||
    b === 0x23 ||
    b === 0x3b ||
    b === 0x5c ||
    b === 0x3c ||
    b === 0x3e
  );
}
