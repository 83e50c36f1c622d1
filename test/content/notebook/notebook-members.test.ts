// A notebook is recognised by its top-level nbformat members (`cells`, `worksheets`) read off the bytes by one scan of
// brackets and strings, before any parse: JSON nested deep inside another member (`{"x":[[[…]]]}`) is never parsed to
// find out, and a body that may be a notebook and nests past the cap is withheld, not parsed.
import { describe, expect, test } from 'vitest';
import { unparsed } from './unparsed-body.ts';
import { notebookConsumer, shownAsNotebook } from '../../../src/content/consumers/notebook-viewer.ts';
import { maxNotebookNesting, mayHoldNotebook } from '../../../src/content/notebook/active-notebook.ts';
import { WorkExhausted } from '../../../src/content/work-budget.ts';
import { sniffContentSync } from '../../../src/content/sniff-content.ts';

const deep = (levels: number, inner = ''): string => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;

describe('a notebook is recognised by its top-level members', () => {
  test.each([
    ['an object nested deep in another member', `{"x":${deep(100_000)}}`],
    ['a `cells` member one level down', '{"x": {"cells": []}}'],
    ['a `cells` string value', '{"x": "cells", "y": "\\"cells\\": ["}'],
    ['a key that only starts like one', '{"cellsx": [], "worksheet": []}'],
  ])('%s is not parsed', (_name, text) => {
    expect(mayHoldNotebook(Buffer.from(text))).toBe(false);
    expect(notebookConsumer.readsText(unparsed(text))).toBe(false);
    expect(shownAsNotebook(unparsed(text))).toBe(false);
  });

  test.each([
    ['{"cells": []}'],
    ['{"metadata": {"x": [[1]]}, "worksheets": []}'],
    ['{"c\\u0065lls": []}'],
    ['\ufeff {"nbformat": 4, "cells": [{"cell_type": "markdown", "source": "a"}]}'],
  ])('%j may be a notebook', (text) => {
    expect(mayHoldNotebook(Buffer.from(text))).toBe(true);
  });

  test('a body that may be a notebook and nests past the cap is withheld, not parsed', () => {
    const text = `{"cells": [{"outputs": [{"data": {"application/json": ${deep(maxNotebookNesting)}}}]}]}`;
    expect(() => mayHoldNotebook(Buffer.from(text))).toThrow(WorkExhausted);
    const sniff = sniffContentSync(Buffer.from(text), { declaredMime: 'application/json', uri: 'guide://n.ipynb' });
    expect(sniff?.tooComplex).toMatch(/notebook/);
  });

  test('eight MiB nested inside another member is answered without a notebook parse', () => {
    const text = `{"x":${deep(4 * 1024 * 1024 - 4)}}`;
    expect(notebookConsumer.readsText(unparsed(text))).toBe(false);
  });
});
