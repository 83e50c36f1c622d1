// A link reference definition that runs over more than one line takes those lines into itself: its label, its
// destination (on the line after the `]:`) or its title (`"…"`, `'…'`, `(…)`, which marked carries across blank
// lines). A line it takes is no longer what the fence readings and the cuts saw: a fence opener eaten by a title
// leaves the next fence line opening a block instead of closing one, and every part after it is read in place with
// the fences paired the other way (a `<script>` the cuts left in fenced code is an html block in marked's page). So a
// text holding such a definition is not cut at all (markdown-parts.ts); a definition on one line takes nothing else.

/** True when `text` may hold a link reference definition whose label, destination or title is not on the line of its `]:` (or of its `[`). Linear. */
export function definesAcrossLines(text: string): boolean {
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
    if (text.charCodeAt(j) === 0x5d && text.charCodeAt(j + 1) === 0x3a) {
      if (crossed || restOfDefinitionCrosses(text, j + 2)) return true;
    }
    i = j >= n ? -1 : text.indexOf('[', text.charCodeAt(j) === 0x5b ? j : j + 1);
  }
  return false;
}

// after a definition's `]:`: whether its destination starts on a later line, or its title may start on the next line
// or not end on its own
function restOfDefinitionCrosses(text: string, from: number): boolean {
  let k = skipSpaces(text, from);
  if (k >= text.length) return false;
  if (isBreak(text.charCodeAt(k))) return true;
  // the destination: `<…>` on its line, or a run of non-space characters
  if (text.charCodeAt(k) === 0x3c) {
    while (k < text.length && text.charCodeAt(k) !== 0x3e && !isBreak(text.charCodeAt(k))) k++;
    k++;
  } else while (k < text.length && !isSpace(text.charCodeAt(k)) && !isBreak(text.charCodeAt(k))) k++;
  k = skipSpaces(text, k);
  if (k >= text.length) return false;
  const c = text.charCodeAt(k);
  if (isBreak(c)) {
    // a title may stand on the next line
    let next = k + 1;
    if (c === 0x0d && text.charCodeAt(next) === 0x0a) next++;
    next = skipSpaces(text, next);
    return isTitleOpener(text.charCodeAt(next));
  }
  if (!isTitleOpener(c)) return false;
  const close = c === 0x28 ? 0x29 : c;
  for (let t = k + 1; t < text.length; t++) {
    const d = text.charCodeAt(t);
    if (d === 0x5c) {
      if (isBreak(text.charCodeAt(t + 1))) return true;
      t++;
    } else if (d === close) return false;
    else if (isBreak(d)) return true;
  }
  return true;
}

function skipSpaces(text: string, from: number): number {
  let k = from;
  while (k < text.length && isSpace(text.charCodeAt(k))) k++;
  return k;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09;
const isBreak = (c: number): boolean => c === 0x0a || c === 0x0d;
const isTitleOpener = (c: number): boolean => c === 0x22 || c === 0x27 || c === 0x28;
