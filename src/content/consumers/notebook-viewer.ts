// Notebook viewers (nbconvert, JupyterLab, nbviewer): a notebook is recognised by its nbformat structure whatever it
// is declared as; its markdown cells and outputs are judged as the viewers render them (notebook/active-notebook.ts).
import { findActiveNotebook, isNotebook } from '../notebook/active-notebook.ts';
import type { ContentConsumer } from './content-consumer.ts';

/** Notebook viewers: markdown cells, html, svg, markdown and javascript outputs, raw cells by their format. */
export const notebookConsumer: ContentConsumer = {
  id: 'notebook',
  optIn: false,
  coverage: [
    {
      consumer: 'notebook viewers (nbconvert, JupyterLab, nbviewer)',
      reaches: 'JSON with a `cells` (nbformat 4) or `worksheets` (nbformat 3) list, whatever the declared type',
      judged:
        'markdown cells and markdown outputs as markdown, html outputs as HTML, svg outputs as SVG, javascript outputs as script, raw cells by their format',
      notCovered:
        'widget outputs (`application/vnd.jupyter.widget-view+json`), whose code a viewer loads from elsewhere',
    },
  ],
  leftOut: 'a notebook declared json is data: its html and javascript outputs are no longer judged',
  readsText: (body) => body.kind === 'json' && isNotebook(body.json()),
  judgeText: (body, budget) => {
    const notebook = body.json();
    const message = isNotebook(notebook) ? findActiveNotebook(notebook, budget) : null;
    return message === null ? [] : [{ slot: 'active', message }];
  },
};
