// The differential property of the PDF reader consumer against pdf.js (pdf-differential.ts), a fixed-seed run: every
// generated document pdf.js finds something active in is refused by the gate's pdf-reader adapter alone, sent as a
// pdf and as the bytes of an untyped download.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { decideBody, profileGate } from '../consumers/profile-gate.ts';
import { activeInPdfJs, generatedPdf, type PdfShape, pdfShapes } from './pdf-differential.ts';

const pdfReaderOnly = profileGate(['pdf-reader'], ['application/octet-stream']);

async function verdicts(bytes: Buffer): Promise<string[]> {
  const blob = { blob: bytes.toString('base64') };
  const out: string[] = [];
  for (const [uri, mime] of [
    ['guide://docs/report.pdf', 'application/pdf'],
    ['guide://docs/download', 'application/octet-stream'],
  ] as const) {
    const v = await decideBody(pdfReaderOnly, uri, mime, blob);
    if (v.effect === 'allow') out.push(`${mime} allowed`);
  }
  return out;
}

describe('pdf.js against the pdf-reader adapter', () => {
  test('a shape of each place is active in pdf.js where it should be (the oracle sees what it is asked)', async () => {
    const base: Omit<PdfShape, 'place'> = {
      script: 'literal',
      target: 'literal',
      scheme: 'javascript:',
      escapeNames: false,
      byReference: false,
      layout: 'xref',
    };
    for (const place of [
      'open-action',
      'names-tree',
      'page-aa',
      'widget-aa',
      'link-uri',
      'gotor',
      'attachment',
      'xfa',
    ] as const)
      expect([place, (await activeInPdfJs(generatedPdf({ ...base, place }))).length > 0]).toEqual([place, true]);
    for (const place of ['web-link', 'none'] as const)
      expect([place, await activeInPdfJs(generatedPdf({ ...base, place }))]).toEqual([place, []]);
  });

  test('whenever pdf.js finds something active, the gate does not allow the bytes (fixed seed)', {
    timeout: 600_000,
  }, async () => {
    let active = 0;
    await fc.assert(
      fc.asyncProperty(pdfShapes(), async (shape) => {
        const bytes = generatedPdf(shape);
        const found = await activeInPdfJs(bytes);
        if (found.length === 0) return;
        active++;
        expect(await verdicts(bytes), `${JSON.stringify(shape)}: ${found.join(', ')}`).toEqual([]);
      }),
      { seed: 20261205, numRuns: 400 },
    );
    // the generator reaches pdf.js's active places most of the time
    expect(active).toBeGreaterThan(150);
  });

  // found by the property (issue 41 item 3): pdf.js hands a GoToR action's file on as the link's url
  test('a GoToR file target with a script scheme is refused; annotation flags beside script text are not a target', async () => {
    const base: PdfShape = {
      place: 'gotor',
      script: 'literal',
      target: 'literal',
      scheme: 'javascript:',
      escapeNames: false,
      byReference: false,
      layout: 'xref',
    };
    for (const target of ['literal', 'hex', 'octal', 'continued'] as const) {
      const bytes = generatedPdf({ ...base, target });
      expect((await activeInPdfJs(bytes))[0]).toMatch(/^link:javascript:app\.alert\(1\)/);
      expect(await verdicts(bytes)).toEqual([]);
    }
    // `/F 4` is an annotation's flags, not a reference: a page that shows `javascript:` as text stays allowed
    const text = generatedPdf({ ...base, place: 'web-link' })
      .toString('latin1')
      .replace('/Subtype /Link', '/Subtype /Link /F 4')
      .replace('(hello) Tj', '(javascript:void 0) Tj');
    const shown = Buffer.from(text, 'latin1');
    expect(await activeInPdfJs(shown)).toEqual([]);
    expect(await verdicts(shown)).toEqual(['application/pdf allowed', 'application/octet-stream allowed']);
  });
});
