// The notebook pieces the content suites build bodies from: nbformat 4 cells, a code cell showing one html output,
// and the notebook around them.

/** A markdown cell holding `source`. */
export const markdownCell = (source: string) => ({ cell_type: 'markdown', metadata: {}, source });

/** A code cell whose one display output is `html` (with `text/plain` beside it), its output metadata `metadata`. */
export const htmlOutput = (html: string, metadata: Record<string, unknown> = {}) => ({
  cell_type: 'code',
  metadata: {},
  execution_count: 1,
  source: 'show()',
  outputs: [{ output_type: 'display_data', metadata, data: { 'text/html': html, 'text/plain': 'x' } }],
});

/** An nbformat 4.5 notebook of `cells`, as a value. */
export const notebookOf = (cells: unknown[]) => ({ nbformat: 4, nbformat_minor: 5, metadata: {}, cells });
