// The screen in front of parse5 for bytes a sniffing browser reads as a page though they are not text (an image's
// pixels and metadata). The sniffed screen (svg-html/markup-screen.ts) finds what such a page needs to spell to run
// anything; compressed pixels spell some of it by chance every few megabytes (` oNV=`, `&#207*`), and parse5 then
// read the whole image: 8 MiB charged 0.84 s, over the parser-time bound, so about one random 8 MiB image in fifteen
// was withheld as too complex (and one whose `onv=` stood inside a chance tag was denied). Each trigger is read here
// as a browser would act on it, and only one that may run sends the bytes to parse5:
// - an attribute before `=`: a handler only under a name a browser runs (browser-handlers.ts); `style`, `srcdoc`
//   and `attributeName` always;
// - a numeric character reference, `&colon;`, or a `:` after a scheme's last letter, a tab, a newline or a `;`: only
//   when the run of text it stands in, references decoded, tabs and newlines dropped, spells a script or `data:`
//   scheme and its colon (a url's scheme is letters; no named reference spells a letter, `&colon;`, `&Tab;` and
//   `&NewLine;` are decoded), as parse5 and the url parser read it: `java⏎script:`, `java&Tab;script:`,
//   `javascript&colon;` and `&#106;⏎avascript:` run in Chromium as `javascript:` does;
// - a tag that runs script or a plugin: always.
// Every trigger the browser could act on stays one, wherever the tokenizer stands (a comment, raw text or an
// attribute value hides a trigger, never makes one), so nothing parse5 would report is skipped.
import { runsAsHandler } from './browser-handlers.ts';
import { sniffedTriggerAt } from './svg-html/markup-screen.ts';
import { pairSites } from './text/byte-sites.ts';
import { WorkBudget } from './work-budget.ts';

// attributes whose value is a document, css or a handler's name, whatever the element
const namedAttributes: ReadonlySet<string> = new Set(['style', 'srcdoc', 'attributename']);
// a scheme that runs script or a document, and its colon, in decoded lower-case text
const activeScheme = /(?:javascript|vbscript|livescript|data):/;
const shortestScheme = 'data:'.length;

/** True when the bytes, read as a page by a sniffing browser, hold a trigger a browser may act on (see above); false when parse5 would find nothing active in them. Linear: each byte is read at most twice beyond the sites. */
export function mayRunAsSniffedPage(bytes: Uint8Array, budget: WorkBudget = WorkBudget.unlimited()): boolean {
  const sites = pairSites(bytes);
  // the end of the last run of text decoded for a reference: every reference in it was answered with it
  let decodedTo = -1;
  for (let i = 0; i < sites.length; i++) {
    const at = sites[i] as number;
    if (!sniffedTriggerAt(bytes, at)) continue;
    const next = bytes[at + 1];
    if (next === 0x3d) {
      if (attributeMayRun(bytes, at + 1)) return true;
    } else if (bytes[at] === 0x26 || next === 0x3a) {
      // `&#`, `&colon` or a scheme's `:`: both bytes of the pair are in the run
      if (at < decodedTo) continue;
      let start = at;
      while (start > 0 && inSchemeRun(bytes[start - 1] ?? 0)) start--;
      let end = at + 2;
      while (end < bytes.length && inSchemeRun(bytes[end] ?? 0)) end++;
      budget.spend('polyglot', end - start);
      decodedTo = end;
      // decoding never lengthens a run (a reference is one character or none, every other byte one or none), and the
      // shortest scheme and colon is `data:`: a shorter run spells none, and no string is made of it (about one `:`
      // in a thousand of random bytes stands after a scheme's last byte, and most of their runs are two or three long)
      if (end - start >= shortestScheme && activeScheme.test(decodeRun(bytes, start, end))) return true;
    } else {
      return true;
    }
  }
  return false;
}

// the attribute named by the letters before the `=` at `equals` (white space between) runs or loads something
function attributeMayRun(bytes: Uint8Array, equals: number): boolean {
  let end = equals;
  while (end > 0 && isHtmlSpace(bytes[end - 1] ?? 0)) end--;
  let start = end;
  while (start > 0 && isLetter(bytes[start - 1] ?? 0)) start--;
  // longer than every listed name and every named attribute: a handler by its length alone when it is `on…`
  if (end - start > 64) return ((bytes[start] ?? 0) | 0x20) === 0x6f && ((bytes[start + 1] ?? 0) | 0x20) === 0x6e;
  let name = '';
  for (let k = start; k < end; k++) name += String.fromCharCode((bytes[k] ?? 0) | 0x20);
  return namedAttributes.has(name) || runsAsHandler(name);
}

// bytes a scheme spelled with character references is made of: letters and digits, `&#;` and `x`, the colon, and the
// tab and newlines the url parser drops
function inSchemeRun(b: number): boolean {
  return (
    isLetter(b) ||
    (b >= 0x30 && b <= 0x39) ||
    b === 0x26 ||
    b === 0x23 ||
    b === 0x3b ||
    b === 0x3a ||
    b === 0x09 ||
    b === 0x0a ||
    b === 0x0d
  );
}

// The run as the url parser gets it, lower-case: numeric references decoded as the HTML tokenizer decodes them
// (digits to the first other character, `;` optional; anything past ASCII is one non-letter), `&colon;`, `&tab;` and
// `&newline;` decoded (with or without `;`, ASCII case-insensitive: a margin), any other `&` kept as it is, tabs and
// newlines dropped
function decodeRun(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  let i = start;
  while (i < end) {
    const b = bytes[i] ?? 0;
    if (b === 0x26 && bytes[i + 1] === 0x23) {
      const hex = ((bytes[i + 2] ?? 0) | 0x20) === 0x78;
      let k = i + (hex ? 3 : 2);
      let value = 0;
      const from = k;
      for (; k < end; k++) {
        const digit = digitValue(bytes[k] ?? 0, hex);
        if (digit === -1) break;
        value = Math.min(value * (hex ? 16 : 10) + digit, 0x110000);
      }
      if (k > from) {
        if (value > 0 && value < 0x80 && value !== 0x09 && value !== 0x0a && value !== 0x0d)
          out += String.fromCharCode(value).toLowerCase();
        else if (value >= 0x80 || value === 0) out += '\ufffd';
        i = k < end && bytes[k] === 0x3b ? k + 1 : k;
        continue;
      }
    } else if (b === 0x26) {
      const named = namedReferenceAt(bytes, i + 1, end);
      if (named !== null) {
        out += named.text;
        i = named.next;
        continue;
      }
    }
    if (b !== 0x09 && b !== 0x0a && b !== 0x0d) out += String.fromCharCode(b).toLowerCase();
    i++;
  }
  return out;
}

const namedReferences: readonly [string, string][] = [
  ['colon', ':'],
  ['tab', ''],
  ['newline', ''],
];

// `&colon;`, `&tab;` or `&newline;` after the `&` (the `;` optional), as the text it adds and where reading goes on
function namedReferenceAt(bytes: Uint8Array, at: number, end: number): { text: string; next: number } | null {
  for (const [name, text] of namedReferences) {
    if (at + name.length > end) continue;
    let k = 0;
    while (k < name.length && ((bytes[at + k] ?? 0) | 0x20) === name.charCodeAt(k)) k++;
    if (k < name.length) continue;
    const after = at + name.length;
    return { text, next: after < end && bytes[after] === 0x3b ? after + 1 : after };
  }
  return null;
}

function digitValue(b: number, hex: boolean): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (!hex) return -1;
  const lower = b | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

function isHtmlSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d;
}

function isLetter(b: number): boolean {
  return (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a);
}
