// A link reference definition that runs over more than one line takes those lines into itself: its label, its
// destination (on the line after the `]:`) or its title (`"…"`, `'…'`, `(…)`, which marked carries across blank
// lines). A line it takes is no longer what the fence readings and the cuts saw: a fence opener eaten by a title
// leaves the next fence line opening a block instead of closing one, and every part after it is read in place with
// the fences paired the other way (a `<script>` the cuts left in fenced code is an html block in marked's page). So a
// text holding such a definition is not cut at all (markdown-parts.ts); a definition on one line takes nothing else.

/** True when `text` may hold a link reference definition whose label, destination or title is not on the line of its `]:` (or of its `[`). Linear. */
export function definesAcrossLines(text: string): boolean {
  // no `]:`, no definition: one native search instead of a walk over every bracket
  if (!text.includes(']:')) return false;
  const n = text.length;
  let i = text.indexOf('[');
  while (i !== -1) {
    // the label: to the first unescaped `]` (a `[` before it makes no label: the scan goes on from there)
    let j = i + 1;
    let crossed = false;
    for (; j < n; j++) {
      const c = text.charCodeAt(j);
      if (c === 0x5c) {
        if (isBreak(text.charCodeAt(j + 1))) crossed = true;
        j++;
      } else if (c === 0x5b || c === 0x5d) break;
      else if (isBreak(c)) crossed = true;
    }
    if (text.charCodeAt(j) === 0x5d && text.charCodeAt(j + 1) === 0x3a && startsBlock(text, i)) {
      if (crossed || restOfDefinitionCrosses(text, j + 2)) return true;
    }
    i = j >= n ? -1 : text.indexOf('[', text.charCodeAt(j) === 0x5b ? j : j + 1);
  }
  return false;
}

// after a definition's `]:`: whether its destination on the next line may be a line the fences or html blocks read
// (a fence, a tag), or its title may not end on the line it starts on
function restOfDefinitionCrosses(text: string, from: number): boolean {
  let k = skipSpaces(text, from);
  if (k >= text.length) return false;
  if (isBreak(text.charCodeAt(k))) {
    k = skipSpaces(text, nextLine(text, k));
    const first = text.charCodeAt(k);
    // a blank line: no definition; a fence marker or a `<` taken as the destination changes what follows
    if (k >= text.length || isBreak(first)) return false;
    if (first === 0x60 || first === 0x7e || first === 0x3c) return true;
  }
  // the destination: `<…>` on its line, or a run of non-space characters
  if (text.charCodeAt(k) === 0x3c) {
    while (k < text.length && text.charCodeAt(k) !== 0x3e && !isBreak(text.charCodeAt(k))) k++;
    k++;
  } else while (k < text.length && !isSpace(text.charCodeAt(k)) && !isBreak(text.charCodeAt(k))) k++;
  k = skipSpaces(text, k);
  if (k >= text.length) return false;
  // a title may stand on the next line
  if (isBreak(text.charCodeAt(k))) k = skipSpaces(text, nextLine(text, k));
  return isTitleOpener(text.charCodeAt(k)) && !titleEndsOnItsLine(text, k);
}

// whether the title opened at `at` closes before its line ends
function titleEndsOnItsLine(text: string, at: number): boolean {
  const opener = text.charCodeAt(at);
  const close = opener === 0x28 ? 0x29 : opener;
  for (let t = at + 1; t < text.length; t++) {
    const d = text.charCodeAt(t);
    if (d === 0x5c) {
      if (isBreak(text.charCodeAt(t + 1))) return false;
      t++;
    } else if (d === close) return true;
    else if (isBreak(d)) return false;
  }
  return false;
}

// whether the `[` at `at` may open a block: only white space, block quote marks and list markers before it on its line
// (the walk back stops at the first other character: the runs walked for two brackets never overlap, so it is linear)
function startsBlock(text: string, at: number): boolean {
  let k = at - 1;
  while (k >= 0 && mayPrefixBlock(text.charCodeAt(k))) k--;
  if (k >= 0 && !isBreak(text.charCodeAt(k))) return false;
  return /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+[ \t>]*)*$/.test(text.slice(k + 1, at));
}

function nextLine(text: string, at: number): number {
  return text.charCodeAt(at) === 0x0d && text.charCodeAt(at + 1) === 0x0a ? at + 2 : at + 1;
}

function skipSpaces(text: string, from: number): number {
  let k = from;
  while (k < text.length && isSpace(text.charCodeAt(k))) k++;
  return k;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09;
const isBreak = (c: number): boolean => c === 0x0a || c === 0x0d;
// white space, `>`, list markers (`-` `*` `+`, digits and `.` or `)`)
const mayPrefixBlock = (c: number): boolean =>
  c === 0x20 ||
  c === 0x09 ||
  c === 0x3e ||
  c === 0x2d ||
  c === 0x2a ||
  c === 0x2b ||
  c === 0x2e ||
  c === 0x29 ||
  (c >= 0x30 && c <= 0x39);
const isTitleOpener = (c: number): boolean => c === 0x22 || c === 0x27 || c === 0x28;
