// Jupyter notebooks (nbformat 4, and the v3 `worksheets` layout) as their viewers show them: nbconvert's HTML
// export, JupyterLab, nbviewer and GitHub render markdown cells through a markdown renderer, and outputs by their
// mime bundle: `text/html` as HTML, `image/svg+xml` inlined as SVG, `text/markdown` as markdown, and JavaScript
// outputs run as script. A notebook is recognised by its structure (a `cells` or `worksheets` list), whatever the
// type it is declared as: an `.ipynb` sent as application/json is still a notebook to the viewer it reaches.
import { findActiveMarkup } from '../svg-html/active-markup.ts';
import type { WorkBudget } from '../work-budget.ts';

// output mime types a viewer runs as script
const scriptOutput = /^(?:application|text)\/(?:javascript|ecmascript|x-javascript)$|^application\/vnd\..*javascript/i;

/** True when parsed JSON has the shape of a notebook: an object with a `cells` list (nbformat 4) or `worksheets` (nbformat 3). */
export function isNotebook(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return Array.isArray(record['cells']) || Array.isArray(record['worksheets']);
}

/** The first thing a notebook viewer would run or render as active, as a one-line message; null when none. */
export function findActiveNotebook(notebook: Record<string, unknown>, budget: WorkBudget): string | null {
  for (const [index, cell] of cellsOf(notebook).entries()) {
    const found = activeCell(cell, budget);
    if (found !== null) return `notebook cell ${index + 1}: ${found}`;
  }
  return null;
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

function activeCell(cell: Record<string, unknown>, budget: WorkBudget): string | null {
  const type = cell['cell_type'];
  const source = textOf(cell['source'] ?? cell['input']);
  if (type === 'markdown' || type === 'heading') {
    const found = findActiveMarkup(source, 'markdown', budget);
    if (found !== null) return `a markdown cell holds ${found}`;
  }
  if (type === 'raw') {
    // nbconvert passes a raw cell through to the exports its format names (`text/html`, `text/markdown`, …)
    const meta = isRecord(cell['metadata']) ? cell['metadata'] : {};
    const named = meta['raw_mimetype'] ?? meta['format'];
    const format = typeof named === 'string' ? named.toLowerCase() : '';
    if (/html|markdown|rst|latex|^$/.test(format)) {
      const found = findActiveMarkup(source, 'text', budget);
      if (found !== null) return `a raw cell holds ${found}`;
    }
  }
  // markdown cells may carry attachments rendered as images: raster and svg images only reach an `<img>`
  const outputs = Array.isArray(cell['outputs']) ? cell['outputs'] : [];
  for (const output of outputs) {
    if (!isRecord(output)) continue;
    const bundles = [output['data'], output].filter(isRecord);
    for (const bundle of bundles) {
      for (const [mime, value] of Object.entries(bundle)) {
        const found = activeOutput(mime.toLowerCase(), value, budget);
        if (found !== null) return `an output holds ${found}`;
      }
    }
  }
  return null;
}

// nbformat 3 keeps outputs' bundles on the output itself under short keys (`html`, `svg`, `javascript`)
function activeOutput(mime: string, value: unknown, budget: WorkBudget): string | null {
  if (scriptOutput.test(mime) || mime === 'javascript') return `a \`${mime}\` output, which viewers run as script`;
  if (typeof value !== 'string' && !Array.isArray(value)) return null;
  const text = textOf(value);
  if (mime === 'text/html' || mime === 'html') return findActiveMarkup(text, 'html', budget);
  if (mime === 'image/svg+xml' || mime === 'svg') return findActiveMarkup(text, 'svg', budget);
  if (mime === 'text/markdown' || mime === 'markdown') return findActiveMarkup(text, 'markdown', budget);
  return null;
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
