import { knownNonCustomSchemes } from '../link/known-schemes.ts';

// A text that opens like JSON (`{` or `[` first) and that `JSON.parse` refuses (a trailing comma, a comment, a `NaN`,
// single quotes, a brace too many) is still read as data by a lenient reader: a model, a JSON5 or YAML reader, a
// JavaScript `eval`. What such a reader takes from it the gate judges too: a `resource_link` object it names (in any
// spelling a reader decodes: `resource\u005flink`, `resource\x5flink`) cannot be judged as the link it is, so the text
// is withheld; every uri in it (`scheme://…`, or any text in a scheme that is never custom, up to white space or a
// quote) is judged as a link, as a parsed JSON text's uri strings are. Found by what they are, not by where a quote
// puts them: a stray quote shifts how a tokenizer pairs quotes, never what a reader sees as an address.

/** How many times escapes are decoded when looking for a `resource_link` name or a uri (a JSON string in a string). */
export const almostJsonDecodings = 4;

/** What a lenient reader takes from a text that opens like JSON and does not parse. */
export interface AlmostJson {
  /** the text names `resource_link` (any case, escapes decoded up to `almostJsonDecodings` times) */
  readonly namesLink: boolean;
  /** every uri in the text, as written or with its escapes decoded, each once, in order */
  readonly uris: string[];
}

/** Whether a text opens like JSON: its first character that is not white space is `{` or `[`. */
export function opensLikeJson(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '{' || first === '[';
}

/**
 * Whether a text that opens like JSON goes on as data would (what a JSON5 or YAML flow reader, or a model reading it
 * as data, would take as a value): after its `{`, a quoted or bare member name and its `:`, a string or a comment;
 * after its `[`, a string, a comment, a container that goes on as data, or a first value and the `,` of a list. A log
 * line (`[2026-12-07 …]`, `[1/3] …`), a markdown link, reference or task (`[docs](…)`, `[1]: …`, `[ ] …`) or a
 * template (`{{#each}}`, `{name}`) is prose, as it was before.
 */
export function opensLikeData(text: string): boolean {
  return containerGoesOn(text, text.search(/\S/), 0);
}

// whether the `{` or `[` at `at` opens a container a data reader takes (containers nested 8 deep at the most)
function containerGoesOn(text: string, at: number, depth: number): boolean {
  const open = text[at];
  if (open !== '{' && open !== '[') return false;
  const rest = text.slice(at + 1, at + 1 + 256);
  const first = rest.search(/\S/);
  const c = rest[first];
  if (c === '"' || c === "'" || rest.startsWith('//', first) || rest.startsWith('/*', first)) return true;
  if (open === '{') return /^\s*(?:[A-Za-z_$\\\u0080-\uffff][\w$\\\u0080-\uffff]*)\s*:/.test(rest);
  if (c === '{' || c === '[') return depth < 8 && containerGoesOn(text, at + 1 + first, depth + 1);
  return /^\s*(?:[+-]?[\d.][\w.+-]*|true|false|null|NaN|[+-]?Infinity|undefined)\s*,/.test(rest);
}

const nothingTaken: AlmostJson = Object.freeze({ namesLink: false, uris: [] });

/**
 * What a lenient reader takes from `text` (one that opens like JSON and does not parse): linear in its length. Nothing
 * when it does not go on as data (`opensLikeData`): a markdown link or a placeholder in prose is read as prose.
 */
export function almostJson(text: string): AlmostJson {
  if (!opensLikeData(text)) return nothingTaken;
  let namesLink = false;
  const uris = new Set<string>();
  let read = text;
  // each decoding is no longer than the text before it, and there are at most `almostJsonDecodings` of them
  for (let pass = 0; pass <= almostJsonDecodings; pass++) {
    namesLink ||= linkName.test(read);
    for (const [uri, scheme, slashes] of read.matchAll(uriRun))
      if (slashes !== undefined || knownNonCustomSchemes.has((scheme as string).toLowerCase())) uris.add(uri);
    if (!read.includes('\\')) break;
    const decoded = decodedEscapes(read);
    if (decoded === read) break;
    read = decoded;
  }
  return { namesLink, uris: [...uris] };
}

const linkName = /resource_link/i;

// a scheme that starts where no scheme character stands before it (so each run of letters is tried once: linear),
// then `//` and at least one character, or any other text, up to white space, a quote or an angle bracket
const uriRun = /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]*):(?:(\/\/)[^\s"'`<>]+|[^\s"'`<>]+)/g;

const simple: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', 0: '\0' };

// the escapes a JSON, JSON5 or JavaScript reader decodes (`\uXXXX`, `\u{…}`, `\xXX`, a line continuation, a single
// character), each once; one that is not well formed stands for its letter, as JavaScript's sloppy readers take it
function decodedEscapes(text: string): string {
  return text.replace(
    /\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(\r\n|[\s\S]))/g,
    (_, braced?: string, four?: string, two?: string, other?: string) => {
      const hex = braced ?? four ?? two;
      if (hex !== undefined) {
        const code = Number.parseInt(hex, 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
      const c = other ?? '';
      if (c === '\n' || c === '\r' || c === '\r\n' || c === '\u2028' || c === '\u2029') return '';
      return simple[c] ?? c;
    },
  );
}
