// A fresh round against PDF readers (issue 41): a font whose `/FontMatrix` holds a string. pdf.js before 4.2.67 (the
// viewer of Firefox before 126 and of the many apps that embed it, and pdf.js under Node that renders thumbnails)
// writes the matrix into the source of the function it compiles for each glyph outline, so the string runs as
// script (CVE-2024-4367). The oracle is pdf.js 4.1.392 itself (installed on demand into the test cache, never a
// dependency) rendering page 1 as it does under Node (glyphs drawn as compiled paths, eval allowed, its default):
// each attack runs there and is withheld by the shipped profile however it is sent; each control, a matrix of
// numbers or none, runs nothing and is allowed. Under CI=true a pdf.js that cannot install fails the suite.
import { describe, expect, type TestContext, test } from 'vitest';
import { frameworkSuite, importFrom } from '../../frameworks/framework-package.ts';
import { pdfWithType1Font } from '../pdf/type1-font-pdf.ts';
import { judgeSendings, letThrough, refused, sendingsOf } from './judge-variants.ts';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

const pdfjs = frameworkSuite('pdf.js 4.1.392', {
  name: 'pdfjs-dist',
  version: '4.1.392',
  entry: 'node_modules/pdfjs-dist/legacy/build/pdf.mjs',
});
const marker = '__fontMatrixRan';
const run = `globalThis.${marker}=1`;

// a 2d context that accepts every call: pdf.js draws into it and nothing is shown
function drawingContext(): object {
  const identity = { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 };
  const target: Record<string, unknown> = { canvas: { width: 200, height: 100 } };
  return new Proxy(target, {
    get: (t, key) => {
      if (typeof key !== 'string') return undefined;
      if (key in t) return t[key];
      if (key === 'getTransform') return () => identity;
      if (key === 'measureText') return () => ({ width: 1 });
      if (key === 'getImageData') return () => ({ data: new Uint8ClampedArray(4) });
      if (key.startsWith('create')) return () => ({ addColorStop: () => undefined });
      return () => undefined;
    },
    set: (t, key, value) => {
      if (typeof key === 'string') t[key] = value;
      return true;
    },
  });
}

// pdf.js 4.1.392 renders page 1 of `bytes`: true when a script the document carries ran
async function runsInPdfJs(ctx: TestContext, bytes: Buffer): Promise<boolean> {
  const dir = pdfjs.require(ctx);
  const lib = await importFrom<PdfJs>(dir, 'pdfjs-dist/legacy/build/pdf.mjs');
  const global = globalThis as Record<string, unknown>;
  delete global[marker];
  const task = lib.getDocument({ data: new Uint8Array(bytes), verbosity: 0 });
  try {
    const page = await (await task.promise).getPage(1);
    const viewport = page.getViewport({ scale: 1 });
    await page.render({ canvasContext: drawingContext() as never, viewport }).promise;
    return global[marker] === 1;
  } finally {
    await task.destroy();
    delete global[marker];
  }
}

const attacks: [name: string, entries: string][] = [
  ['a string in the matrix', `/FontMatrix[0.001 0 0 0.001 0 (0\\); ${run}//)]`],
  ['a hex string in the matrix', `/FontMatrix[0.001 0 0 0.001 0 <${Buffer.from(`0); ${run}//`).toString('hex')}>]`],
  ['the key written with a name escape', `/Font#4datrix[0.001 0 0 0.001 0 (0\\); ${run}//)]`],
  ['a string as the first element', `/FontMatrix[(0.001\\); ${run}; c.transform\\(0.001) 0 0 0.001 0 0]`],
];

const controls: [name: string, entries: string][] = [
  ['a matrix of numbers', '/FontMatrix[0.001 0 0 0.001 0 0]'],
  ['a matrix with signs, points and white space', '/FontMatrix [ .001 0 -0.0 +0.001\n0 0 ]'],
  ['no matrix', ''],
];

const sendings = sendingsOf('guide://docs/report', ['.pdf', '.PDF', ''], ['application/pdf', undefined]);

describe('pdf.js 4.1 runs each font-matrix attack, the shipped profile withholds it', () => {
  test.for(attacks.map(([name, entries]) => ({ name, entries })))('$name', async ({ entries }, ctx) => {
    const bytes = pdfWithType1Font(entries);
    expect(await runsInPdfJs(ctx, bytes)).toBe(true);
    expect(letThrough(await judgeSendings({ blob: bytes }, sendings))).toEqual([]);
  });
});

describe('pdf.js 4.1 runs nothing in each control, the shipped profile allows it', () => {
  test.for(controls.map(([name, entries]) => ({ name, entries })))('$name', async ({ entries }, ctx) => {
    const bytes = pdfWithType1Font(entries);
    expect(await runsInPdfJs(ctx, bytes)).toBe(false);
    expect(refused(await judgeSendings({ blob: bytes }, sendings))).toEqual([]);
  });
});
