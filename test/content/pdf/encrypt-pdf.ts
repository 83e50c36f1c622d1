// PDFs encrypted by the standard security handler with an empty user password (what "protected" PDFs that open
// without a prompt are): revisions 2 (RC4 40 bits), 3 (RC4 128), 4 (AESV2) and 6 (AESV3). The OpenAction's
// JavaScript action sits in an encrypted, compressed object stream and its script in an encrypted stream, so
// nothing active is readable without decrypting. pdf.js, which decrypts with the empty password, is the oracle.
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { rc4 } from '../../../src/content/pdf/pdf-decrypt.ts';

/** The encryption a fixture uses. */
export type PdfCipher = 'rc4-40' | 'rc4-128' | 'aes-128' | 'aes-256';

/** The script the fixture's OpenAction runs. */
export const encryptedScript = 'app.alert("decrypted")';

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');
const padding = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const md5 = (...parts: Buffer[]): Buffer => parts.reduce((h, p) => h.update(p), createHash('md5')).digest();
const sha = (algorithm: string, data: Buffer): Buffer => createHash(algorithm).update(data).digest();

function hash2B(input: Buffer): Buffer {
  let k = sha('sha256', input);
  let e = Buffer.alloc(1);
  let i = 0;
  while (i < 64 || (e[e.length - 1] ?? 0) > i - 32) {
    const cipher = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32));
    cipher.setAutoPadding(false);
    e = Buffer.concat([cipher.update(Buffer.concat(Array.from({ length: 64 }, () => k))), cipher.final()]);
    let sum = 0;
    for (let j = 0; j < 16; j++) sum += e[j] ?? 0;
    k = sha(['sha256', 'sha384', 'sha512'][sum % 3] ?? 'sha256', e);
    i++;
  }
  return k.subarray(0, 32);
}

interface Security {
  dict: string;
  encrypt: (data: Buffer, num: number, gen: number, pad?: boolean) => Buffer;
}

function security(cipher: PdfCipher, id: Buffer): Security {
  const hex = (b: Buffer): string => `<${b.toString('hex')}>`;
  if (cipher === 'aes-256') {
    const fileKey = randomBytes(32);
    const validation = randomBytes(8);
    const keySalt = randomBytes(8);
    const u = Buffer.concat([hash2B(validation), validation, keySalt]);
    const wrap = createCipheriv('aes-256-cbc', hash2B(keySalt), Buffer.alloc(16));
    wrap.setAutoPadding(false);
    const ue = Buffer.concat([wrap.update(fileKey), wrap.final()]);
    const o = randomBytes(48);
    const oe = randomBytes(32);
    const perms = randomBytes(16);
    return {
      dict: `<< /Filter /Standard /V 5 /R 6 /Length 256 /CF << /StdCF << /CFM /AESV3 /Length 32 /AuthEvent /DocOpen >> >> /StmF /StdCF /StrF /StdCF /O ${hex(o)} /U ${hex(u)} /OE ${hex(oe)} /UE ${hex(ue)} /Perms ${hex(perms)} /P -4 >>`,
      encrypt: (data, _num, _gen, pad) => aes('aes-256-cbc', fileKey, data, pad),
    };
  }
  const r = cipher === 'rc4-40' ? 2 : cipher === 'rc4-128' ? 3 : 4;
  const length = r === 2 ? 5 : 16;
  const o = md5(latin1('owner'), padding);
  const o32 = Buffer.concat([o, o]);
  const p = Buffer.alloc(4);
  p.writeInt32LE(-4);
  let key = md5(padding, o32, p, id);
  if (r >= 3) for (let i = 0; i < 50; i++) key = md5(key.subarray(0, length));
  key = key.subarray(0, length);
  let u: Buffer;
  if (r === 2) u = rc4(key, padding);
  else {
    let x = rc4(key, md5(padding, id));
    for (let i = 1; i <= 19; i++) x = rc4(Buffer.from(key.map((b) => b ^ i)), x);
    u = Buffer.concat([x, Buffer.alloc(16)]);
  }
  const objectKey = (num: number, gen: number): Buffer =>
    md5(
      key,
      Buffer.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, gen & 0xff, (gen >> 8) & 0xff]),
      r === 4 ? latin1('sAlT') : Buffer.alloc(0),
    ).subarray(0, Math.min(16, length + 5));
  const filters =
    r === 4
      ? '/V 4 /CF << /StdCF << /CFM /AESV2 /Length 16 /AuthEvent /DocOpen >> >> /StmF /StdCF /StrF /StdCF'
      : `/V ${r === 2 ? 1 : 2}`;
  return {
    dict: `<< /Filter /Standard ${filters} /R ${r} /Length ${length * 8} /O ${hex(o32)} /U ${hex(u)} /P -4 >>`,
    encrypt: (data, num, gen, pad) =>
      r === 4 ? aes('aes-128-cbc', objectKey(num, gen), data, pad) : rc4(objectKey(num, gen), data),
  };
}

