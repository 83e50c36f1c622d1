// The gate's side of the second-reader PDFs (second-reader-pdfs.ts), without the readers: a `/URI /Base` with a
// script scheme (poppler and MuPDF join it to relative targets) and link targets written with a UTF-16LE or UTF-8
// byte order mark (MuPDF decodes both) are refused by the pdf-reader adapter; the benign forms are allowed. The
// readers themselves are the oracle in second-reader-differential.real-host.test.ts.
import { describe, expect, test } from 'vitest';
import { decideBody, profileGate } from '../consumers/profile-gate.ts';
import { secondReaderAttacks, secondReaderControls } from './second-reader-pdfs.ts';

const pdfReaderOnly = profileGate(['pdf-reader']);
const judge = (bytes: Buffer) =>
  decideBody(pdfReaderOnly, 'guide://docs/report.pdf', 'application/pdf', { blob: bytes.toString('base64') });

describe('link targets as poppler and MuPDF resolve them', () => {
  test.for(secondReaderAttacks)('%s is refused as active', async ([, bytes]) => {
    const verdict = await judge(bytes);
    expect(verdict.effect).toBe('deny');
    expect(verdict.why).toMatch(/content\.executable: .*`\/(URI|Base|F)`.* with a `javascript:` target/);
  });

  test.for(secondReaderControls)('%s is allowed', async ([, bytes]) => {
    expect((await judge(bytes)).effect).toBe('allow');
  });
});
