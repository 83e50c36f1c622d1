// Issue 41 (over-blocking): a name written inside a literal string is text, not a name. Chromium prints a link as a
// `/URI (https://developer.mozilla.org/en-US/docs/Web/JavaScript/…)` string, and the scan read `/JavaScript` in it and
// refused the whole document. Strings are now passed over as every reader's lexer reads them; the shapes that would
// get a real name past such a pass (a string read another way by pdf.js) still refuse. pdf.js is the oracle: every
// attack's OpenAction script is run by it, every control holds nothing it finds active.
import { existsSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { scanPdf } from '../../../src/content/pdf/pdf-active.ts';
import { WorkBudget } from '../../../src/content/work-budget.ts';
import { useChromium } from '../../helpers/use-chromium.ts';
import { decideBody, profileGate } from '../consumers/profile-gate.ts';
import { pdfJsActiveContent } from './pdfjs-oracle.ts';
import { stringAttackScript, stringNameAttacks, stringNameControls } from './string-name-pdfs.ts';

const gate = profileGate();
const judge = (bytes: Buffer) =>
  decideBody(gate, 'guide://docs/page.pdf', 'application/pdf', { blob: bytes.toString('base64') });

describe('names inside literal strings', () => {
  test.for(stringNameControls)('%s: inert to pdf.js, allowed', async ([, bytes]) => {
    expect(await pdfJsActiveContent(bytes)).toEqual([]);
    expect(await judge(bytes)).toEqual({ effect: 'allow', why: '' });
  });

  test.for(stringNameAttacks)('%s: pdf.js runs the script, refused', async ([, bytes]) => {
    expect(await pdfJsActiveContent(bytes)).toContain(`script:${stringAttackScript}`);
    const verdict = await judge(bytes);
    expect(verdict.effect).toBe('deny');
    expect(verdict.why).toMatch(/content\.executable: .*`\/JavaScript` in the object layer/);
  });

  test('work stays linear: many strings, nested parentheses, comments and hex strings', () => {
    const body = `${'(a (b) /JavaScript/ c) '.repeat(5000)}${'% c\n<41 42> '.repeat(5000)}${'('.repeat(20_000)}`;
    const pdf = Buffer.from(`%PDF-1.7\n1 0 obj\n<< /T ${body} >>\nendobj\n%%EOF\n`, 'latin1');
    const budget = WorkBudget.unlimited();
    // the strings before the unbalanced run are passed over; the run is no string any reader is sure of
    expect(scanPdf(pdf, undefined, undefined, budget).active).toBeNull();
    expect(budget.spent).toBeLessThanOrEqual(12 * pdf.length);
  });
});

const chromium = useChromium();

// links as an ordinary documentation page holds them, printed by the real Chromium the browser tests use
const page = `<!doctype html><meta charset="utf-8"><title>url</title><h1>The URL API</h1>
<p>A <a href="https://developer.mozilla.org/en-US/docs/Web/JavaScript/Data_structures#String_type">string</a>,
an <a href="https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Object">object</a>,
a <a href="https://example.test/docs/Launch/JS/EmbeddedFile">launch guide</a>, (parentheses) and <a href="#top">a local link</a>.</p>`;

describe('pdfs Chromium prints', () => {
  test('a page linking to MDN\u2019s JavaScript reference is allowed', async (ctx) => {
    const browser = chromium.browser;
    if (browser === undefined) return ctx.skip(chromium.skipReason);
    const tab = await browser.newPage();
    try {
      await tab.setContent(page);
      const pdf = await tab.pdf();
      expect(pdf.includes('/URI (https://developer.mozilla.org/en-US/docs/Web/JavaScript/', 0, 'latin1')).toBe(true);
      expect(await pdfJsActiveContent(pdf)).toEqual([]);
      expect(await judge(pdf)).toEqual({ effect: 'allow', why: '' });
    } finally {
      await tab.close();
    }
  });

  const urlDoc = '/usr/share/doc/nodejs/api/url.html';
  test.skipIf(!existsSync(urlDoc))("node's url.html documentation, printed, is allowed", async (ctx) => {
    const browser = chromium.browser;
    if (browser === undefined) return ctx.skip(chromium.skipReason);
    const tab = await browser.newPage();
    try {
      await tab.goto(`file://${urlDoc}`);
      const pdf = await tab.pdf();
      expect(pdf.includes('/Web/JavaScript/', 0, 'latin1')).toBe(true);
      expect(await judge(pdf)).toEqual({ effect: 'allow', why: '' });
    } finally {
      await tab.close();
    }
  });
});
