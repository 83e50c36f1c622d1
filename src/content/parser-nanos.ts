// What each parser costs, in calibrated nanoseconds, for the parser-time bound of the work budget (work-budget.ts).
// Measured on this project's 2-core machine under load (CPU time, the least of three runs): per document parsed
// (one-line cells and pages), per character read on real files (the markdown files of node_modules and the benign
// corpus, the `.d.ts` files of node_modules, flat and nested SVG) and per open element walked at each tag of nested
// markup. `npm run bench` (bench/content.ts) measures them again beside these figures; a parser that got slower shows
// there first. Measure with the parsers loaded as node loads them (`--import tsx/esm`): tsx's CommonJS hook rewrites
// the ESM parsers into getter-bound CommonJS, and parse5 ran 3–5× slower that way (221 ns a character, not 55).

/** parse5 (the HTML tree builder) per character parsed, calibrated ns: 27–94 measured on `.d.ts` files, READMEs and SVG. */
export const parse5NanosPerChar = 100;

/** parse5 per document it parses, whatever its length, calibrated ns: a parser made and a document built, 1.2–7.6 µs measured on an empty and a one-line page (a notebook of thousands of one-line cells parses thousands of pages). */
export const parse5NanosPerParse = 10_000;

/** parse5 per open element it looks through at a start or end tag, calibrated ns: (191 − 94) ns per character of `<g>`s 250 deep. */
export const parse5NanosPerOpenElement = 3;

/** saxes (the XML reader) per character read, calibrated ns: 28 measured on flat SVG. */
export const saxesNanosPerChar = 30;

/** saxes and the gate's look at each element it reads (names, attributes, the allow-lists), per start tag, calibrated ns: 1,150 measured on flat SVG past its 30 per character. */
export const saxesNanosPerElement = 1200;

/** saxes and the gate's reading around it per document, whatever its length, calibrated ns: 10.4 µs measured on a one-element svg, 4.6 µs of it charged per character and element. */
export const saxesNanosPerParse = 10_000;

/** saxes per open element whose prefixes it resolves at a start tag, calibrated ns: (165 − 28) ns per character of `<g>`s 250 deep. */
export const saxesNanosPerOpenElement = 8;

/** The markup screen in front of the HTML parser (markup-screen.ts) per character it reads, calibrated ns: 10–21 measured on notebook cells (a 2,000-character cell of prose, code, links and a styled tag). */
export const screenNanosPerChar = 25;

// The screen in front of the markdown renderers (markdown-screen.ts) and the cutting into parts (markdown-parts.ts),
// charged by the work each counted as it ran: characters, the marks looked at (`<`, `&`, `=`, `:`, `\`; each tag
// read), the lines read by the per-line readings (indented code, html blocks, fences), the parts screened. CPU time,
// the least of three in one process, at load 12–22 on the project's 2-core machine (`bench/content.ts` shapes and the
// hostile ones of tests): the screen 0.3 ns a character (8 MiB of `[`) to 3.1 (8 MiB of READMEs), 78–121 ns a mark
// (4 Mi `<a`, a contributors table, a Maven pom), 3.5 ns a line read besides (8 MiB of line breaks); the cutting 5 ns
// a character (prose) to 17.7 (a Maven pom; READMEs 16.5), 216–360 ns a line (400,000 one-letter paragraphs, 8 MiB of
// line breaks). A text of short lines is charged by its lines: 8 MiB of line breaks after one live line, charged
// 0.71 s by its characters, took 2.1–3.3 s.

/** The markdown screen per text it screens, calibrated ns (its bytes made and its readings set up; a notebook screens each cell). */
export const markdownScreenNanosPerCall = 2_000;

/** The markdown screen per character, calibrated ns. */
export const markdownScreenNanosPerChar = 5;

/** The markdown screen and the cutting per mark looked at, calibrated ns. */
export const markdownScreenNanosPerMark = 150;

/** The markdown screen and the cutting per line read besides (indented code, html blocks), calibrated ns. */
export const markdownScreenNanosPerLine = 10;

/** Cutting markdown into the parts every renderer reads apart (markdown-parts.ts) per character, calibrated ns, beside its lines, the marks and lines its readings counted and the parts it screened (at the screen's rates). */
export const partsNanosPerChar = 22;

/** Cutting markdown into parts per line of the text, calibrated ns. */
export const partsNanosPerLine = 400;

/** markdown-it's parse into tokens (the gate's own reading of links and definitions), calibrated ns per character: 47–171 measured. */
export const markdownTokensNanosPerChar = 200;

