// A small reader of PDF values (ISO 32000-2 §7.3) for the few objects read whole: the encryption dictionary and
// the trailer's `/ID`. Dictionaries, arrays, names (`#xx` decoded), numbers, literal strings (escapes, nested
// parentheses), hex strings, booleans, null and indirect references; bounded by the text it is given.
import { decodeName } from './pdf-names.ts';

/** A PDF value as read: strings as bytes, references as `{ ref: [number, generation] }`. */
export type PdfValue =
  | null
  | boolean
  | number
  | Buffer
  | { name: string }
  | { ref: [number, number] }
  | PdfValue[]
  | Map<string, PdfValue>;

const white = /[\0\t\n\f\r ]/;
const delimiter = /[()<>[\]{}/%]/;

/** Reads the value starting at `at` in latin1 text `s` (after white space and comments); null when it does not parse. */
export function readPdfValue(s: string, at: number): { value: PdfValue; end: number } | null {
  const reader = new ValueReader(s, at);
  const value = reader.value(0);
  return value === undefined ? null : { value, end: reader.at };
}

class ValueReader {
  constructor(
    readonly s: string,
    public at: number,
  ) {}

  value(depth: number): PdfValue | undefined {
    if (depth > 32) return undefined;
    this.skip();
    const s = this.s;
    const c = s[this.at];
    if (c === undefined) return undefined;
    if (s.startsWith('<<', this.at)) return this.dictionary(depth);
    if (c === '[') return this.array(depth);
    if (c === '(') return this.literal();
    if (c === '<') return this.hex();
    if (c === '/') return { name: decodeName(this.token(this.at + 1)) };
    const word = this.token(this.at);
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'null') return null;
    if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(word)) return undefined;
    const number = Number(word);
    // `N G R` is a reference; anything else leaves the reader just after the number
    const afterNumber = this.at;
    if (/^\d+$/.test(word)) {
      this.skip();
      const generation = this.token(this.at);
      this.skip();
      if (/^\d+$/.test(generation) && this.s[this.at] === 'R' && endsWord(this.s, this.at + 1)) {
        this.at++;
        return { ref: [number, Number(generation)] };
      }
    }
    this.at = afterNumber;
    return number;
  }

  private dictionary(depth: number): Map<string, PdfValue> | undefined {
    this.at += 2;
    const map = new Map<string, PdfValue>();
    for (;;) {
      this.skip();
      if (this.s.startsWith('>>', this.at)) {
        this.at += 2;
        return map;
      }
      if (this.s[this.at] !== '/') return undefined;
      const key = decodeName(this.token(this.at + 1));
      const value = this.value(depth + 1);
      if (value === undefined) return undefined;
      map.set(key, value);
    }
  }

  private array(depth: number): PdfValue[] | undefined {
    this.at++;
    const items: PdfValue[] = [];
    for (;;) {
      this.skip();
      if (this.s[this.at] === ']') {
        this.at++;
        return items;
      }
      const value = this.value(depth + 1);
      if (value === undefined) return undefined;
      items.push(value);
    }
  }

  private literal(): Buffer | undefined {
    const out: number[] = [];
    let nesting = 1;
    let i = this.at + 1;
    const s = this.s;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 0x5c) {
        const next = s[i + 1];
        i += 2;
        if (next === undefined) return undefined;
        const simple: Record<string, number> = { n: 10, r: 13, t: 9, b: 8, f: 12, '(': 40, ')': 41, '\\': 92 };
        if (next in simple) out.push(simple[next] ?? 0);
        else if (/[0-7]/.test(next)) {
          let octal = next;
          while (octal.length < 3 && /[0-7]/.test(s[i] ?? '')) octal += s[i++];
          out.push(Number.parseInt(octal, 8) & 0xff);
        } else if (next === '\r') {
          if (s[i] === '\n') i++;
        } else if (next !== '\n') out.push(next.charCodeAt(0));
        continue;
      }
      if (c === 0x28) nesting++;
      if (c === 0x29 && --nesting === 0) {
        this.at = i + 1;
        return Buffer.from(out);
      }
      out.push(c & 0xff);
      i++;
    }
    return undefined;
  }

  private hex(): Buffer | undefined {
    const end = this.s.indexOf('>', this.at);
    if (end === -1) return undefined;
    let digits = this.s.slice(this.at + 1, end).replace(/[\0\t\n\f\r ]/g, '');
    if (!/^[0-9a-fA-F]*$/.test(digits)) return undefined;
    if (digits.length % 2 === 1) digits += '0';
    this.at = end + 1;
    return Buffer.from(digits, 'hex');
  }

  private token(from: number): string {
    let i = from;
    while (!endsWord(this.s, i)) i++;
    this.at = i;
    return this.s.slice(from, i);
  }

  private skip(): void {
    const s = this.s;
    while (this.at < s.length) {
      const c = s[this.at] ?? '';
      if (white.test(c)) this.at++;
      else if (c === '%') {
        while (this.at < s.length && s[this.at] !== '\n' && s[this.at] !== '\r') this.at++;
      } else break;
    }
  }
}

function endsWord(s: string, at: number): boolean {
  const c = s[at];
  return c === undefined || white.test(c) || delimiter.test(c);
}

/** The entry `key` of a dictionary value, or undefined. */
export function entry(dict: PdfValue | undefined, key: string): PdfValue | undefined {
  return dict instanceof Map ? dict.get(key) : undefined;
}

/** The name a value holds, or null. */
export function nameOf(value: PdfValue | undefined): string | null {
  return value !== null && typeof value === 'object' && 'name' in value ? value.name : null;
}
