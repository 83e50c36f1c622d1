// Characters that are unsafe to show raw: terminals act on them (CVE-2021-25743-style escape injection,
// OSC 52 clipboard writes, OSC 8 hyperlinks), and NULs truncate C consumers.

// DEL (U+007F) is inert: terminals and renderers ignore it
const anyUnsafe = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u0080-\u009F]/;

/** One-line descriptions of unsafe characters in text: NUL, ESC/CSI/OSC sequences, C1 and other control characters except TAB, LF and CR, Unicode TAG characters outside an emoji flag; empty when clean. */
export function findUnsafeText(text: string): string[] {
  const tags = findTagCharacters(text);
  if (!anyUnsafe.test(text)) return tags === null ? [] : [tags];
  const found = unsafeControls(text);
  if (tags !== null) found.push(tags);
  return found;
}

// Unicode TAG characters (U+E0000–U+E007F) are invisible to a reader but spell ASCII to a language model
// ("ASCII smuggling" of hidden instructions); their one legitimate use is an emoji subdivision flag: U+1F3F4,
// then one tag run spelling a subdivision id (CLDR: a two-letter region and a suffix of one to three lower-case
// letters or digits) ended by CANCEL TAG (🏴 + `gbsct` + cancel). Any other run, a longer one, or a second run
// after the same flag spells words a model reads (🏴 + `ignore` + cancel …)
const tagCharacter = /[\u{E0000}-\u{E007F}]/u;
const tagRun = /[\u{E0000}-\u{E007F}]+/gu;
const emojiFlag = /^[\u{E0061}-\u{E007A}]{2}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,3}\u{E007F}$/u;

/** A one-line finding when text holds Unicode TAG characters other than emoji subdivision flags; null when none. */
export function findTagCharacters(text: string): string | null {
  if (!tagCharacter.test(text)) return null;
  tagRun.lastIndex = 0;
  for (let m = tagRun.exec(text); m !== null; m = tagRun.exec(text)) {
    const flagBase = text.codePointAt(m.index - 2) === 0x1f3f4;
    if (!flagBase || !emojiFlag.test(m[0])) return 'text holds invisible unicode tag characters';
  }
  return null;
}

// bidi embeddings, overrides and isolates reorder what a reader sees (Trojan Source, CVE-2021-42574), and
// zero-width characters hide text inside words; both have honest uses (Arabic and Hebrew text, emoji
// sequences, Persian), so a policy chooses whether to withhold them
const invisible = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u180E]|(?!^)\uFEFF/;

