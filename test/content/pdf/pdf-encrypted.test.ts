// Encrypted PDFs that open without a password (issue 41 item 5): every viewer decrypts them with the empty user
// password and pdf.js runs their OpenAction script, so the gate decrypts and inspects them as well: the script
// hidden in an encrypted object stream is denied, the same file without it is allowed (it was withheld as
// uninterpretable before), and a file that needs a real password stays withheld.
import { describe, expect, test } from 'vitest';
import { scanPdf } from '../../../src/content/pdf/pdf-active.ts';
import { decideItem } from '../decide-item.ts';
import { encryptedPdf, encryptedScript, type PdfCipher } from './encrypt-pdf.ts';
import { activeInPdfJs } from './pdf-differential.ts';
import { pdfJsOpenScripts } from './pdfjs-oracle.ts';

const ciphers: PdfCipher[] = ['rc4-40', 'rc4-128', 'aes-128', 'aes-256'];

describe('pdf encrypted with an empty user password is decrypted and inspected', () => {
  test.each(ciphers)('%s: the script pdf.js runs is found and denied', async (cipher) => {
    const bytes = encryptedPdf(cipher);
    expect(await pdfJsOpenScripts(bytes)).toContain(encryptedScript);
    // nothing active is readable in the clear
    expect(bytes.toString('latin1')).not.toMatch(/JavaScript|\/JS\b/);
    expect(scanPdf(bytes).active).toMatch(/JavaScript/);
    const { effect, codes } = await decideItem(bytes, 'application/pdf');
    expect(effect).toBe('deny');
    expect(codes).toContain('content.executable');
  });

  test.each(ciphers)('%s: the same file without the action is allowed', async (cipher) => {
    const bytes = encryptedPdf(cipher, { withAction: false });
    expect(await pdfJsOpenScripts(bytes)).toEqual([]);
    expect(await decideItem(bytes, 'application/pdf')).toMatchObject({ effect: 'allow', codes: [] });
  });

  test('a file that needs a user password stays withheld as uninterpretable', async () => {
    const bytes = encryptedPdf('aes-128', { withAction: false });
    // another /U: the empty password no longer opens it
    const text = bytes
      .toString('latin1')
      .replace(/\/U <([0-9a-f]{2})/, (_, b: string) => `/U <${b === '00' ? '01' : '00'}`);
    const locked = Buffer.from(text, 'latin1');
    const { effect, messages } = await decideItem(locked, 'application/pdf');
    expect(effect).toBe('partial');
    expect(messages).toMatch(/encrypted pdf: .*needs a user password/);
  });

  test('a stream that does not decrypt is uninterpretable, not skipped', async () => {
    const bytes = encryptedPdf('aes-256', { withAction: false });
    const text = bytes.toString('latin1');
    const at = text.indexOf('stream\n', text.indexOf('7 0 obj')) + 7;
    const broken = Buffer.from(bytes);
    broken[at + 20] = (broken[at + 20] ?? 0) ^ 0xff;
    expect(scanPdf(broken).uninterpretable).toMatch(/does not (?:decrypt|inflate)/);
  });
});

// a fresh round (issue 41 item 3): a link's URI target is a string, and in an encrypted file every string is
// encrypted with its object's key, so `javascript:` is not readable in the clear; pdf.js decrypts it and hands it on
// as the link's url
describe('an encrypted link target is read decrypted', () => {
  test.each(ciphers)('%s: a javascript: link target pdf.js hands on is denied', async (cipher) => {
    const bytes = encryptedPdf(cipher, { withAction: false, linkTarget: 'javascript:app.alert(1)' });
    expect(await activeInPdfJs(bytes)).toEqual(['link:javascript:app.alert(1)']);
    expect(bytes.toString('latin1')).not.toMatch(/javascript/i);
    const { effect, messages } = await decideItem(bytes, 'application/pdf');
    expect(effect).toBe('deny');
    expect(messages).toMatch(/`\/URI` with a `javascript:` target/);
  });

  test.each(ciphers)('%s: a web link target is allowed', async (cipher) => {
    const bytes = encryptedPdf(cipher, { withAction: false, linkTarget: 'https://example.com/guide' });
    expect(await activeInPdfJs(bytes)).toEqual([]);
    expect(await decideItem(bytes, 'application/pdf')).toMatchObject({ effect: 'allow', codes: [] });
  });

  test('a link target that does not decrypt is denied, not read as inert', async () => {
    const bytes = encryptedPdf('aes-128', { withAction: false, linkTarget: 'https://example.com/guide' });
    // a target of 5 bytes is no aes string (an iv and whole blocks)
    const text = bytes.toString('latin1').replace(/\/URI <[0-9a-f]+>/, '/URI <0102030405>');
    const { effect, messages } = await decideItem(Buffer.from(text, 'latin1'), 'application/pdf');
    expect(effect).toBe('deny');
    expect(messages).toMatch(/encrypted target string does not decrypt/);
  });
});

// a second reading: pdf.js picks the strings' crypt filter by `/StrF` and the streams' by `/StmF`; `/StrF /Identity`
// leaves strings in the clear, so a `javascript:` target written plainly is what pdf.js hands on (decrypting it with
// the streams' cipher garbled it, and the file was allowed)
describe('strings are decrypted by their own crypt filter, `/StrF`', () => {
  const withStrF = ciphers.filter((c) => encryptedPdf(c, { withAction: false }).includes('/StrF /StdCF'));

  test('every cipher with crypt filters is tried', () => {
    expect(withStrF).toEqual(expect.arrayContaining(['aes-128', 'aes-256']));
  });

  test.each(withStrF)('%s with `/StrF /Identity`: a plain javascript: target pdf.js hands on is denied', async (c) => {
    const bytes = encryptedPdf(c, { withAction: false, linkTarget: 'https://example.com/guide' });
    const text = bytes
      .toString('latin1')
      .replace('/StrF /StdCF', '/StrF /Identity')
      .replace(/\/URI <[0-9a-f]+>/, '/URI (javascript:app.alert(1))');
    const plain = Buffer.from(text, 'latin1');
    expect(await activeInPdfJs(plain)).toEqual(['link:javascript:app.alert(1)']);
    const { effect, messages } = await decideItem(plain, 'application/pdf');
    expect(effect).toBe('deny');
    expect(messages).toMatch(/`\/URI` with a `javascript:` target/);
  });
});
