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

/**
 * Everything active pdf.js finds in the document: its open scripts (`script:`), page 1's annotations that launch
 * or navigate to something other than a web page (`link:` with the raw target) or that pdf.js does not render
 * itself (`annotation:` RichMedia, FileAttachment…), attachments (`attachment:`) and an XFA form (`xfa`).
 */
export async function pdfJsActiveContent(bytes: Buffer): Promise<string[]> {
  pdfjs ??= await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    const found: string[] = [];
    const actions = ((await doc.getJSActions()) ?? {}) as Record<string, string[]>;
    for (const script of Object.values(actions).flat()) found.push(`script:${script}`);
    const page = await doc.getPage(1);
    for (const annotation of (await page.getAnnotations()) as Record<string, unknown>[]) {
      const target = annotation.unsafeUrl;
      if (typeof target === 'string' && !/^https?:/i.test(target)) found.push(`link:${target}`);
      const subtype = String(annotation.subtype);
      if (subtype !== 'Link' && subtype !== 'Widget') found.push(`annotation:${subtype}`);
    }
    for (const name of Object.keys((await doc.getAttachments()) ?? {})) found.push(`attachment:${name}`);
    const { info } = (await doc.getMetadata()) as unknown as { info: Record<string, unknown> };
    if (info.IsXFAPresent === true) found.push('xfa');
    return found;
  } finally {
    await task.destroy();
  }
}