/** A one-line finding when text holds bidi controls or zero-width characters (a byte order mark counts past the start); null when none. */
export function findInvisibleText(text: string): string | null {
  const found = invisible.exec(text);
  if (found === null) return null;
  const code = (found[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `text holds bidi controls or zero-width characters (u+${code} at offset ${found.index})`;
}

// the same characters as `invisible`, by their UTF-8 bytes: U+061C is D8 9C, U+180E is E1 A0 8E, U+FEFF is EF BB BF,
// and U+200B–U+2069 are E2 80 xx or E2 81 xx, whose third bytes the two tables below mark
const invisibleAfterE280 = new Uint8Array(256);
const invisibleAfterE281 = new Uint8Array(256);
for (let c = 0x200b; c <= 0x2069; c++) {
  if ((c >= 0x2010 && c <= 0x2029) || (c >= 0x202f && c <= 0x205f) || c === 0x2065) continue;
  const table = c < 0x2040 ? invisibleAfterE280 : invisibleAfterE281;
  table[0x80 | (c & 0x3f)] = 1;
}

/** `findInvisibleText` of the text that valid UTF-8 `bytes` hold from byte `from` on (past a byte order mark), by native byte searches: the same finding, or null. */
export function findInvisibleUtf8(bytes: Buffer, from = 0): string | null {
  let first = -1;
  const earlier = (at: number): void => {
    if (at !== -1 && (first === -1 || at < first)) first = at;
  };
  earlier(findSequence(bytes, from, 0xd8, (at) => bytes[at + 1] === 0x9c));
  earlier(findSequence(bytes, from, 0xe1, (at) => bytes[at + 1] === 0xa0 && bytes[at + 2] === 0x8e));
  // a byte order mark right at the start of the text is not reported (the string scan's `(?!^)`)
  earlier(findSequence(bytes, from + 1, 0xef, (at) => bytes[at + 1] === 0xbb && bytes[at + 2] === 0xbf));
  earlier(
    findSequence(bytes, from, 0xe2, (at) => {
      const second = bytes[at + 1];
      const third = bytes[at + 2] ?? 0;
      return second === 0x80 ? invisibleAfterE280[third] === 1 : second === 0x81 && invisibleAfterE281[third] === 1;
    }),
  );
  if (first === -1) return null;
  const code = bytes.toString('utf8', first, first + 3).codePointAt(0) ?? 0;
  const offset = bytes.toString('utf8', from, first).length;
  return `text holds bidi controls or zero-width characters (u+${code.toString(16).toUpperCase().padStart(4, '0')} at offset ${offset})`;
}

// the first offset from `from` on where `lead` starts a sequence `rest` accepts; -1 when none
function findSequence(bytes: Buffer, from: number, lead: number, rest: (at: number) => boolean): number {
  for (let at = bytes.indexOf(lead, from); at !== -1; at = bytes.indexOf(lead, at + 1)) if (rest(at)) return at;
  return -1;
}

function unsafeControls(text: string): string[] {
  const found: string[] = [];
  if (text.includes('\u0000')) found.push('text holds nul characters');
  const esc = /\u001B([[\]PX^_]?)/.exec(text);
  if (esc !== null) {
    const kind = esc[1] === '[' ? 'csi' : esc[1] === ']' ? 'osc' : esc[1] === '' ? 'esc' : 'string-control';
    found.push(`text holds terminal escape sequences (${kind} at offset ${esc.index})`);
  }
  if (/[\u0080-\u009F]/.test(text)) found.push('text holds c1 control characters');
  if (/[\u0001-\u0008\u000B\u000C\u000E-\u001A\u001C-\u001F]/.test(text))
    found.push('text holds control characters other than tab, lf and cr');
  return found;
}

// C0 controls other than TAB, LF, CR and ESC: single bytes in UTF-8 (DEL is inert)
const plainControls = [
  1, 2, 3, 4, 5, 6, 7, 8, 0x0b, 0x0c, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a,
  0x1c, 0x1d, 0x1e, 0x1f,
];

const tagLead = Buffer.from([0xf3, 0xa0]);

/** The same findings as `findUnsafeText` for valid UTF-8 bytes, by native byte searches instead of a pass over the decoded string. */
export function findUnsafeUtf8(bytes: Buffer): string[] {
  const found: string[] = [];
  if (bytes.indexOf(0) !== -1) found.push('text holds nul characters');
  const esc = bytes.indexOf(0x1b);
  if (esc !== -1) {
    const next = bytes[esc + 1];
    const kind =
      next === 0x5b
        ? 'csi'
        : next === 0x5d
          ? 'osc'
          : next === 0x50 || next === 0x58 || next === 0x5e || next === 0x5f
            ? 'string-control'
            : 'esc';
    // the offset is in characters, as the string scan reports it
    found.push(`text holds terminal escape sequences (${kind} at offset ${bytes.toString('utf8', 0, esc).length})`);
  }
  // C1 controls U+0080–U+009F are encoded C2 80 – C2 9F
  for (let at = bytes.indexOf(0xc2); at !== -1; at = bytes.indexOf(0xc2, at + 1)) {
    const next = bytes[at + 1] ?? 0;
    if (next >= 0x80 && next <= 0x9f) {
      found.push('text holds c1 control characters');
      break;
    }
  }
  if (plainControls.some((c) => bytes.indexOf(c) !== -1))
    found.push('text holds control characters other than tab, lf and cr');
  // TAG characters are F3 A0 80 80 – F3 A0 81 BF in UTF-8: decode only when their lead bytes are there
  if (bytes.indexOf(tagLead) !== -1) {
    const tags = findTagCharacters(bytes.toString('utf8'));
    if (tags !== null) found.push(tags);
  }
  return found;
}
