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
import { quoteValue } from '../../decision/quote-value.ts';
import { imageSizeTag } from './image-size-metadata.ts';
import { pythonRepr } from './python-repr.ts';
import { findActiveMarkdown, type MarkdownPlan, planCharge, planMarkdown } from '../markdown/active-markdown.ts';
import { notebookViewerRenderers } from '../markdown/markdown-renderers.ts';
import { PageLoads, renderedPages, stylesheetElement } from '../markdown/rendered-loads.ts';
import {
  parse5NanosPerChar,
  parse5NanosPerParse,
  saxesNanosPerChar,
  saxesNanosPerParse,
  screenNanosPerChar,
} from '../parser-nanos.ts';
import { findActiveHtml } from '../svg-html/active-html.ts';
import { findActiveMarkup, mayHoldActiveMarkup } from '../svg-html/active-markup.ts';
import { type WorkBudget, WorkExhausted } from '../work-budget.ts';

// output mime types a viewer runs as script
const scriptOutput = /^(?:application|text)\/(?:javascript|ecmascript|x-javascript)$|^application\/vnd\..*javascript/i;

/** True when parsed JSON has the shape of a notebook: an object with a `cells` list (nbformat 4) or `worksheets` (nbformat 3). */
export function isNotebook(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return Array.isArray(record['cells']) || Array.isArray(record['worksheets']);
}

/** True when JSON `bytes` may hold a notebook: past white space (and a byte order mark) they open an object. Asked before the JSON is parsed: 8 MiB of `[` and `]` is JSON, four million arrays deep, whose parse cost seconds for a body no viewer could open as a notebook. */
export function opensAsObject(bytes: Uint8Array): boolean {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d) at++;
  return bytes[at] === 0x7b;
}

/** Nesting a JSON body that may be a notebook is parsed to at most: nbformat's own structure is six levels deep, and a `application/json` output nested past this is withheld (`content.too-complex`) rather than parsed. */
export const maxNotebookNesting = 1000;

/** True when JSON `bytes` may hold a notebook: an object (past white space and a byte order mark) with a `cells` or `worksheets` member at its top level (a key compared as JSON decodes it). Read by one linear scan of brackets and strings, not a parse: JSON nested four million levels deep inside another member (`{"x":[[[…]]]}`) cost seconds to parse for a body no viewer opens as a notebook. Throws `WorkExhausted` when such a body nests deeper than `maxNotebookNesting` (a notebook candidate is then withheld, not parsed). */
export function mayHoldNotebook(bytes: Uint8Array): boolean {
  if (!opensAsObject(bytes)) return false;
  let depth = 0;
  let deepest = 0;
  let named = false;
  // at the top level, the next string is a member's key (after the `{` or a `,`)
  let key = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === 0x22) {
      const start = i;
      let escaped = false;
      for (i++; i < bytes.length && bytes[i] !== 0x22; i++) {
        if (bytes[i] === 0x5c) {
          escaped = true;
          i++;
        }
      }
      if (depth === 1 && key) {
        key = false;
        named ||= notebookMember(bytes, start, i, escaped);
      }
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (depth === 1) key = true;
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c && depth === 1) key = true;
  }
  if (named && deepest > maxNotebookNesting) throw new WorkExhausted('notebook');
  return named;
}

// whether the JSON string from `start` (its opening quote) to `end` (its closing one) is `cells` or `worksheets`
function notebookMember(bytes: Uint8Array, start: number, end: number, escaped: boolean): boolean {
  if (!escaped) {
    const length = end - start - 1;
    if (length !== 5 && length !== 10) return false;
    const name = Buffer.from(bytes.buffer, bytes.byteOffset + start + 1, length).toString('latin1');
    return name === 'cells' || name === 'worksheets';
  }
  // an escaped key (`"c\u0065lls"`) decoded as JSON decodes it; one too long for either name is neither
  if (end - start > 64) return false;
  try {
    const name: unknown = JSON.parse(
      Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start + 1).toString('utf8'),
    );
    return name === 'cells' || name === 'worksheets';
  } catch {
    return false;
  }
}

