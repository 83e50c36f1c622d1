// PDF readers (pdf.js, poppler, MuPDF, Acrobat): the object layer and inflated streams, read as pdf.js reads them (pdf/). A PDF is
// recognised by a `%PDF-` header, or inside an image by PDF structure anywhere (sniff-pdf.ts).
import { holdsPdfStructure, pdfFindings, pdfInside } from '../sniff-pdf.ts';
import type { BinaryBody, BinaryReading, ConsumerFinding, ContentConsumer } from './content-consumer.ts';
import { foundIn } from './content-consumer.ts';

/** Leading bytes in which PDF readers look for the `%PDF-` header, bytes. */
const headerSearchBytes = 1024;

function headerAt(bytes: Buffer): number {
  return bytes.subarray(0, headerSearchBytes).indexOf('%PDF-', 0, 'latin1');
}

function inflateOptions(body: { maxInflateBytes: number | undefined }): { maxInflateBytes?: number } {
  return body.maxInflateBytes === undefined ? {} : { maxInflateBytes: body.maxInflateBytes };
}

/** How a PDF reader reads binary bodies: a PDF document, and a PDF carried in an image. */
const pdfBinary = {
  document: (body: BinaryBody, budget) => {
    const pdf = pdfFindings(body.bytes, inflateOptions(body), budget);
    return [...foundIn('active', pdf.active), ...foundIn('uninterpretable', pdf.uninterpretable)];
  },
  carried: (body: BinaryBody, budget) =>
    foundIn('active', pdfInside(body.kind, body.bytes, inflateOptions(body), budget)),
} as const satisfies Record<string, BinaryReading>;

/** PDF readers: script, launch, attachments, forms and rich media in the object layer and streams. */
export const pdfReaderConsumer = {
  id: 'pdf-reader',
  optIn: false,
  coverage: [
    {
      consumer: 'PDF readers (pdf.js, poppler, MuPDF, Acrobat)',
      reaches:
        'a `%PDF-` header in the first KiB, of binary or of text; in an image, any PDF structure (`startxref`, `trailer`, `%%EOF`) anywhere; in text, what pdf.js opens a document by with no header: an object header (`N G obj`) or a `trailer` keyword before a dictionary, anywhere (a `trailer` word in prose, `startxref` or `%%EOF` alone give it no catalog)',
      judged:
        "the object layer and inflated streams (object streams, object streams stored in object streams 4 deep, objects hidden in stream data 4 deep) for script, launch, attachments, forms, rich media, `javascript:` link targets (of a URI action, a GoToR file `/F` pdf.js hands on as the link url, or the catalog's `/URI /Base` poppler and MuPDF put before a relative target; strings with a UTF-16BE, UTF-16LE or UTF-8 byte order mark decoded as MuPDF decodes them) and a font `/FontMatrix` that is not an inline array of numbers (pdf.js before 4.2.67 runs it as script, CVE-2024-4367); object streams through chains of ASCIIHex, ASCII85, FlateDecode, LZWDecode (`/EarlyChange`) and RunLengthDecode, with the PNG (10–15) and TIFF (2) predictors `/DecodeParms` names, as pdf.js undoes them, within the inflate budget; empty-password encryption (RC4, AESV2, AESV3) decrypted first",
      notCovered:
        'object streams with other filters (DCT, JPX, CCITTFax, JBIG2), predictors pdf.js refuses, parameters by reference or rows over 1 MiB, decoding past the inflate budget, nested deeper than the cap (all withheld); files that need a password (withheld)',
    },
  ],
  leftOut:
    'a pdf is judged by its type only: OpenAction javascript, launch actions and attachments pass, and pdfs inside images are not looked for',
  // a pdf reader finds the header anywhere in the first KiB (pdf.js, Acrobat): text with a line before it is a pdf
  // too; past the first KiB pdf.js still opens it by its trailer (a pdf after 4 KiB of notes runs its OpenAction)
  // PDF structure needs a `<<` dictionary: text with no `<` is searched no further (sniff-pdf.ts: what pdf.js needs)
  readsText: (body) =>
    body.kind === 'pdf' || headerAt(body.bytes) !== -1 || (body.mayHold(0x3c) && holdsPdfStructure(body.bytes)),
  judgeText: (body, budget) => {
    const pdf = pdfFindings(body.bytes.subarray(Math.max(0, headerAt(body.bytes))), inflateOptions(body), budget);
    const findings: ConsumerFinding[] = [];
    if (pdf.active !== null) findings.push({ slot: 'active', message: pdf.active });
    // text that holds a header past its start is a document first: only what a reader would run withholds it
    if (pdf.uninterpretable !== null && body.kind === 'pdf')
      findings.push({ slot: 'uninterpretable', message: pdf.uninterpretable });
    return findings;
  },
  binaryReadings: pdfBinary,
} as const satisfies ContentConsumer;
