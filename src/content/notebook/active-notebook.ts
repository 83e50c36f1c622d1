// Jupyter notebooks (nbformat 4, and the v3 `worksheets` layout) as their viewers show them: nbconvert's HTML
// export, JupyterLab, nbviewer and GitHub render markdown cells through a markdown renderer, and outputs by their
// mime bundle: `text/html` as HTML, `image/svg+xml` inlined as SVG, `text/markdown` as markdown, and JavaScript
// outputs run as script; `text/plain` outputs, streams and code are shown escaped. A notebook is recognised by its
// structure (a `cells` or `worksheets` list), whatever the type it is declared as: an `.ipynb` sent as
// application/json is still a notebook to the viewer it reaches.
//
// Each piece a viewer renders is read once, with the parser that viewer uses (markdown with the renderers notebook
// viewers are built on, `notebookViewerRenderers`). The pieces are listed first: a script output is a finding no
// parser is needed for, and when the parsers' charge for every piece is more than the item's parser time left, the
// notebook is withheld as too complex before any of them starts, not after a second of rendering.
import { findActiveMarkdown, markdownNanos } from '../markdown/active-markdown.ts';
import { notebookViewerRenderers, renderWith } from '../markdown/markdown-renderers.ts';
import { mayHoldActiveMarkdown } from '../markdown/markdown-screen.ts';
import { parse5NanosPerChar, parse5NanosPerParse, saxesNanosPerChar, saxesNanosPerParse } from '../parser-nanos.ts';
import { findActiveHtml } from '../svg-html/active-html.ts';
import { findActiveMarkup, mayHoldActiveMarkup } from '../svg-html/active-markup.ts';
import { findCssImport } from '../svg-html/css-import.ts';
import { type WorkBudget, WorkExhausted } from '../work-budget.ts';

// output mime types a viewer runs as script
const scriptOutput = /^(?:application|text)\/(?:javascript|ecmascript|x-javascript)$|^application\/vnd\..*javascript/i;

/** True when parsed JSON has the shape of a notebook: an object with a `cells` list (nbformat 4) or `worksheets` (nbformat 3). */
export function isNotebook(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return Array.isArray(record['cells']) || Array.isArray(record['worksheets']);
}

// how a viewer reads one piece: as markdown, as HTML, as SVG, or (`raw`) as the HTML and markdown exports a raw
// cell passes through to
type PieceFlavour = 'markdown' | 'html' | 'svg' | 'raw';

/** One piece of a notebook a viewer renders: its cell, what it is, how it is read and its text. */
interface Piece {
  cell: number;
  what: string;
  flavour: PieceFlavour;
  text: string;
  /** the screen's answer for the text (`mayHoldActiveMarkup`), made once */
  live?: boolean;
}

/** The first thing a notebook viewer would run or render as active, as a one-line message; null when none. */
export function findActiveNotebook(notebook: Record<string, unknown>, budget: WorkBudget): string | null {
  const pieces: Piece[] = [];
  for (const [index, cell] of cellsOf(notebook).entries()) {
    const script = piecesOf(cell, index + 1, pieces);
    if (script !== null) return `notebook cell ${index + 1}: ${script}`;
  }
  // only what the parsers will surely be charged (the screen passed, the pages not yet made): never more than the
  // reading below would spend, so a notebook that fits is read whole
  let charge = 0;
  for (const piece of pieces) charge += leastCharge(piece);
  if (budget.timeSpent + charge > budget.timeLimit) throw new WorkExhausted('notebook', 'time');
  for (const piece of pieces) {
    const found = readPiece(piece, budget);
    if (found !== null) return `notebook cell ${piece.cell}: ${piece.what} ${found}`;
  }
  return null;
}

/**
 * The first stylesheet a viewer's page of the notebook loads from elsewhere by itself (a css `@import` in a `<style>`,
 * an off-origin `<link rel="stylesheet">` or `xml-stylesheet`), as a one-line message; null when none. HTML, SVG and
 * raw pieces are read as they are passed through, markdown as the viewers' renderers render it (a `<link>` shown in
 * a code block stays text).
 */
export function findNotebookRemoteLoad(notebook: Record<string, unknown>, budget: WorkBudget): string | null {
  const pieces: Piece[] = [];
  for (const [index, cell] of cellsOf(notebook).entries()) piecesOf(cell, index + 1, pieces);
  for (const piece of pieces) {
    // the element needs its name: most pieces are read no further
    if (!stylesheetElement.test(piece.text)) continue;
    const pages = piece.flavour === 'html' || piece.flavour === 'svg' ? [piece.text] : renderedPages(piece, budget);
    for (const page of pages) {
      const found = findCssImport(page, budget);
      if (found !== null) return `notebook cell ${piece.cell}: ${piece.what} ${found}`;
    }
  }
  return null;
}

// an element that may load a stylesheet: `<style>`, `<link>` (and an `xml-stylesheet` instruction), any prefix
const stylesheetElement = /<(?:[a-z]+:)?(?:style|link)\b|<\?xml-stylesheet/i;