// how a viewer reads one piece: as markdown, as HTML, as SVG, or (`raw`) as the HTML and markdown exports a raw
// cell passes through to
type PieceFlavour = 'markdown' | 'html' | 'svg' | 'raw';

/** One piece of a notebook a viewer renders: where it is (`notebook cell 2`, `notebook widget w1`), what it is, how it is read and its text. */
interface Piece {
  where: string;
  what: string;
  flavour: PieceFlavour;
  text: string;
  /** the screen's answer for the text (`mayHoldActiveMarkup`), made once */
  live?: boolean;
  /** what the markdown screen and cutting make of the text (markdown and raw pieces), made once */
  plan?: MarkdownPlan;
  /** whether the text names an element that may load a stylesheet (`stylesheetElement`) */
  styled: boolean;
}

/** What a notebook viewer's pages of a notebook hold: the first thing it would run or render as active, and the first stylesheet a page loads from elsewhere by itself (a css `@import` in a `<style>`, an off-origin `<link rel="stylesheet">` or `xml-stylesheet`); each a one-line message, null when none. */
export interface NotebookFindings {
  active: string | null;
  remoteLoad: string | null;
}

/**
 * The notebook read once as its viewers render it: its pieces are listed once, and each piece is read once by the
 * parser its viewers use, for active content and for stylesheets loaded from elsewhere alike (a markdown piece's
 * pages are made once for both). HTML, SVG and raw pieces are read for loads as they are passed through, markdown as
 * the viewers' renderers render it (a `<link>` shown in a code block stays text).
 */
export function readNotebook(notebook: Record<string, unknown>, budget: WorkBudget): NotebookFindings {
  const pieces: Piece[] = [];
  for (const [index, cell] of cellsOf(notebook).entries()) {
    const script = piecesOf(cell, `notebook cell ${index + 1}`, pieces);
    if (script !== null) return { active: `notebook cell ${index + 1}: ${script}`, remoteLoad: null };
  }
  const widgets = widgetPieces(notebook, pieces);
  if (widgets !== null) return { active: widgets, remoteLoad: null };
  // only what the parsers will surely be charged (the screen passed, the pages not yet made): never more than the
  // reading below would spend, so a notebook that fits is read whole
  let charge = 0;
  for (const piece of pieces) charge += leastCharge(piece, budget);
  if (budget.timeSpent + charge > budget.timeLimit) throw new WorkExhausted('notebook', 'time');
  let remoteLoad: string | null = null;
  for (const piece of pieces) {
    // the element needs its name: most pieces are read for active content only
    const loads = piece.styled ? new PageLoads(budget) : null;
    const found = readPiece(piece, budget, loads);
    if (found !== null) return { active: `${piece.where}: ${piece.what} ${found}`, remoteLoad };
    if (loads?.found != null) remoteLoad ??= `${piece.where}: ${piece.what} ${loads.found}`;
  }
  return { active: null, remoteLoad };
}

