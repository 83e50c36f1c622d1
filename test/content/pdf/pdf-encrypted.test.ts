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
});

// the second reading's finding 6 (over-blocks): a target by reference in an encrypted file was denied unread, and an
// aes string that is no iv and whole padded blocks was denied as not decrypting; pdf.js reads both (an aes string is
// decrypted block by block as it fills, a partial last block dropped, padding removed only when it is padding)
describe('an encrypted link target is read as pdf.js reads it, by reference and whatever its length', () => {
  const aesCiphers: PdfCipher[] = ['aes-128', 'aes-256'];

  test.each(ciphers)('%s: a web link target given by reference is allowed', async (cipher) => {
    const bytes = encryptedPdf(cipher, {
      withAction: false,
      linkTarget: 'https://example.com/guide',
      byReference: true,
    });
    expect(bytes.toString('latin1')).toContain('/URI 10 0 R');
    expect(await activeInPdfJs(bytes)).toEqual([]);
    expect(await decideItem(bytes, 'application/pdf')).toMatchObject({ effect: 'allow', codes: [] });
  });

  test.each(ciphers)('%s: a javascript: link target given by reference is denied', async (cipher) => {
    const bytes = encryptedPdf(cipher, { withAction: false, linkTarget: 'javascript:app.alert(1)', byReference: true });
    expect(await activeInPdfJs(bytes)).toEqual(['link:javascript:app.alert(1)']);
    const { effect, messages } = await decideItem(bytes, 'application/pdf');
    expect(effect).toBe('deny');
    expect(messages).toMatch(/`\/URI` whose target by reference may be a `javascript:` string/);
  });

  test.each(aesCiphers)('%s: a target under 32 bytes reads empty to pdf.js and is allowed', async (cipher) => {
    const bytes = encryptedPdf(cipher, { withAction: false, linkTarget: 'https://example.com/guide' });
    // 5 bytes (no iv) and 24 bytes (an iv and half a block): pdf.js hands on an empty target
    for (const short of ['0102030405', 'aa'.repeat(24)]) {
      const text = bytes.toString('latin1').replace(/\/URI <[0-9a-f]+>/, `/URI <${short}>`);
      const file = Buffer.from(text, 'latin1');
      expect(await activeInPdfJs(file)).toEqual([]);
      expect(await decideItem(file, 'application/pdf')).toMatchObject({ effect: 'allow', codes: [] });
    }
  });

  test.each(aesCiphers)('%s: whole blocks whose last byte is no padding are read whole', async (cipher) => {
    // 32 bytes ending in `/`: pdf.js keeps the last block as it stands
    const web = encryptedPdf(cipher, {
      withAction: false,
      linkTarget: 'https://example.com/guide///////',
      unpadded: true,
    });
    expect(await activeInPdfJs(web)).toEqual([]);
    expect(await decideItem(web, 'application/pdf')).toMatchObject({ effect: 'allow', codes: [] });
    const script = encryptedPdf(cipher, {
      withAction: false,
      linkTarget: 'javascript:app.alert(1)/////////',
      unpadded: true,
    });
    expect(await activeInPdfJs(script)).toEqual(['link:javascript:app.alert(1)/////////']);
    expect((await decideItem(script, 'application/pdf')).effect).toBe('deny');
  });

  test.each(aesCiphers)('%s: a target that is no aes string is also read as written', async (cipher) => {
    // pdf.js reads 23 bytes as empty; MuPDF leaves a string that is no iv and whole blocks as written
    const bytes = encryptedPdf(cipher, { withAction: false, linkTarget: 'https://example.com/guide' });
    const text = bytes.toString('latin1').replace(/\/URI <[0-9a-f]+>/, '/URI (javascript:app.alert(1))');
    const { effect, messages } = await decideItem(Buffer.from(text, 'latin1'), 'application/pdf');
    expect(effect).toBe('deny');
    expect(messages).toMatch(/`\/URI` with a `javascript:` target/);
  });

  test('strings are read decrypted only for a target by reference, each charged: a file of strings is withheld', async () => {
    const base = encryptedPdf('aes-128', { withAction: false }).toString('latin1');
    const strings = '(a) '.repeat(300_000);
    const file = (uri: string): Buffer =>
      Buffer.from(base.replace('2 0 obj\n', `11 0 obj\n[${strings}<< /URI ${uri} >>]\nendobj\n2 0 obj\n`), 'latin1');
    // a target written in place needs none of them decrypted
    expect(await decideItem(file('(https://example.com/)'), 'application/pdf')).toMatchObject({ effect: 'allow' });
    const { effect, codes } = await decideItem(file('12 0 R'), 'application/pdf');
    expect(effect).toBe('partial');
    expect(codes).toEqual(['content.too-complex']);
  });

  test('a string no object holds is denied: its key is unknown', async () => {
    const text = encryptedPdf('aes-128', { withAction: false })
      .toString('latin1')
      .replace('%PDF-1.7\n', '%PDF-1.7\n<< /A << /S /URI /URI <00112233445566778899aabbccddeeff> >> >>\n');
    const { effect, messages } = await decideItem(Buffer.from(text, 'latin1'), 'application/pdf');
    expect(effect).toBe('deny');
    expect(messages).toMatch(/stands in no object/);
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
