// The PDF standard security handler (ISO 32000-2 §7.6.4) for the empty user password: what pdf.js and every
// viewer do when a file opens without asking for one. Revisions 2–4 (RC4 40–128 bits, AESV2) and 5–6 (AESV3);
// the key is checked against `/U` first, so a file that needs a real password stays uninspectable.
import { createCipheriv, createDecipheriv, createHash, type Decipher } from 'node:crypto';
import { numbersBefore } from './pdf-object-header.ts';
import type { StringDecipher } from './pdf-uri-target.ts';
import { type PdfValue, entry, nameOf, readPdfValue } from './pdf-value.ts';

/** Decrypts one stream's data for object `num`/`gen`; null when it does not decrypt (bad length or padding). */
export type StreamDecryptor = (data: Buffer, num: number, gen: number) => Buffer | null;

/**
 * How an encrypted file's strings read (`/StrF`): a decipher for a string of object `num`/`gen`, as pdf.js reads it
 * (AES: the first 16 bytes are the iv, each whole block is decrypted as it fills, a partial last block is dropped, so
 * a string under 32 bytes reads empty; it never fails), and whether its bytes as written are a reading too (AES:
 * MuPDF leaves a string whose length is no iv and whole blocks as it stands).
 */
export interface StringCipher {
  open: (num: number, gen: number) => StringDecipher;
  rawToo: boolean;
}

/**
 * What opening an encrypted PDF with the empty user password gives: a decryptor for streams (by `/StmF`) and the
 * strings' cipher (by `/StrF`, as pdf.js picks them), or why not.
 */
export type PdfOpening =
  | { ok: true; decrypt: StreamDecryptor; strings: StringCipher; encryptMetadata: boolean }
  | { ok: false; why: string };

type Cipher = 'rc4' | 'aesv2' | 'aesv3' | 'identity';
const asIs: StreamDecryptor = (data) => data;

const padding = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');

/** Opens the PDF in latin1 text `s` with the empty user password, from its last `/Encrypt` entry and `/ID`. */
export function openEncryptedPdf(s: string): PdfOpening {
  const dict = encryptionDictionary(s);
  if (dict === null) return { ok: false, why: 'its encryption dictionary cannot be read' };
  if (nameOf(entry(dict, 'Filter')) !== 'Standard')
    return { ok: false, why: 'it uses a security handler other than the standard one' };
  const v = numberOf(entry(dict, 'V')) ?? 0;
  const r = numberOf(entry(dict, 'R')) ?? 0;
  const o = bytesOf(entry(dict, 'O'));
  const u = bytesOf(entry(dict, 'U'));
  const p = numberOf(entry(dict, 'P'));
  const encryptMetadata = entry(dict, 'EncryptMetadata') !== false;
  if (o === null || u === null || p === null)
    return { ok: false, why: 'its encryption dictionary lacks `/O`, `/U` or `/P`' };
  const method = cipherOf(dict, v, 'StmF');
  const stringMethod = cipherOf(dict, v, 'StrF');
  if (method === null || stringMethod === null)
    return { ok: false, why: `its crypt filter (v${v}) is not one of rc4, aesv2, aesv3` };
  if (r === 5 || r === 6) {
    const ue = bytesOf(entry(dict, 'UE'));
    if (u.length < 48 || ue === null || ue.length < 32) return { ok: false, why: 'its `/U` or `/UE` is too short' };
    const hash = (salt: Buffer): Buffer => (r === 5 ? sha('sha256', salt) : hash2B(salt));
    if (!hash(u.subarray(32, 40)).equals(u.subarray(0, 32))) return { ok: false, why: 'it needs a user password' };
    const intermediate = hash(u.subarray(40, 48));
    const decipher = createDecipheriv('aes-256-cbc', intermediate, Buffer.alloc(16));
    decipher.setAutoPadding(false);
    const fileKey = Buffer.concat([decipher.update(ue.subarray(0, 32)), decipher.final()]);
    const by = (m: Cipher): StreamDecryptor => (m === 'identity' ? asIs : (data) => aes('aes-256-cbc', fileKey, data));
    const strings: StringCipher = stringMethod === 'identity' ? clearStrings : aesStrings('aes-256-ecb', () => fileKey);
    return { ok: true, decrypt: by(method), strings, encryptMetadata };
  }
  if (r < 2 || r > 4) return { ok: false, why: `its revision ${r} is not one of 2 to 6` };
  const id = firstId(s);
  if (id === null) return { ok: false, why: 'its trailer has no `/ID`' };
  const length = r === 2 ? 5 : Math.min(16, Math.max(5, Math.floor((numberOf(entry(dict, 'Length')) ?? 40) / 8)));
  const pBytes = Buffer.alloc(4);
  pBytes.writeInt32LE(p | 0);
  let key = md5(
    padding,
    o.subarray(0, 32),
    pBytes,
    id,
    r >= 4 && !encryptMetadata ? Buffer.from([255, 255, 255, 255]) : Buffer.alloc(0),
  );
  if (r >= 3) for (let i = 0; i < 50; i++) key = md5(key.subarray(0, length));
  key = key.subarray(0, length);
  if (!userKeyMatches(key, r, u, id)) return { ok: false, why: 'it needs a user password' };
  const objectKey = (num: number, gen: number, m: Cipher): Buffer => {
    const salt = Buffer.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, gen & 0xff, (gen >> 8) & 0xff]);
    const aesSalt = m === 'aesv2' ? Buffer.from('sAlT', 'latin1') : Buffer.alloc(0);
    return md5(key, salt, aesSalt).subarray(0, Math.min(16, length + 5));
  };
  const by = (m: Cipher): StreamDecryptor => {
    if (m === 'identity') return asIs;
    if (m === 'aesv2') return (data, num, gen) => aes('aes-128-cbc', objectKey(num, gen, m), data);
    return (data, num, gen) => rc4(objectKey(num, gen, m), data);
  };
  const strings: StringCipher =
    stringMethod === 'identity'
      ? clearStrings
      : stringMethod === 'aesv2'
        ? aesStrings('aes-128-ecb', (num, gen) => objectKey(num, gen, 'aesv2'))
        : rc4Strings((num, gen) => objectKey(num, gen, 'rc4'));
  return { ok: true, decrypt: by(method), strings, encryptMetadata };
}