/** The first thing a notebook viewer would run or render as active, as a one-line message; null when none (`readNotebook`'s `active`). */
export function findActiveNotebook(notebook: Record<string, unknown>, budget: WorkBudget): string | null {
  return readNotebook(notebook, budget).active;
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
function piecesOf(cell: Record<string, unknown>, where: string, pieces: Piece[]): string | null {
  const type = cell['cell_type'];
  const source = textOf(cell['source'] ?? cell['input']);
  if (type === 'markdown' || type === 'heading') pieces.push(piece(where, 'a markdown cell holds', 'markdown', source));
  if (type === 'raw') {
    // nbconvert passes a raw cell through to the exports its format names (`text/html`, `text/markdown`, …)
    const meta = isRecord(cell['metadata']) ? cell['metadata'] : {};
    const named = meta['raw_mimetype'] ?? meta['format'];
    const format = typeof named === 'string' ? named.toLowerCase() : '';
    if (/html|markdown|rst|latex|^$/.test(format)) pieces.push(piece(where, 'a raw cell holds', 'raw', source));
  }
  // markdown cells may carry attachments rendered as images: raster and svg images only reach an `<img>`
  return outputPieces(cell['outputs'], where, 'an output holds', pieces);
}

// the pieces of a list of outputs (a cell's, or an Output widget's) a viewer renders, added to `pieces`; a script
// output is returned as the finding
function outputPieces(list: unknown, where: string, what: string, pieces: Piece[]): string | null {
  const outputs = Array.isArray(list) ? list : [];
  for (const output of outputs) {
    if (!isRecord(output)) continue;
    // nbformat 3 keeps outputs' bundles on the output itself under short keys (`html`, `svg`, `javascript`)
    const bundles = [output['data'], output].filter(isRecord);
    for (const bundle of bundles) {
      for (const [key, value] of Object.entries(bundle)) {
        const mime = key.toLowerCase();
        if (scriptOutput.test(mime) || mime === 'javascript')
          return `${what} a ${quoteValue(mime)} output, which viewers run as script`;
        const flavour = outputFlavour(mime);
        if (flavour === null) continue;
        const text = outputText(value);
        if (text === null)
          return `${what} a ${quoteValue(mime)} output that is no string, which nbconvert writes raw as python prints it, in an order the gate cannot know`;
        pieces.push(piece(where, what, flavour, text));
      }
    }
    // nbconvert writes an image's size metadata unquoted into its tag
    const sized = imageSizeTag(output);
    if (sized !== null)
      pieces.push(piece(where, `${what} an image whose size metadata nbconvert writes as`, 'html', sized));
  }
  return null;
}

// the mime type under which a notebook's metadata keeps its saved ipywidgets state
const widgetStateMime = 'application/vnd.jupyter.widget-state+json';
// model or view names whose widget a manager renders (some of) the state of as HTML: `HTMLModel` and
// `HTMLMathModel` set their `value` as markup (@jupyter-widgets/controls); a third-party one so named is read alike
const htmlWidget = /html/i;

/**
 * The saved ipywidgets state (`metadata.widgets`), which nbconvert's default template embeds with the html-manager
 * that renders it (JupyterLab and Voilà alike), added to `pieces` as HTML: every string of an HTML widget's state (its
 * `value` is set as markup), the `description` of a widget with `description_allow_html`, and an Output widget's
 * outputs as a cell's. A finding is returned as a message: a script output, or a state not shaped as the manager
 * reads it (not an object), which the gate cannot read and so withholds rather than take as absent.
 */
function widgetPieces(notebook: Record<string, unknown>, pieces: Piece[]): string | null {
  const meta = notebook['metadata'];
  if (meta === undefined) return null;
  if (!isRecord(meta)) return unreadableWidgets('the notebook metadata');
  const widgets = meta['widgets'];
  if (widgets === undefined) return null;
  if (!isRecord(widgets)) return unreadableWidgets('`metadata.widgets`');
  const saved = widgets[widgetStateMime];
  if (saved === undefined) return null;
  if (!isRecord(saved)) return unreadableWidgets(`the \`${widgetStateMime}\` state`);
  const models = saved['state'];
  if (models === undefined) return null;
  if (!isRecord(models)) return unreadableWidgets('the widget models');
  for (const [id, model] of Object.entries(models)) {
    if (!isRecord(model) || !isRecord(model['state'])) return unreadableWidgets(`widget ${id}`);
    const state = model['state'];
    const where = `notebook widget ${id}`;
    const names = [model['model_name'], state['_model_name'], state['_view_name']];
    if (names.some((name) => typeof name === 'string' && htmlWidget.test(name))) {
      for (const [key, value] of Object.entries(state))
        if (typeof value === 'string') pieces.push(piece(where, `an HTML widget's \`${key}\` holds`, 'html', value));
    } else if (state['description_allow_html'] && typeof state['description'] === 'string')
      pieces.push(piece(where, 'a description shown as HTML holds', 'html', state['description']));
    const script = outputPieces(state['outputs'], where, 'an Output widget holds', pieces);
    if (script !== null) return `${where}: ${script}`;
  }
  return null;
}

function unreadableWidgets(what: string): string {
  return `notebook widget state: ${what} is not an object as a widget manager reads it, which the gate cannot read`;
}

function piece(where: string, what: string, flavour: PieceFlavour, text: string): Piece {
  return { where, what, flavour, text, styled: stylesheetElement.test(text) };
}

// how a viewer renders an output by its mime type; null for what it shows escaped (`text/plain`, streams) or as an image
function outputFlavour(mime: string): PieceFlavour | null {
  if (mime === 'text/html' || mime === 'html') return 'html';
  if (mime === 'image/svg+xml' || mime === 'svg') return 'svg';
  if (mime === 'text/markdown' || mime === 'markdown') return 'markdown';
  return null;
}

// the parser time a piece's reading surely spends: nothing when the screen keeps it from the parsers. The screens
// and the cutting it runs to know (each piece once) are charged as they run.
function leastCharge(piece: Piece, budget: WorkBudget): number {
  const length = piece.text.length;
  if (piece.flavour === 'svg') return saxesNanosPerParse + saxesNanosPerChar * length;
  // the renderers' own screen counts an `=` only inside a tag (markdown-screen.ts): it passes no more than this one
  if (piece.flavour === 'markdown') {
    piece.plan = planMarkdown(piece.text, budget, piece.styled);
    piece.live = piece.plan.live;
    // a markdown piece that may load a stylesheet is rendered for that reading whatever the screen says (the parts
    // of it the screen passes, and those naming one: markdown-parts.ts)
    return piece.live || piece.styled ? planCharge(piece.plan, notebookViewerRenderers) : 0;
  }
  budget.spendTime('html screen', screenNanosPerChar * length);
  piece.live = mayHoldActiveMarkup(piece.text);
  const html = piece.live ? parse5NanosPerParse + parse5NanosPerChar * length : 0;
  if (piece.flavour === 'html' || (!piece.live && !piece.styled)) return html;
  // a raw piece reaches the markdown exports too
  piece.plan = planMarkdown(piece.text, budget, piece.styled);
  return html + (piece.plan.live || piece.styled ? planCharge(piece.plan, notebookViewerRenderers) : 0);
}

// a piece read as its viewer reads it: markdown by the viewers' renderers, HTML by parse5, SVG by saxes (and parse5);
// `loads` (when the piece may load a stylesheet) is handed the pages the viewers make of it, each made once
function readPiece(piece: Piece, budget: WorkBudget, loads: PageLoads | null): string | null {
  if (piece.flavour === 'svg') {
    const found = findActiveMarkup(piece.text, 'svg', budget);
    if (found === null) loads?.see(piece.text);
    return found;
  }
  if (piece.flavour !== 'markdown') {
    // html and raw pieces reach a page as they are
    const html = piece.live === false ? null : findActiveHtml(piece.text, budget);
    if (html !== null) return html;
    loads?.see(piece.text);
    if (piece.flavour === 'html') return null;
  }
  // markdown and raw pieces by the viewers' renderers, whose pages are read for loads as they are made
  let rendered = false;
  const seePage = (page: string): void => {
    rendered = true;
    loads?.see(page);
  };
  const found =
    piece.live === false ? null : findActiveMarkdown(piece.text, budget, notebookViewerRenderers, seePage, piece.plan);
  // a piece the screen kept from the renderers is rendered for its loads alone
  if (found === null && loads !== null && !rendered)
    for (const page of renderedPages(piece.text, notebookViewerRenderers, budget)) loads.see(page);
  if (found !== null || piece.flavour !== 'markdown') return found;
  const asMistune = mistuneReading(piece.text);
  return asMistune === null ? null : findActiveMarkdown(asMistune, budget, notebookViewerRenderers);
}

// nbconvert 6's markdown (mistune 0.8) takes no `\<` as an escape: its backslash is text and the tag after it is live,
// as CommonMark reads `\\<` (an escaped backslash, then the tag). A markdown piece holding one is read that way too;
// null when it holds none
function mistuneReading(text: string): string | null {
  return text.includes('\\<') ? text.replaceAll('\\<', '\\\\<') : null;
}

// what a viewer writes for an output's value: a string, a list of strings joined (nbformat's multiline string), and
// any other value (an object, a list holding anything but strings: nbformat logs the notebook invalid and goes on) as
// python's repr of it, which nbconvert's template writes raw; null when its repr cannot be known (python-repr.ts)
function outputText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((part) => typeof part === 'string')) return value.join('');
  return pythonRepr(value);
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
