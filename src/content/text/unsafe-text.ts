// Characters that are unsafe to show raw: terminals act on them (CVE-2021-25743-style escape injection,
// OSC 52 clipboard writes, OSC 8 hyperlinks), and NULs truncate C consumers.

// DEL (U+007F) is inert: terminals and renderers ignore it
const anyUnsafe = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u0080-\u009F]/;

/** One-line descriptions of unsafe characters in text: NUL, ESC/CSI/OSC sequences, the C1 and C0 controls a terminal acts on, Unicode TAG characters outside an emoji flag; empty when clean. */
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

/**
 * The C1 controls a terminal acts on in UTF-8 (xterm, VTE): reverse index (up a line, to write over it), the single
 * shifts, the string and sequence introducers (DCS, SOS, CSI, OSC, PM, APC) and ST, and DECID (the terminal answers
 * into its own input). The rest are line breaks (IND, NEL), a tab stop or no-ops to every terminal, and occur in
 * ordinary files (a NEL in a bundled YAML escaper, a stray U+0083 in a translation).
 */
export const terminalC1 = /[\u008D-\u0090\u0098\u009A-\u009F]/;

/**
 * The C0 controls besides NUL, TAB, LF, CR and ESC that a terminal acts on: ENQ (xterm answers into its own input),
 * BEL (a bell, and the end of an OSC string), BS (back over a character, to write over it), VT and FF (line feeds),
 * SO and SI (switch the character set: the Linux console draws line graphics), CAN and SUB (cancel a sequence; xterm
 * draws SUB). xterm, VTE, tmux and the Linux console ignore the rest (SOH–EOT, ACK, DLE–ETB, EM, FS–US), which
 * ordinary files hold as data: a record separator in a parser's table, ETX as a key in a prompt's key map.
 */
export const terminalC0 = /[\u0005\u0007\u0008\u000B\u000C\u000E\u000F\u0018\u001A]/;

/** The findings of what a terminal acts on (escape sequences, its C1 and C0 controls): `escape` opens a finding that goes on with the sequence's kind and offset. */
export const terminalFindings = {
  escape: 'text holds terminal escape sequences',
  c1: 'text holds c1 control characters',
  c0: 'text holds control characters a terminal acts on',
} as const;

/** True when a finding of `findUnsafeText` (or the UTF-8 scan) is one only a terminal acts on: the terminal consumer's (consumers/terminal.ts). */
export function actsOnTerminal(finding: string): boolean {
  return (
    finding.startsWith(terminalFindings.escape) || finding === terminalFindings.c1 || finding === terminalFindings.c0
  );
}

function unsafeControls(text: string): string[] {
  const found: string[] = [];
  if (text.includes('\u0000')) found.push('text holds nul characters');
  const esc = /\u001B([[\]PX^_]?)/.exec(text);
  if (esc !== null) {
    const kind = esc[1] === '[' ? 'csi' : esc[1] === ']' ? 'osc' : esc[1] === '' ? 'esc' : 'string-control';
    found.push(`${terminalFindings.escape} (${kind} at offset ${esc.index})`);
  }
  if (terminalC1.test(text)) found.push(terminalFindings.c1);
  if (terminalC0.test(text)) found.push(terminalFindings.c0);
  return found;
}
