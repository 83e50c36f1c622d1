// The PDF reader consumer against two more readers (issue 41 items 1 and 6): poppler (Evince, Okular) and MuPDF,
// through test/helpers/second-pdf-readers.ts. The pdf.js differential's generated documents, the nested object
// stream, encrypted and hidden-OpenAction corpora, and PDFs these readers read differently from pdf.js
// (second-reader-pdfs.ts) are opened by both (and pdf.js); whenever one finds a script, a script-scheme link, an attachment or an
// XFA form, the gate's pdf-reader adapter alone must not allow the bytes (sent as a pdf and as an untyped download);
// benign controls are found inert and allowed. Under CI=true a missing reader fails the suite.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { useSecondPdfReaders } from '../../helpers/second-pdf-readers.ts';
import { decideBody, profileGate } from '../consumers/profile-gate.ts';
import { encryptedPdf, type PdfCipher } from './encrypt-pdf.ts';
import { type NestedActive, nestedObjectStreamPdf } from './make-nested-pdf.ts';
import { pdfWithHiddenOpenAction } from './make-pdf-variants.ts';
import { activeInPdfJs, generatedPdf, type PdfShape, pdfShapes } from './pdf-differential.ts';
import { secondReaderAttacks, secondReaderControls } from './second-reader-pdfs.ts';

const pdfReaderOnly = profileGate(['pdf-reader'], ['application/octet-stream']);
const activeIn = useSecondPdfReaders();

// the sendings the gate allowed
async function allowed(bytes: Buffer): Promise<string[]> {
  const out: string[] = [];
  for (const [uri, mime] of [
    ['guide://docs/report.pdf', 'application/pdf'],
    ['guide://docs/download', 'application/octet-stream'],
  ] as const) {
    const v = await decideBody(pdfReaderOnly, uri, mime, { blob: bytes.toString('base64') });
    if (v.effect === 'allow') out.push(`${mime} allowed`);
  }
  return out;
}

const base: Omit<PdfShape, 'place'> = {
  script: 'literal',
  target: 'literal',
  scheme: 'javascript:',
  escapeNames: false,
  byReference: false,
  layout: 'xref',
};

describe('poppler and MuPDF against the pdf-reader adapter', () => {
  test('the oracles see what each place holds, and nothing in an inert document', async (ctx) => {
    for (const place of [
      'names-tree',
      'catalog-aa',
      'page-aa',
      'link-a',
      'widget-aa',
      'link-uri',
      'attachment',
      'file-annotation',
      'xfa',
    ] as const)
      expect([place, (await activeIn(ctx, generatedPdf({ ...base, place }))).length > 0]).toEqual([place, true]);
    for (const place of ['web-link', 'none'] as const)
      expect([place, await activeIn(ctx, generatedPdf({ ...base, place }))]).toEqual([place, []]);
  });

  test('whenever poppler or MuPDF finds something active, the gate does not allow the bytes (fixed seed)', {
    timeout: 900_000,
  }, async (ctx) => {
    let active = 0;
    await fc.assert(
      fc.asyncProperty(pdfShapes(), async (shape) => {
        const bytes = generatedPdf(shape);
        const found = await activeIn(ctx, bytes);
        if (found.length === 0) return;
        active++;
        expect(await allowed(bytes), `${JSON.stringify(shape)}: ${found.join(', ')}`).toEqual([]);
      }),
      { seed: 20261206, numRuns: 300 },
    );
    // the generator reaches these readers' active places most of the time
    expect(active).toBeGreaterThan(100);
  });

  test('the nested, encrypted and hidden-action corpora: what the readers find active is not allowed', async (ctx) => {
    const corpus: [string, Buffer][] = [];
    const kinds: NestedActive[] = [
      'open-action-script',
      'launch',
      'embedded-file',
      'uri-javascript',
      'xfa',
      'rich-media',
    ];
    for (const active of kinds)
      for (const levels of [1, 2, 3])
        corpus.push([`nested ${active} ${levels}`, nestedObjectStreamPdf({ active, levels })]);
    const ciphers: PdfCipher[] = ['rc4-40', 'rc4-128', 'aes-128', 'aes-256'];
    for (const cipher of ciphers) {
      corpus.push([`encrypted ${cipher}`, encryptedPdf(cipher)]);
      corpus.push([
        `encrypted ${cipher} link`,
        encryptedPdf(cipher, { withAction: false, linkTarget: 'javascript:app.alert(1)' }),
      ]);
    }
    corpus.push(['hidden open action', pdfWithHiddenOpenAction()]);
    let seen = 0;
    for (const [name, bytes] of corpus) {
      const found = await activeIn(ctx, bytes);
      if (found.length === 0) continue;
      seen++;
      expect([name, found, await allowed(bytes)]).toEqual([name, found, []]);
    }
    expect(seen).toBeGreaterThan(5);
  });

  test.for(secondReaderAttacks)('%s: a reader finds a script link, the gate refuses it', async ([, bytes], ctx) => {
    // a GoToR URL file in UTF-8 is pdf.js's (MuPDF opens it as a file:// url)
    expect([...(await activeIn(ctx, bytes)), ...(await activeInPdfJs(bytes))].length).toBeGreaterThan(0);
    expect(await allowed(bytes)).toEqual([]);
  });

  test.for(secondReaderControls)('%s: both readers find nothing, the gate allows it', async ([, bytes], ctx) => {
    expect(await activeIn(ctx, bytes)).toEqual([]);
    expect(await allowed(bytes)).toEqual(['application/pdf allowed', 'application/octet-stream allowed']);
  });
});
