// pdf.js 4 (the legacy build, which runs on Node 20) as the oracle for what a viewer finds in a PDF: the document's
// JavaScript actions (OpenAction and named scripts). Loaded on first use, for the PDF tables only.
import { createRequire } from 'node:module';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: PdfJs | undefined;

/** The JavaScript pdf.js would run when the document opens (`OpenAction` and document-level scripts); [] for none. */
export async function pdfJsOpenScripts(bytes: Buffer): Promise<string[]> {
  pdfjs ??= await import('pdfjs-dist/legacy/build/pdf.mjs');
  const require = createRequire(import.meta.url);
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    stopAtErrors: false,
    verbosity: 0,
    standardFontDataUrl: require.resolve('pdfjs-dist/package.json').replace('package.json', 'standard_fonts/'),
  });
  try {
    const doc = await task.promise;
    const actions = ((await doc.getJSActions()) ?? {}) as Record<string, string[]>;
    return Object.values(actions).flat();
  } finally {
    await task.destroy();
  }
}