/** markdown-it's parse into tokens per text it parses, whatever its length, calibrated ns: 2.6–3.0 µs measured on a one-line cell. */
export const markdownTokensNanosPerCall = 5_000;

// each renderer as the gate runs it (markdown-renderers.ts), calibrated ns per character rendered: measured 96–142
// and 102–135 (markdown-it), 2,014–3,718 (micromark with the GFM extensions), 175–577 (marked), 80–102
// (commonmark.js) on READMEs and `.d.ts` files; `npm run bench` measured commonmark.js at 225–233 on both since, over
// its charge, and it is charged 250
const rendererNanos: Readonly<Record<string, number>> = {
  'markdown-it commonmark': 150,
  'markdown-it default': 150,
  'micromark gfm': 4000,
  marked: 600,
  'commonmark.js': 250,
};

// each renderer per text it renders, whatever its length (making its parser, combining its extensions), calibrated ns:
// measured on a one-line cell 1.2–1.5 µs (markdown-it), 67–72 µs (micromark with the GFM extensions), 2.3–3.4 µs
// (marked), 1.0–2.5 µs (commonmark.js); a notebook of thousands of one-line cells is thousands of renders
const rendererCallNanos: Readonly<Record<string, number>> = {
  'markdown-it commonmark': 5_000,
  'markdown-it default': 5_000,
  'micromark gfm': 150_000,
  marked: 10_000,
  'commonmark.js': 5_000,
};

/** A markdown renderer's cost per text it renders whatever its length, calibrated ns, by its name; a renderer not measured yet is charged as the slowest one is. */
export function rendererNanosPerCall(name: string): number {
  return rendererCallNanos[name] ?? Math.max(...Object.values(rendererCallNanos));
}

/** What reading one markdown text costs whatever its length, calibrated ns: the token read and every one of `renderers`. */
export function markdownNanosPerCall(renderers: readonly { readonly name: string }[]): number {
  return renderers.reduce((sum, r) => sum + rendererNanosPerCall(r.name), markdownTokensNanosPerCall);
}

/** A markdown renderer's cost per character, calibrated ns, by its name; a renderer not measured yet is charged as the slowest one is. */
export function rendererNanosPerChar(name: string): number {
  return rendererNanos[name] ?? Math.max(...Object.values(rendererNanos));
}

// each renderer per line of inline text (neither blank nor in an html block), calibrated ns: measured on 5 000–20 000
// lines of `- a`, `a`, `a` between blank lines and `> a` (CPU time, the least of two, on the loaded machine): 25–133 µs
// (micromark with the GFM extensions), 0.4–15 (markdown-it), 0.1–17 (marked), 1–8 (commonmark.js), 0.5–14 µs (the token
// read). A text of short lines costs its lines, not its characters: 21 500 lines of `- a`, charged 0.50 s by their
// characters, took 3.4 s
const rendererLineNanos: Readonly<Record<string, number>> = {
  'markdown-it commonmark': 15_000,
  'markdown-it default': 15_000,
  'micromark gfm': 150_000,
  marked: 20_000,
  'commonmark.js': 10_000,
};

/** The token read per line of inline text, calibrated ns (measured 0.5–14 µs). */
export const markdownTokensNanosPerLine = 15_000;

/** Every renderer and the token read per blank line, calibrated ns: 5.4 µs measured on 400 000 of them. */
export const markdownNanosPerBlankLine = 10_000;

/** Every renderer and the token read per character of a line in an html block (passed through raw), calibrated ns: 54–57 measured on long lines of tags, references, comments and delimiters, 142 on a contributors table, 393 on a Maven pom. */
export const htmlBlockNanosPerChar = 500;

/** Every renderer and the token read per line of an html block, calibrated ns: 9.5–22.7 µs measured on blocks of 7- to 38-character lines. */
export const htmlBlockNanosPerLine = 50_000;

/** What reading markdown costs per line of inline text, calibrated ns: the token read and every one of `renderers` (a renderer not measured yet is charged as the slowest one is). */
export function markdownNanosPerLine(renderers: readonly { readonly name: string }[]): number {
  const slowest = Math.max(...Object.values(rendererLineNanos));
  return renderers.reduce((sum, r) => sum + (rendererLineNanos[r.name] ?? slowest), markdownTokensNanosPerLine);
}

/** What reading markdown costs per character, calibrated ns: the token read and every one of `renderers`. */
export function markdownNanosPerChar(renderers: readonly { readonly name: string }[]): number {
  return renderers.reduce((sum, r) => sum + rendererNanosPerChar(r.name), markdownTokensNanosPerChar);
}