// the pages the viewers make of a markdown or raw piece (a raw cell also reaches the html export as it is)
function renderedPages(piece: Piece, budget: WorkBudget): string[] {
  budget.spendTime('markdown', markdownNanos(piece.text, notebookViewerRenderers));
  const pages = notebookViewerRenderers.map((renderer) => renderWith(renderer, piece.text));
  return piece.flavour === 'raw' ? [piece.text, ...pages] : pages;
}

function cellsOf(notebook: Record<string, unknown>): Record<string, unknown>[] {
  const cells: unknown[] = Array.isArray(notebook['cells']) ? notebook['cells'] : [];
  const worksheets = Array.isArray(notebook['worksheets']) ? notebook['worksheets'] : [];
  for (const sheet of worksheets) {
    const inner: unknown = isRecord(sheet) ? sheet['cells'] : undefined;
    if (Array.isArray(inner)) cells.push(...(inner as unknown[]));
  }
  return cells.filter(isRecord);
}

// the pieces of one cell a viewer renders, added to `pieces`; a script output is returned as the cell's finding
function piecesOf(cell: Record<string, unknown>, index: number, pieces: Piece[]): string | null {
  const type = cell['cell_type'];
  const source = textOf(cell['source'] ?? cell['input']);
  if (type === 'markdown' || type === 'heading')
    pieces.push({ cell: index, what: 'a markdown cell holds', flavour: 'markdown', text: source });
  if (type === 'raw') {
    // nbconvert passes a raw cell through to the exports its format names (`text/html`, `text/markdown`, …)
    const meta = isRecord(cell['metadata']) ? cell['metadata'] : {};
    const named = meta['raw_mimetype'] ?? meta['format'];
    const format = typeof named === 'string' ? named.toLowerCase() : '';
    if (/html|markdown|rst|latex|^$/.test(format))
      pieces.push({ cell: index, what: 'a raw cell holds', flavour: 'raw', text: source });
  }
  // markdown cells may carry attachments rendered as images: raster and svg images only reach an `<img>`
  const outputs = Array.isArray(cell['outputs']) ? cell['outputs'] : [];
  for (const output of outputs) {
    if (!isRecord(output)) continue;
    // nbformat 3 keeps outputs' bundles on the output itself under short keys (`html`, `svg`, `javascript`)
    const bundles = [output['data'], output].filter(isRecord);
    for (const bundle of bundles) {
      for (const [key, value] of Object.entries(bundle)) {
        const mime = key.toLowerCase();
        if (scriptOutput.test(mime) || mime === 'javascript')
          return `an output holds a \`${mime}\` output, which viewers run as script`;
        const flavour = outputFlavour(mime);
        if (flavour === null || (typeof value !== 'string' && !Array.isArray(value))) continue;
        pieces.push({ cell: index, what: 'an output holds', flavour, text: textOf(value) });
      }
    }
  }
  return null;
}

// how a viewer renders an output by its mime type; null for what it shows escaped (`text/plain`, streams) or as an image
function outputFlavour(mime: string): PieceFlavour | null {
  if (mime === 'text/html' || mime === 'html') return 'html';
  if (mime === 'image/svg+xml' || mime === 'svg') return 'svg';
  if (mime === 'text/markdown' || mime === 'markdown') return 'markdown';
  return null;
}

// the parser time a piece's reading surely spends: nothing when the screen keeps it from the parsers
function leastCharge(piece: Piece): number {
  const length = piece.text.length;
  if (piece.flavour === 'svg') return saxesNanosPerParse + saxesNanosPerChar * length;
  // the renderers' own screen counts an `=` only inside a tag (markdown-screen.ts): it passes no more than this one
  piece.live = piece.flavour === 'markdown' ? mayHoldActiveMarkdown(piece.text) : mayHoldActiveMarkup(piece.text);
  if (!piece.live) return 0;
  const html = parse5NanosPerParse + parse5NanosPerChar * length;
  if (piece.flavour === 'html') return html;
  const markdown =
    piece.flavour === 'markdown' || mayHoldActiveMarkdown(piece.text)
      ? markdownNanos(piece.text, notebookViewerRenderers)
      : 0;
  return piece.flavour === 'markdown' ? markdown : html + markdown;
}

// a piece read as its viewer reads it: markdown by the viewers' renderers, HTML by parse5, SVG by saxes (and parse5)
function readPiece(piece: Piece, budget: WorkBudget): string | null {
  if (piece.flavour === 'svg') return findActiveMarkup(piece.text, 'svg', budget);
  if (piece.live === false) return null;
  if (piece.flavour === 'markdown') return findActiveMarkdown(piece.text, budget, notebookViewerRenderers);
  const html = findActiveHtml(piece.text, budget);
  if (html !== null || piece.flavour === 'html') return html;
  return findActiveMarkdown(piece.text, budget, notebookViewerRenderers);
}

// nbformat multiline strings: a string, or a list of strings joined as they are
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((part): part is string => typeof part === 'string').join('');
  return '';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
