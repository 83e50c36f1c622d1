import { createHash, createPublicKey, type KeyObject, verify as cryptoVerify } from 'node:crypto';
import { SshReader, SshWireError, SshWriter } from './ssh-wire.ts';

/** The SSH key types linkgate verifies: Ed25519, ECDSA on the NIST curves, RSA. */
export type SshKeyType =
  | 'ssh-ed25519'
  | 'ecdsa-sha2-nistp256'
  | 'ecdsa-sha2-nistp384'
  | 'ecdsa-sha2-nistp521'
  | 'ssh-rsa';

/** An SSH public key: its wire blob, its type, its `SHA256:` fingerprint (as ssh-keygen prints it) and a node key. */
export interface SshPublicKey {
  readonly type: SshKeyType;
  /** the wire-format blob (what an allowed-signers line and a signature carry, base64) */
  readonly blob: Buffer;
  /** `SHA256:` and the unpadded base64 sha-256 of the blob */
  readonly fingerprint: string;
  readonly key: KeyObject;
}

/** ECDSA curves: the SSH name, the JWK curve, the hash its signatures use and the coordinate size in bytes. */
export const ecdsaCurves = {
  nistp256: { jwk: 'P-256', hash: 'sha256', bytes: 32 },
  nistp384: { jwk: 'P-384', hash: 'sha384', bytes: 48 },
  nistp521: { jwk: 'P-521', hash: 'sha512', bytes: 66 },
} as const;

/** Name of an ECDSA curve in SSH (`nistp256`). */
export type EcdsaCurve = keyof typeof ecdsaCurves;

const minRsaBits = 2048;

/** The `SHA256:` fingerprint of a public key blob, as `ssh-keygen -l` prints it. */
export function sshFingerprint(blob: Uint8Array): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** A short name of the key type as ssh-keygen shows it (`ED25519`, `ECDSA`, `RSA`). */
export function keyTypeLabel(type: SshKeyType): string {
  return type === 'ssh-ed25519' ? 'ED25519' : type === 'ssh-rsa' ? 'RSA' : 'ECDSA';
}

/** Parses a public key blob; throws SshWireError naming what is wrong (unsupported types included). */
export function parseSshPublicKey(blob: Uint8Array): SshPublicKey {
  const reader = new SshReader(blob);
  const type = reader.text('the key type');
  const b64u = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
  let key: KeyObject;
  if (type === 'ssh-ed25519') {
    const raw = reader.string('the ed25519 key');
    if (raw.length !== 32) throw new SshWireError('the ed25519 key is not 32 bytes');
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: b64u(raw) }, format: 'jwk' });
  } else if (type.startsWith('ecdsa-sha2-')) {
    const curveName = reader.text('the ecdsa curve');
    if (!Object.hasOwn(ecdsaCurves, curveName) || type !== `ecdsa-sha2-${curveName}`)
      throw new SshWireError(`unsupported ecdsa curve \`${curveName.slice(0, 40)}\``);
    const curve = ecdsaCurves[curveName as EcdsaCurve];
    const point = reader.string('the ecdsa point');
    if (point.length !== 1 + 2 * curve.bytes || point[0] !== 4)
      throw new SshWireError('the ecdsa point is not an uncompressed point of its curve');
    key = createPublicKey({
      key: {
        kty: 'EC',
        crv: curve.jwk,
        x: b64u(point.subarray(1, 1 + curve.bytes)),
        y: b64u(point.subarray(1 + curve.bytes)),
      },
      format: 'jwk',
    });
  } else if (type === 'ssh-rsa') {
    const e = reader.mpint('the rsa exponent');
    const n = reader.mpint('the rsa modulus');
    if (n.length * 8 < minRsaBits - 7) throw new SshWireError(`the rsa key is shorter than ${minRsaBits} bits`);
    key = createPublicKey({ key: { kty: 'RSA', n: b64u(n), e: b64u(e) }, format: 'jwk' });
  } else if (type.includes('-cert-')) {
    throw new SshWireError(`certificate keys (\`${type.slice(0, 60)}\`) are not supported: sign with the plain key`);
  } else if (type.startsWith('sk-')) {
    throw new SshWireError(`security-key keys (\`${type.slice(0, 60)}\`) are not supported`);
  } else {
    throw new SshWireError(`unsupported key type \`${type.slice(0, 60)}\``);
  }
  reader.end('the public key');
  const bytes = Buffer.from(blob);
  return Object.freeze({ type: type as SshKeyType, blob: bytes, fingerprint: sshFingerprint(bytes), key });
}