const clearStrings: StringCipher = { open: () => ({ unit: 1, next: (data) => data }), rawToo: false };

// the last object's value, made again only when the object changes (a file's strings come object by object)
function perObject<T>(make: (num: number, gen: number) => T): (num: number, gen: number) => T {
  let last: { num: number; gen: number; value: T } | null = null;
  return (num, gen) => {
    if (last === null || last.num !== num || last.gen !== gen) last = { num, gen, value: make(num, gen) };
    return last.value;
  };
}

// AES-CBC strings read as pdf.js's `decryptBlock` reads them: the iv, then each whole block (xor the one before)
function aesStrings(
  algorithm: 'aes-128-ecb' | 'aes-256-ecb',
  keyOf: (num: number, gen: number) => Buffer,
): StringCipher {
  const blockCipher = perObject((num, gen): Decipher => {
    const ecb = createDecipheriv(algorithm, keyOf(num, gen), null);
    ecb.setAutoPadding(false);
    return ecb;
  });
  const open = (num: number, gen: number): StringDecipher => {
    const previous = new Uint8Array(16); // the iv, then the last cipher block
    let started = false;
    const none = new Uint8Array(0);
    return {
      unit: 16,
      next: (block) => {
        if (!started) {
          started = true;
          previous.set(block);
          return none;
        }
        const plain = blockCipher(num, gen).update(block);
        for (let i = 0; i < 16; i++) plain[i] = (plain[i] ?? 0) ^ (previous[i] ?? 0);
        previous.set(block);
        return plain;
      },
    };
  };
  return { open, rawToo: true };
}

// RC4 strings: the object's key schedule made once, copied for each string
function rc4Strings(keyOf: (num: number, gen: number) => Buffer): StringCipher {
  const scheduleOf = perObject((num, gen) => rc4State(keyOf(num, gen)));
  return { open: (num, gen) => rc4Stream(scheduleOf(num, gen).slice()), rawToo: false };
}

// RC4 as a keystream over the bytes as they come, from a key schedule it consumes
function rc4Stream(state: Uint8Array): StringDecipher & { whole: (data: Buffer) => Buffer } {
  let i = 0;
  let j = 0;
  const one = new Uint8Array(1);
  const byte = (b: number): number => {
    i = (i + 1) & 0xff;
    j = (j + (state[i] ?? 0)) & 0xff;
    const t = state[i] ?? 0;
    state[i] = state[j] ?? 0;
    state[j] = t;
    return b ^ (state[((state[i] ?? 0) + t) & 0xff] ?? 0);
  };
  return {
    unit: 1,
    next: (data) => {
      one[0] = byte(data[0] ?? 0);
      return one;
    },
    whole: (data) => {
      const out = Buffer.alloc(data.length);
      for (let n = 0; n < data.length; n++) out[n] = byte(data[n] ?? 0);
      return out;
    },
  };
}

