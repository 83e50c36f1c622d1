// A notebook's saved ipywidgets state (`metadata.widgets`) is embedded by nbconvert's default template with the
// html-manager that renders it: an HTML widget's value and a description shown as HTML are read as HTML pages, an
// Output widget's outputs as a cell's, and a state not shaped as the manager reads it is withheld, never taken as
// absent. A state of ordinary widgets (sliders, layouts, plain labels) stays allowed.
import { describe, expect, test } from 'vitest';
import { findActiveNotebook, readNotebook } from '../../../src/content/notebook/active-notebook.ts';
import { WorkBudget, WorkExhausted } from '../../../src/content/work-budget.ts';

const mime = 'application/vnd.jupyter.widget-state+json';
const payload = '<img src=x onerror="alert(document.cookie)">';

const withWidgets = (widgets: unknown): Record<string, unknown> => ({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { widgets },
  cells: [{ cell_type: 'code', metadata: {}, source: 'w', outputs: [] }],
});
const withModels = (state: Record<string, unknown>): Record<string, unknown> =>
  withWidgets({ [mime]: { version_major: 2, version_minor: 0, state } });
const model = (model_name: string, state: Record<string, unknown>) => ({
  model_name,
  model_module: '@jupyter-widgets/controls',
  model_module_version: '2.0.0',
  state,
});

describe('the notebook widget state is read as the widget manager renders it', () => {
  test.each([
    ['an HTML widget value', model('HTMLModel', { value: payload })],
    ['an HTMLMath widget value', model('HTMLMathModel', { value: payload, description: '' })],
    ['a label description shown as HTML', model('LabelModel', { description: payload, description_allow_html: true })],
    ['a text description shown as HTML', model('TextModel', { description: payload, description_allow_html: true })],
    ['a widget named HTML by its state only', model('X', { _model_name: 'HTMLModel', value: payload })],
  ])('%s with an event handler is active', (_name, widget) => {
    expect(findActiveNotebook(withModels({ w1: widget }), WorkBudget.unlimited())).toMatch(/notebook widget w1:.*HTML/);
  });

  test('an Output widget renders its outputs as a cell does: html and script alike', () => {
    const html = { output_type: 'display_data', metadata: {}, data: { 'text/html': payload } };
    const script = { output_type: 'display_data', metadata: {}, data: { 'application/javascript': 'alert(1)' } };
    const out = (o: unknown) => withModels({ o1: model('OutputModel', { outputs: [o] }) });
    expect(findActiveNotebook(out(html), WorkBudget.unlimited())).toMatch(/notebook widget o1: an Output widget/);
    expect(findActiveNotebook(out(script), WorkBudget.unlimited())).toMatch(/run as script/);
  });

  test.each([
    ['`metadata.widgets` a string', withWidgets('x')],
    ['the saved state a list', withWidgets({ [mime]: [] })],
    ['the models a number', withWidgets({ [mime]: { state: 1 } })],
    ['a model null', withModels({ w1: null })],
    ['a model state a list', withModels({ w1: { model_name: 'HTMLModel', state: [payload] } })],
  ])('a state the gate cannot read is withheld: %s', (_name, notebook) => {
    expect(findActiveNotebook(notebook, WorkBudget.unlimited())).toMatch(/widget state|cannot read/);
  });

  test('ordinary widgets and plain descriptions stay allowed', () => {
    const notebook = withModels({
      s1: model('IntSliderModel', { value: 3, description: '<b>x</b>', description_allow_html: false }),
      l1: model('LabelModel', { value: payload, description: payload }),
      h1: model('HTMLModel', { value: '<b>bold</b> <i>text</i>' }),
      // a tqdm progress bar as saved: two HTML widgets and their style around a progress bar
      t1: model('HTMLModel', { value: '100%', style: 'IPY_MODEL_t3', layout: 'IPY_MODEL_y1' }),
      t2: model('HTMLModel', { value: ' 10/10 [00:01&lt;00:00,  9.52it/s]', description_allow_html: false }),
      t3: model('HTMLStyleModel', { description_width: '', font_size: null, text_color: null }),
      p1: model('FloatProgressModel', { bar_style: 'success', max: 10, value: 10 }),
      y1: { model_name: 'LayoutModel', model_module: '@jupyter-widgets/base', state: { width: '50%' } },
    });
    expect(readNotebook(notebook, WorkBudget.unlimited())).toEqual({ active: null, remoteLoad: null });
  });

  test('widget pieces are charged in the same budget as the cells', () => {
    const big = `<div onclick="x">${'a'.repeat(200_000)}</div>`;
    const budget = new WorkBudget(1e9, 1);
    expect(() => findActiveNotebook(withModels({ w1: model('HTMLModel', { value: big }) }), budget)).toThrow(
      WorkExhausted,
    );
  });
});
