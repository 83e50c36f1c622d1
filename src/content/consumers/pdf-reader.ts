// PDF readers (pdf.js, Acrobat): the object layer and inflated streams, read as pdf.js reads them (pdf/). A PDF is
// recognised by a `%PDF-` header, or inside an image by PDF structure anywhere (sniff-pdf.ts).
import { pdfFindings } from '../sniff-pdf.ts';
import type { ConsumerFinding, ContentConsumer } from './content-consumer.ts';

/** PDF readers: script, launch, attachments, forms and rich media in the object layer and streams. */
export const pdfReaderConsumer: ContentConsumer = {
  id: 'pdf-reader',
  optIn: false,
  coverage: [
    {
      consumer: 'PDF readers (pdf.js, Acrobat)',
      reaches:
        'a `%PDF-` header in the first KiB; in an image, any PDF structure (`startxref`, `trailer`, `%%EOF`) anywhere',
      judged:
        'the object layer and inflated streams (object streams, objects hidden in stream data 4 deep) for script, launch, attachments, forms, rich media; empty-password encryption (RC4, AESV2, AESV3) decrypted first',
      notCovered: 'filters other than FlateDecode on object streams (withheld), files that need a password (withheld)',
    },
  ],
  leftOut:
    'a pdf is judged by its type only: OpenAction javascript, launch actions and attachments pass, and pdfs inside images are not looked for',
  readsText: (body) => body.kind === 'pdf',
  judgeText: (body, budget) => {
    const options = body.maxInflateBytes === undefined ? {} : { maxInflateBytes: body.maxInflateBytes };
    const pdf = pdfFindings(body.bytes, options, budget);
    const findings: ConsumerFinding[] = [];
    if (pdf.active !== null) findings.push({ slot: 'active', message: pdf.active });
    if (pdf.uninterpretable !== null) findings.push({ slot: 'uninterpretable', message: pdf.uninterpretable });
    return findings;
  },
};
