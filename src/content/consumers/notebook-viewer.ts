// Notebook viewers (nbconvert, JupyterLab, nbviewer): a notebook is recognised by its nbformat structure whatever it
// is declared as; its markdown cells and outputs are judged as the viewers render them (notebook/active-notebook.ts).
import { isNotebook, mayHoldNotebook, readNotebook } from '../notebook/active-notebook.ts';
import type { ContentConsumer, TextBody } from './content-consumer.ts';

/**
 * True when the body is a notebook that only notebook viewers render: nbformat structure, declared as nothing, as
 * JSON (Jupyter's `application/x-ipynb+json` included), as plain text or as a type the table does not know. Its viewers show code,
 * streams and `text/plain` outputs escaped, so the markdown renderers and a sniffing browser do not read its raw
 * JSON as well (a script printed as a text output is text); declared markdown or HTML, or at a uri named as a page
 * (`.html`, `.md`: a host that saves and opens it, a site that renders it), it reaches those as well.
 */
export function shownAsNotebook(body: TextBody): boolean {
  const declared = body.declaredKind;
  if (declared !== null && declared !== 'json' && declared !== 'text') return false;
  if (body.extension !== null && pageNamed.has(body.extension)) return false;
  return body.kind === 'json' && mayHoldNotebook(body.utf8) && isNotebook(body.json());
}

// the extensions a browser opens from disk as an HTML page (browser.ts) or a markdown renderer or site reads as a page
const pageNamed: ReadonlySet<string> = new Set([
  'html',
  'htm',
  'xhtml',
  'xht',
  'shtml',
  'mht',
  'mhtml',
  'md',
  'markdown',
  'mdx',
]);

/** Notebook viewers: markdown cells, html, svg, markdown and javascript outputs, raw cells by their format. */
export const notebookConsumer: ContentConsumer = {
  id: 'notebook',
  optIn: false,
  coverage: [
    {
      consumer: 'notebook viewers (nbconvert, JupyterLab, nbviewer)',
      reaches:
        'JSON with a `cells` (nbformat 4) or `worksheets` (nbformat 3) list, whatever the declared type; JSON as Python reads it (nbconvert), `NaN`, `Infinity` and `-Infinity` included',
      judged:
        'markdown cells and markdown outputs as markdown with the renderers viewers are built on (marked, markdown-it, commonmark.js), and with each `\\<` read as nbconvert 6 (mistune 0.8) reads it, no escape; html outputs as HTML; an html, svg or markdown output that is no string (an object, a list holding more than strings) as the python repr nbconvert writes raw (withheld when its key order is lost to JSON parsing); svg outputs as SVG, the `width` and `height` metadata of png and jpeg outputs as nbconvert writes them unquoted into their `<img>` tags, javascript outputs as script, raw cells by their format; the saved widget state (`metadata.widgets`) as the html manager renders it: every string of a widget whose model or view names html, a `description` with `description_allow_html`, the outputs of an Output widget as cell outputs (a state that is not an object is withheld); a stylesheet a rendered piece loads from elsewhere by itself (a css `@import` in a `<style>`, an off-origin `<link rel="stylesheet">`) is withheld as `content.remote-load`; code, streams and `text/plain` outputs are shown escaped, and a notebook declared JSON, text/plain or nothing is read by its viewers only, not as markdown or a sniffed page, unless its uri names a page (`.html`, `.md`)',
      notCovered:
        'widget code a viewer loads from elsewhere (third-party widget packages), and html a third-party widget renders from a model whose name does not say html',
    },
  ],
  leftOut:
    'a notebook is data: its markdown cells and html, markdown, svg and javascript outputs are no longer judged (declared markdown or html, its raw text still is)',
  readsText: (body) => body.kind === 'json' && mayHoldNotebook(body.utf8) && isNotebook(body.json()),
  judgeText: (body, budget) => {
    const notebook = body.json();
    if (!isNotebook(notebook)) return [];
    // one reading of its pieces for both: what a viewer runs, and the stylesheets its pages load from elsewhere
    const { active, remoteLoad } = readNotebook(notebook, budget);
    if (active !== null) return [{ slot: 'active', message: active }];
    return remoteLoad === null ? [] : [{ slot: 'remoteLoad', message: remoteLoad }];
  },
};