// V1/V2: RC4; V4: the named crypt filter's method (`/StmF` for streams, `/StrF` for strings, Identity when absent);
// V5: AESV3 (checked by the revision)
function cipherOf(dict: PdfValue, v: number, which: 'StmF' | 'StrF'): Cipher | null {
  if (v === 1 || v === 2) return 'rc4';
  if (v !== 4 && v !== 5) return null;
  const filter = nameOf(entry(dict, which)) ?? 'Identity';
  if (filter === 'Identity') return 'identity';
  const method = nameOf(entry(entry(entry(dict, 'CF'), filter), 'CFM'));
  if (method === 'V2') return 'rc4';
  if (method === 'AESV2') return 'aesv2';
  if (method === 'AESV3') return v === 5 ? 'aesv3' : null;
  if (method === 'None') return 'identity';
  return null;
}

function userKeyMatches(key: Buffer, r: number, u: Buffer, id: Buffer): boolean {
  if (r === 2) return rc4(key, padding).equals(u.subarray(0, 32));
  let x = rc4(key, md5(padding, id));
  for (let i = 1; i <= 19; i++) x = rc4(Buffer.from(key.map((b) => b ^ i)), x);
  return x.equals(u.subarray(0, 16));
}

// ISO 32000-2 algorithm 2.B (revision 6), for the empty password and no owner data
function hash2B(salt: Buffer): Buffer {
  let k = sha('sha256', salt);
  for (let round = 0; ; round++) {
    const k1 = Buffer.concat(Array.from({ length: 64 }, () => k));
    const cipher = createCipheriv('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32));
    cipher.setAutoPadding(false);
    const e = Buffer.concat([cipher.update(k1), cipher.final()]);
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i] ?? 0;
    k = sha((['sha256', 'sha384', 'sha512'] as const)[sum % 3] ?? 'sha256', e);
    if (round >= 63 && (e[e.length - 1] ?? 0) <= round - 31) break;
  }
  return k.subarray(0, 32);
}

function aes(algorithm: 'aes-128-cbc' | 'aes-256-cbc', key: Buffer, data: Buffer): Buffer | null {
  if (data.length < 32 || data.length % 16 !== 0) return data.length === 16 ? Buffer.alloc(0) : null;
  const decipher = createDecipheriv(algorithm, key, data.subarray(0, 16));
  try {
    return Buffer.concat([decipher.update(data.subarray(16)), decipher.final()]);
  } catch {
    // bad padding: the stream does not decrypt, which the caller reports (uninterpretable)
    return null;
  }
}

/** RC4 (ARCFOUR), written out: OpenSSL 3 keeps it in the legacy provider node does not load. */
export function rc4(key: Buffer, data: Buffer): Buffer {
  return rc4Stream(rc4State(key)).whole(data);
}

// the key schedule
function rc4State(key: Buffer): Uint8Array {
  const state = new Uint8Array(256);
  for (let i = 0; i < 256; i++) state[i] = i;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + (state[i] ?? 0) + (key[i % key.length] ?? 0)) & 0xff;
    [state[i], state[j]] = [state[j] ?? 0, state[i] ?? 0];
  }
  return state;
}

function md5(...parts: Buffer[]): Buffer {
  const hash = createHash('md5');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

function sha(algorithm: 'sha256' | 'sha384' | 'sha512', data: Buffer): Buffer {
  return createHash(algorithm).update(data).digest();
}

// the last `/Encrypt` entry (the newest revision's trailer or xref stream), followed to its object when indirect
function encryptionDictionary(s: string): PdfValue | null {
  const at = s.lastIndexOf('/Encrypt');
  if (at === -1) return null;
  const read = readPdfValue(s, at + '/Encrypt'.length);
  if (read === null) return null;
  const value = read.value;
  if (value instanceof Map) return value;
  if (value === null || typeof value !== 'object' || !('ref' in value)) return null;
  const [num, gen] = value.ref;
  // the last header of that object (a later revision replaces an earlier one), read back from each `obj`
  let last = -1;
  for (let at = s.indexOf('obj'); at !== -1; at = s.indexOf('obj', at + 3)) {
    const header = numbersBefore(s, Math.max(0, at - 24), at);
    if (header !== null && header[0] === num && header[1] === gen) last = at + 3;
  }
  if (last === -1) return null;
  const object = readPdfValue(s, last);
  return object?.value instanceof Map ? object.value : null;
}

function firstId(s: string): Buffer | null {
  for (let at = s.lastIndexOf('/ID'); at !== -1; at = at === 0 ? -1 : s.lastIndexOf('/ID', at - 1)) {
    const read = readPdfValue(s, at + 3);
    if (read !== null && Array.isArray(read.value)) {
      const first = read.value[0];
      if (Buffer.isBuffer(first)) return first;
    }
  }
  return null;
}

function numberOf(value: PdfValue | undefined): number | null {
  return typeof value === 'number' ? value : null;
}

function bytesOf(value: PdfValue | undefined): Buffer | null {
  return Buffer.isBuffer(value) ? value : null;
}
