import { createPrivateKey, type KeyObject, sign as cryptoSign } from 'node:crypto';
import { GateError } from '../errors.ts';
import {
  ecdsaCurves,
  type EcdsaCurve,
  parseSshPublicKey,
  type SshPublicKey,
  sshSignatureBlob,
} from '../policy/ssh-public-key.ts';
import { armorSignature, policySignatureNamespace, signedData, sshSignatureBlobOf } from '../policy/ssh-signature.ts';
import { SshReader, SshWireError } from '../policy/ssh-wire.ts';

/** An unencrypted OpenSSH private key: its public half and a node key to sign with. */
export interface SshPrivateKey {
  readonly publicKey: SshPublicKey;
  readonly key: KeyObject;
  readonly comment: string;
}

const beginLine = '-----BEGIN OPENSSH PRIVATE KEY-----';
const endLine = '-----END OPENSSH PRIVATE KEY-----';
const authMagic = 'openssh-key-v1\0';

/**
 * Parses an OpenSSH private key file (`openssh-key-v1`, as ssh-keygen writes it); throws GateError USAGE when it is
 * not one, is encrypted (pointing at `ssh-keygen -Y sign`), holds several keys or a key type linkgate cannot sign with.
 */
export function parseOpenSshPrivateKey(text: string, shownAs: string): SshPrivateKey {
  const fail = (message: string): never => {
    throw new GateError('USAGE', `${shownAs}: ${message}`);
  };
  const begin = text.indexOf(beginLine);
  const end = text.indexOf(endLine);
  if (begin === -1 || end === -1 || end < begin)
    fail('not an openssh private key (expected `-----BEGIN OPENSSH PRIVATE KEY-----`)');
  const base64 = text.slice(begin + beginLine.length, end).replace(/\s/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) fail('the private key is not base64');
  try {
    const reader = new SshReader(Buffer.from(base64, 'base64'));
    if (reader.raw(authMagic.length, 'the magic').toString('latin1') !== authMagic)
      fail('not an `openssh-key-v1` private key');
    const cipher = reader.text('the cipher name');
    const kdf = reader.text('the kdf name');
    reader.string('the kdf options');
    if (cipher !== 'none' || kdf !== 'none')
      fail(
        'the key is encrypted with a passphrase; linkgate does not ask for passphrases: sign with `ssh-keygen -Y sign -n linkgate-policy -f KEY POLICY` (it appends nothing: concatenate its .sig onto POLICY.sig), or use a key without a passphrase',
      );
    const count = reader.uint32('the key count');
    if (count !== 1) fail(`the file holds ${count} keys; expected one`);
    const publicKey = parseSshPublicKey(reader.string('the public key'));
    const secret = new SshReader(reader.string('the private section'));
    if (secret.uint32('the check') !== secret.uint32('the check'))
      fail('the private section is damaged (its check numbers differ)');
    const type = secret.text('the key type');
    if (type !== publicKey.type) fail('the private key does not match its public key');
    const b64u = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
    let jwk: Record<string, string>;
    if (type === 'ssh-ed25519') {
      const pub = secret.string('the ed25519 public key');
      const priv = secret.string('the ed25519 private key');
      if (priv.length !== 64) fail('the ed25519 private key is not 64 bytes');
      jwk = { kty: 'OKP', crv: 'Ed25519', x: b64u(pub), d: b64u(priv.subarray(0, 32)) };
    } else if (type === 'ssh-rsa') {
      const n = secret.mpint('the rsa modulus');
      const e = secret.mpint('the rsa exponent');
      const d = secret.mpint('the rsa private exponent');
      const qi = secret.mpint('the rsa coefficient');
      const p = secret.mpint('the rsa prime p');
      const q = secret.mpint('the rsa prime q');
      const big = (b: Uint8Array) => BigInt(`0x${Buffer.from(b).toString('hex') || '0'}`);
      const bytes = (v: bigint) => {
        const hex = v.toString(16);
        return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
      };
      const dp = big(d) % (big(p) - 1n);
      const dq = big(d) % (big(q) - 1n);
      jwk = {
        kty: 'RSA',
        n: b64u(n),
        e: b64u(e),
        d: b64u(d),
        p: b64u(p),
        q: b64u(q),
        dp: b64u(bytes(dp)),
        dq: b64u(bytes(dq)),
        qi: b64u(qi),
      };
    } else {
      const curveName = secret.text('the ecdsa curve') as EcdsaCurve;
      const curve = ecdsaCurves[curveName];
      const point = secret.string('the ecdsa point');
      const d = secret.mpint('the ecdsa private key');
      const fixed = Buffer.alloc(curve.bytes);
      d.copy(fixed, curve.bytes - d.length);
      jwk = {
        kty: 'EC',
        crv: curve.jwk,
        x: b64u(point.subarray(1, 1 + curve.bytes)),
        y: b64u(point.subarray(1 + curve.bytes)),
        d: b64u(fixed),
      };
    }
    const comment = secret.text('the comment');
    const key = createPrivateKey({ key: jwk, format: 'jwk' });
    return Object.freeze({ publicKey, key, comment });
  } catch (error) {
    if (error instanceof GateError) throw error;
    if (error instanceof SshWireError) return fail(`malformed private key: ${error.message}`);
    return fail(
      `the private key cannot be used: ${error instanceof Error ? error.message.toLowerCase() : String(error)}`,
    );
  }
}

/**
 * An armored SSH signature of `message` in `namespace` (default `linkgate-policy`), as `ssh-keygen -Y sign` makes it
 * (sha512).
 */
export function signPolicyBytes(
  privateKey: SshPrivateKey,
  message: Uint8Array,
  namespace: string = policySignatureNamespace,
): string {
  const data = signedData(namespace, 'sha512', message);
  const { type } = privateKey.publicKey;
  let algorithm: string;
  let raw: Buffer;
  if (type === 'ssh-ed25519') {
    algorithm = type;
    raw = cryptoSign(null, data, privateKey.key);
  } else if (type === 'ssh-rsa') {
    algorithm = 'rsa-sha2-512';
    raw = cryptoSign('sha512', data, privateKey.key);
  } else {
    algorithm = type;
    const curve = ecdsaCurves[type.slice('ecdsa-sha2-'.length) as EcdsaCurve];
    raw = cryptoSign(curve.hash, data, { key: privateKey.key, dsaEncoding: 'ieee-p1363' });
  }
  const blob = sshSignatureBlobOf({
    publicKey: privateKey.publicKey,
    namespace,
    hashAlgorithm: 'sha512',
    signature: sshSignatureBlob(type, algorithm, raw),
  });
  return armorSignature(blob);
}
