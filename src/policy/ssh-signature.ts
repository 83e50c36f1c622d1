import { createHash } from 'node:crypto';
import { parseSshPublicKey, type SshPublicKey, verifySshSignature } from './ssh-public-key.ts';
import { SshReader, SshWireError, SshWriter } from './ssh-wire.ts';

/** The namespace every policy review signature is made in (`ssh-keygen -Y sign -n linkgate-policy`). */
export const policySignatureNamespace = 'linkgate-policy';

const magic = 'SSHSIG';
const beginLine = '-----BEGIN SSH SIGNATURE-----';
const endLine = '-----END SSH SIGNATURE-----';
/** Column at which ssh-keygen wraps the armored base64. */
const armorWidth = 70;
/** Largest armored signature block read, characters (an RSA-16384 signature is under 6 KiB). */
export const maxArmoredSignatureChars = 64 * 1024;

/** A parsed SSH signature (PROTOCOL.sshsig): who signed, in which namespace, with which message hash. */
export interface SshSignature {
  readonly publicKey: SshPublicKey;
  readonly namespace: string;
  readonly hashAlgorithm: 'sha256' | 'sha512';
  /** the SSH signature blob (`string algorithm, string signature`) */
  readonly signature: Buffer;
}

/** One armored block of a signature file: parsed, or why it could not be. */
export type ArmoredBlock =
  | { readonly ok: true; readonly signature: SshSignature }
  | { readonly ok: false; readonly problem: string };

/** Parses an SSHSIG blob (the bytes inside the armor); throws SshWireError naming what is wrong. */
export function parseSshSignatureBlob(blob: Uint8Array): SshSignature {
  const reader = new SshReader(blob);
  if (reader.raw(Math.min(6, reader.remaining), 'the magic').toString('latin1') !== magic)
    throw new SshWireError('not an ssh signature (no `SSHSIG` magic)');
  const version = reader.uint32('the version');
  if (version !== 1) throw new SshWireError(`unsupported ssh signature version ${version}`);
  const publicKey = parseSshPublicKey(reader.string('the public key'));
  const namespace = reader.text('the namespace');
  reader.string('the reserved field');
  const hashAlgorithm = reader.text('the hash algorithm');
  if (hashAlgorithm !== 'sha256' && hashAlgorithm !== 'sha512')
    throw new SshWireError(`unsupported hash algorithm \`${hashAlgorithm.slice(0, 40)}\``);
  const signature = reader.string('the signature');
  reader.end('the ssh signature');
  return Object.freeze({ publicKey, namespace, hashAlgorithm, signature });
}

/** The bytes a signature is made over (PROTOCOL.sshsig): magic, namespace, reserved, hash algorithm, H(message). */
export function signedData(namespace: string, hashAlgorithm: 'sha256' | 'sha512', message: Uint8Array): Buffer {
  return new SshWriter()
    .raw(magic)
    .string(namespace)
    .string('')
    .string(hashAlgorithm)
    .string(createHash(hashAlgorithm).update(message).digest())
    .bytes();
}

/** The SSHSIG blob for a signature already made over `signedData(...)`. */
export function sshSignatureBlobOf(signature: SshSignature): Buffer {
  return new SshWriter()
    .raw(magic)
    .uint32(1)
    .string(signature.publicKey.blob)
    .string(signature.namespace)
    .string('')
    .string(signature.hashAlgorithm)
    .string(signature.signature)
    .bytes();
}

/** Armors an SSHSIG blob as ssh-keygen writes it (base64 wrapped at 70 columns, a final newline). */
export function armorSignature(blob: Uint8Array): string {
  const base64 = Buffer.from(blob).toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < base64.length; i += armorWidth) lines.push(base64.slice(i, i + armorWidth));
  return `${beginLine}\n${lines.join('\n')}\n${endLine}\n`;
}

/**
 * Splits a signature file into its armored blocks (several reviewers' signatures concatenated) and parses each.
 * Whitespace between blocks is allowed; anything else, a block without its end line, or base64 that does not decode
 * is a block with a problem. Never throws.
 */
export function parseSignatureFile(text: string): ArmoredBlock[] {
  const blocks: ArmoredBlock[] = [];
  let rest = text;
  for (;;) {
    rest = rest.replace(/^\s+/, '');
    if (rest === '') return blocks;
    if (!rest.startsWith(beginLine)) {
      blocks.push({
        ok: false,
        problem: 'text outside an armored signature (expected `-----BEGIN SSH SIGNATURE-----`)',
      });
      return blocks;
    }
    const end = rest.indexOf(endLine, beginLine.length);
    if (end === -1) {
      blocks.push({ ok: false, problem: 'truncated armor: no `-----END SSH SIGNATURE-----` line' });
      return blocks;
    }
    const body = rest.slice(beginLine.length, end);
    rest = rest.slice(end + endLine.length);
    blocks.push(parseArmorBody(body));
  }
}

function parseArmorBody(body: string): ArmoredBlock {
  if (body.length > maxArmoredSignatureChars)
    return { ok: false, problem: `armored signature over ${maxArmoredSignatureChars} characters` };
  const base64 = body.replace(/[\r\n\t ]/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0)
    return { ok: false, problem: 'truncated armor: the signature is not whole base64' };
  try {
    return { ok: true, signature: parseSshSignatureBlob(Buffer.from(base64, 'base64')) };
  } catch (error) {
    if (error instanceof SshWireError || error instanceof Error)
      return { ok: false, problem: `malformed signature: ${error.message.split('\n')[0]?.toLowerCase() ?? ''}` };
    return { ok: false, problem: 'malformed signature' };
  }
}

/** True when `signature` is a valid signature of `message` in its own namespace by its own key; never throws. */
export function signatureMatches(signature: SshSignature, message: Uint8Array): boolean {
  try {
    return verifySshSignature(
      signature.publicKey,
      signature.signature,
      signedData(signature.namespace, signature.hashAlgorithm, message),
    );
  } catch {
    return false;
  }
}
