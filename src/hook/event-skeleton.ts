/** Largest top-level member of an oversize event kept by `EventSkeleton`, bytes (the event's name, tool, input, ids). */
export const maxSkeletonMemberBytes = 64 * 1024;

const quote = 0x22;
const backslash = 0x5c;
const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/**
 * The small top-level members of a JSON object read as a byte stream too large to parse whole (a hook event over the
 * hook's size cap): each member whose value is at most `maxSkeletonMemberBytes` is kept, larger ones (the tool's
 * output) are skipped, so the hook can still answer the event in the host's fail-closed terms. Strings are tracked
 * byte by byte (escapes included), so text inside a skipped value can never be read as a member.
 */
export class EventSkeleton {
  readonly #members: Record<string, unknown> = {};
  #depth = 0;
  #inString = false;
  #escaped = false;
  #expectKey = false;
  #readingKey = false;
  #key: string | null = null;
  #capture: number[] | null = null;
  #literal = false;
  #overflow = false;
  #broken = false;

  /** Scans the next bytes of the event. */
  feed(chunk: Uint8Array): void {
    // where the next quote and backslash are in this chunk (found once each, so the skips below stay linear)
    let nextQuote = -1;
    let nextBackslash = -1;
    let i = 0;
    while (i < chunk.length) {
      if (this.#broken) return;
      if (this.#inString && !this.#escaped && (this.#capture === null || this.#overflow)) {
        // inside a string nothing kept, only a quote or a backslash changes the state: skip to the first of them
        if (nextQuote !== chunk.length && nextQuote < i) nextQuote = found(chunk.indexOf(quote, i), chunk.length);
        if (nextBackslash !== chunk.length && nextBackslash < i)
          nextBackslash = found(chunk.indexOf(backslash, i), chunk.length);
        i = Math.min(nextQuote, nextBackslash);
        if (i === chunk.length) return;
      }
      this.#byte(chunk[i] ?? 0);
      i++;
    }
  }

  /** The members kept so far (empty when the text did not open as a JSON object). */
  members(): Record<string, unknown> {
    return { ...this.#members };
  }

  #byte(b: number): void {
    if (this.#capture !== null) {
      if (this.#capture.length < maxSkeletonMemberBytes) this.#capture.push(b);
      else this.#overflow = true;
    }
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false;
      else if (b === backslash) this.#escaped = true;
      else if (b === quote) {
        this.#inString = false;
        if (this.#depth === 1 && this.#readingKey) this.#endKey();
        else if (this.#depth === 1 && this.#capture !== null) this.#endValue();
      }
      return;
    }
    if (this.#depth === 0) {
      if (b === 0x7b) {
        this.#depth = 1;
        this.#expectKey = true;
      } else if (!isSpace(b)) this.#broken = true;
      return;
    }
    if (this.#literal && (b === 0x2c || b === 0x7d || isSpace(b))) {
      // a number or literal ends at the byte after it, which is not part of it
      this.#capture?.pop();
      this.#endValue();
    }
    switch (b) {
      case quote:
        this.#inString = true;
        if (this.#depth === 1 && this.#expectKey) {
          this.#readingKey = true;
          this.#capture = [];
        } else if (this.#depth === 1 && this.#capture === null) this.#capture = [b];
        return;
      case 0x7b:
      case 0x5b:
        if (this.#depth === 1 && this.#capture === null) this.#capture = [b];
        this.#depth++;
        return;
      case 0x7d:
      case 0x5d:
        this.#depth--;
        if (this.#depth === 1 && this.#capture !== null) this.#endValue();
        if (this.#depth === 0) this.#broken = true; // the object closed: nothing after it is a member
        return;
      case 0x3a:
        if (this.#depth === 1) this.#expectKey = false;
        return;
      case 0x2c:
        if (this.#depth === 1) this.#expectKey = true;
        return;
      default:
        if (this.#depth === 1 && !this.#expectKey && this.#capture === null && !isSpace(b)) {
          this.#capture = [b];
          this.#literal = true;
        }
    }
  }

  #endKey(): void {
    const bytes = this.#capture ?? [];
    this.#readingKey = false;
    this.#capture = null;
    // the closing quote was captured; the opening one was not
    const key = this.#overflow ? null : parseJson(`"${Buffer.from(bytes.slice(0, -1)).toString('utf8')}"`);
    this.#key = typeof key === 'string' ? key : null;
    this.#overflow = false;
  }

  #endValue(): void {
    const bytes = this.#capture ?? [];
    const key = this.#key;
    if (!this.#overflow && typeof key === 'string') {
      const value = parseJson(Buffer.from(bytes).toString('utf8'));
      if (value !== undefined) this.#members[key] = value;
    }
    this.#capture = null;
    this.#literal = false;
    this.#overflow = false;
    this.#key = null;
  }
}

// an `indexOf` result, or `end` when there is none
const found = (index: number, end: number) => (index === -1 ? end : index);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