// `pad: false`: whole blocks without the padding (a last byte over 16 is no padding, which pdf.js then keeps)
function aes(algorithm: string, key: Buffer, data: Buffer, pad = true): Buffer {
  const iv = randomBytes(16);
  const cipher = createCipheriv(algorithm, key, iv);
  cipher.setAutoPadding(pad);
  return Buffer.concat([iv, cipher.update(data), cipher.final()]);
}

/** An encrypted one-page PDF whose OpenAction runs `encryptedScript` (`withAction: false`: no OpenAction, the same objects otherwise); `linkTarget`: page 1 also holds a link whose URI action's target is that string, encrypted as every string is (`byReference`: in an object of its own, `/URI 10 0 R`; `unpadded`: aes without its padding, whole blocks). */
export function encryptedPdf(
  cipher: PdfCipher,
  options: { withAction?: boolean; linkTarget?: string; byReference?: boolean; unpadded?: boolean } = {},
): Buffer {
  const id = randomBytes(16);
  const sec = security(cipher, id);
  const parts: Buffer[] = [latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n')];
  const offsets = new Map<number, number>();
  let length = parts[0]?.length ?? 0;
  const add = (num: number | null, body: Buffer): void => {
    if (num !== null) offsets.set(num, length);
    parts.push(body);
    length += body.length;
  };
  const stream = (num: number, dict: string, plain: Buffer): Buffer => {
    const data = sec.encrypt(deflateSync(plain), num, 0);
    return Buffer.concat([
      latin1(`${num} 0 obj\n<< ${dict} /Filter /FlateDecode /Length ${data.length} >>\nstream\n`),
      data,
      latin1('\nendstream\nendobj\n'),
    ]);
  };
  const open = options.withAction === false ? '' : ' /OpenAction 4 0 R';
  add(1, latin1(`1 0 obj\n<< /Type /Catalog /Pages 2 0 R${open} >>\nendobj\n`));
  add(2, latin1('2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n'));
  const annots = options.linkTarget === undefined ? '' : ' /Annots [9 0 R]';
  add(3, latin1(`3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10]${annots} >>\nendobj\n`));
  if (options.linkTarget !== undefined) {
    const holder = options.byReference === true ? 10 : 9;
    const target = `<${sec.encrypt(latin1(options.linkTarget), holder, 0, options.unpadded !== true).toString('hex')}>`;
    const uri = options.byReference === true ? '10 0 R' : target;
    add(9, latin1(`9 0 obj\n<< /Type /Annot /Subtype /Link /Rect [0 0 9 9] /A << /S /URI /URI ${uri} >> >>\nendobj\n`));
    if (options.byReference === true) add(10, latin1(`10 0 obj\n${target}\nendobj\n`));
  }
  const index = '4 0 ';
  const action = options.withAction === false ? '<< /S /GoTo /D [3 0 R /Fit] >>' : '<< /S /JavaScript /JS 7 0 R >>';
  add(5, stream(5, `/Type /ObjStm /N 1 /First ${index.length}`, latin1(`${index}${action}`)));
  add(7, stream(7, '', latin1(encryptedScript)));
  add(8, latin1(`8 0 obj\n${sec.dict}\nendobj\n`));
  const size = options.linkTarget === undefined ? 9 : options.byReference === true ? 11 : 10;
  const xrefAt = length;
  const rows: Buffer[] = [];
  for (let n = 0; n < size; n++) {
    const row = Buffer.alloc(7);
    if (n === 4) {
      row[0] = 2;
      row.writeUInt32BE(5, 1);
    } else if (n === 6) {
      row[0] = 1;
      row.writeUInt32BE(xrefAt, 1);
    } else if (offsets.has(n)) {
      row[0] = 1;
      row.writeUInt32BE(offsets.get(n) ?? 0, 1);
    } else row.writeUInt16BE(0xffff, 5);
    rows.push(row);
  }
  const table = Buffer.concat(rows);
  add(
    6,
    Buffer.concat([
      latin1(
        `6 0 obj\n<< /Type /XRef /Size ${size} /W [1 4 2] /Root 1 0 R /Encrypt 8 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>] /Length ${table.length} >>\nstream\n`,
      ),
      table,
      latin1('\nendstream\nendobj\n'),
    ]),
  );
  add(null, latin1(`startxref\n${xrefAt}\n%%EOF\n`));
  return Buffer.concat(parts);
}