/** Parses a public key blob given as base64 (the key field of an allowed-signers line or a `.pub` file). */
export function parseSshPublicKeyBase64(text: string): SshPublicKey {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) throw new SshWireError('the key is not base64');
  return parseSshPublicKey(Buffer.from(text, 'base64'));
}

/** The signature algorithms a key type may sign with, and the hash each uses (SHA-1 `ssh-rsa` signatures are refused). */
function signatureHash(key: SshPublicKey, algorithm: string): string | null | undefined {
  if (key.type === 'ssh-ed25519') return algorithm === 'ssh-ed25519' ? null : undefined;
  if (key.type === 'ssh-rsa') {
    if (algorithm === 'rsa-sha2-512') return 'sha512';
    if (algorithm === 'rsa-sha2-256') return 'sha256';
    return undefined;
  }
  if (algorithm !== key.type) return undefined;
  return ecdsaCurves[key.type.slice('ecdsa-sha2-'.length) as EcdsaCurve].hash;
}

/**
 * Checks an SSH signature blob (`string algorithm, string signature`) by `key` over `data`; true only when it
 * verifies. Throws SshWireError when the blob is malformed or its algorithm does not fit the key.
 */
export function verifySshSignature(key: SshPublicKey, signatureBlob: Uint8Array, data: Uint8Array): boolean {
  const reader = new SshReader(signatureBlob);
  const algorithm = reader.text('the signature algorithm');
  const hash = signatureHash(key, algorithm);
  if (hash === undefined)
    throw new SshWireError(
      algorithm === 'ssh-rsa'
        ? 'rsa signatures with sha-1 (`ssh-rsa`) are refused: sign with rsa-sha2-512'
        : `signature algorithm \`${algorithm.slice(0, 60)}\` does not fit a ${key.type} key`,
    );
  const raw = reader.string('the signature');
  reader.end('the signature');
  if (key.type === 'ssh-ed25519') return raw.length === 64 && cryptoVerify(null, data, key.key, raw);
  if (key.type === 'ssh-rsa') return cryptoVerify(hash, data, key.key, raw);
  const curve = ecdsaCurves[key.type.slice('ecdsa-sha2-'.length) as EcdsaCurve];
  const rs = new SshReader(raw);
  const r = rs.mpint('the ecdsa r');
  const s = rs.mpint('the ecdsa s');
  rs.end('the ecdsa signature');
  if (r.length > curve.bytes || s.length > curve.bytes) return false;
  const fixed = Buffer.alloc(2 * curve.bytes);
  r.copy(fixed, curve.bytes - r.length);
  s.copy(fixed, 2 * curve.bytes - s.length);
  return cryptoVerify(hash, data, { key: key.key, dsaEncoding: 'ieee-p1363' }, fixed);
}

/** The SSH signature blob for `algorithm` and the raw signature bytes (ECDSA: `r || s`, fixed width, turned into mpints). */
export function sshSignatureBlob(type: SshKeyType, algorithm: string, raw: Uint8Array): Buffer {
  if (type === 'ssh-ed25519' || type === 'ssh-rsa') return new SshWriter().string(algorithm).string(raw).bytes();
  const half = raw.length / 2;
  const inner = new SshWriter().mpint(raw.subarray(0, half)).mpint(raw.subarray(half)).bytes();
  return new SshWriter().string(algorithm).string(inner).bytes();
}
