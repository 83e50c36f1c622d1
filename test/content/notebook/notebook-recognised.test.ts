// A notebook is a JSON object: JSON that opens anything else is not parsed to find out whether it is one (8 MiB of
// `[` and `]` is JSON four million arrays deep, and its parse took seconds for a body no viewer opens as a notebook).
import { describe, expect, test } from 'vitest';
import { unparsed } from './unparsed-body.ts';
import { notebookConsumer, shownAsNotebook } from '../../../src/content/consumers/notebook-viewer.ts';
import { opensAsObject } from '../../../src/content/notebook/active-notebook.ts';

describe('a notebook is recognised as an object first', () => {
  test.each(['[[[[]]]]', ' \n[{"cells": []}]', '"cells"', '42', 'null'])('%j is not parsed', (text) => {
    expect(notebookConsumer.readsText(unparsed(text))).toBe(false);
    expect(shownAsNotebook(unparsed(text))).toBe(false);
  });

  test.each([
    ['{"cells": []}', true],
    [' \r\n\t{"worksheets": []}', true],
    ['\ufeff{"cells": []}', true],
    ['[]', false],
    ['', false],
  ])('%j opens as an object: %s', (text, object) => {
    expect(opensAsObject(Buffer.from(text))).toBe(object);
  });
});
