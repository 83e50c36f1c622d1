// Properties of the SSH signature parsers: garbage never throws past them (or throws only GateError), and what
// linkgate writes it reads back the same.
import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GateError } from '../../src/errors.ts';
import { matchPatternList, parseAllowedSigners } from '../../src/policy/allowed-signers.ts';
import { parseSshPublicKey } from '../../src/policy/ssh-public-key.ts';
import { armorSignature, parseSignatureFile, signatureMatches } from '../../src/policy/ssh-signature.ts';
import { SshReader, SshWireError, SshWriter } from '../../src/policy/ssh-wire.ts';
import { parseOpenSshPrivateKey, signPolicyBytes, type SshPrivateKey } from '../../src/review/openssh-private-key.ts';

function nodeKey(kind: 'ed25519' | 'p256'): SshPrivateKey {
  const pair = kind === 'ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = pair.publicKey.export({ format: 'jwk' });
  const raw = (v: string | undefined) => Buffer.from(v ?? '', 'base64url');
  const blob =
    kind === 'ed25519'
      ? new SshWriter().string('ssh-ed25519').string(raw(jwk.x)).bytes()
      : new SshWriter()
          .string('ecdsa-sha2-nistp256')
          .string('nistp256')
          .string(Buffer.concat([Buffer.from([4]), raw(jwk.x), raw(jwk.y)]))
          .bytes();
  return { publicKey: parseSshPublicKey(blob), key: pair.privateKey, comment: '' };
}

const armored = (bytes: Uint8Array) => armorSignature(bytes);

describe('ssh signature parsers', () => {
  it('parseSignatureFile never throws on any text, nor on armor around any bytes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.uint8Array({ maxLength: 600 }).map(armored)), (text) => {
        const blocks = parseSignatureFile(text);
        expect(Array.isArray(blocks)).toBe(true);
      }),
    );
  });

  it('a bit flipped anywhere in a signature block never makes it verify another message, and never throws', () => {
    const key = nodeKey('ed25519');
    const message = Buffer.from('id: p\n');
    const text = signPolicyBytes(key, message);
    fc.assert(
      fc.property(fc.nat(text.length - 1), fc.integer({ min: 1, max: 127 }), (at, flip) => {
        const changed =
          text.slice(0, at) + String.fromCharCode((text.charCodeAt(at) ^ flip) & 0x7f) + text.slice(at + 1);
        for (const block of parseSignatureFile(changed))
          if (block.ok) expect(signatureMatches(block.signature, Buffer.from('id: q\n'))).toBe(false);
      }),
    );
  });

  it('round trip: what signPolicyBytes writes parses back with the key and namespace, and verifies only its message', () => {
    const keys = [nodeKey('ed25519'), nodeKey('p256')];
    fc.assert(
      fc.property(
        fc.constantFrom(0, 1),
        fc.uint8Array({ maxLength: 300 }),
        fc.uint8Array({ maxLength: 300 }),
        (k, a, b) => {
          const key = keys[k] as SshPrivateKey;
          const blocks = parseSignatureFile(signPolicyBytes(key, a) + signPolicyBytes(key, b));
          expect(blocks).toHaveLength(2);
          const [first] = blocks;
          if (first === undefined || !first.ok) throw new Error('not parsed');
          expect(first.signature.namespace).toBe('linkgate-policy');
          expect(first.signature.publicKey.fingerprint).toBe(key.publicKey.fingerprint);
          expect(signatureMatches(first.signature, a)).toBe(true);
          expect(signatureMatches(first.signature, b)).toBe(Buffer.from(a).equals(Buffer.from(b)));
        },
      ),
      { numRuns: 50 },
    );
  });

  it('SshWriter and SshReader round trip strings, numbers and mpints; a short read throws SshWireError', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 64 }),
        fc.nat({ max: 0xffffffff }),
        fc.uint8Array({ maxLength: 40 }),
        (s, n, m) => {
          const bytes = new SshWriter().string(s).uint32(n).mpint(m).bytes();
          const reader = new SshReader(bytes);
          expect(reader.string('s').equals(Buffer.from(s))).toBe(true);
          expect(reader.uint32('n')).toBe(n);
          let start = 0;
          while (start < m.length && m[start] === 0) start += 1;
          expect(reader.mpint('m').equals(Buffer.from(m.subarray(start)))).toBe(true);
          reader.end('all');
          const short = new SshReader(bytes.subarray(0, bytes.length - 1));
          expect(() => {
            short.string('s');
            short.uint32('n');
            short.mpint('m');
          }).toThrow(SshWireError);
        },
      ),
    );
  });

  it('parseAllowedSigners throws only GateError (naming file:line) on any text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.constantFrom('a ssh-ed25519 AAAA', 'x namespaces="', '"q')), {
          maxLength: 5,
        }),
        (lines) => {
          try {
            parseAllowedSigners(lines.join('\n'), 'signers');
          } catch (error) {
            expect(error).toBeInstanceOf(GateError);
            expect((error as Error).message).toMatch(/^signers:\d+: /);
          }
        },
      ),
    );
  });

  it('parseOpenSshPrivateKey throws only GateError on armor around any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.boolean(), (bytes, magic) => {
        const body = Buffer.concat([magic ? Buffer.from('openssh-key-v1\0') : Buffer.alloc(0), Buffer.from(bytes)]);
        const text = `-----BEGIN OPENSSH PRIVATE KEY-----\n${body.toString('base64')}\n-----END OPENSSH PRIVATE KEY-----\n`;
        expect(() => parseOpenSshPrivateKey(text, 'k')).toThrow(GateError);
      }),
    );
  });

  it('pattern lists: globs, negation wins', () => {
    expect(matchPatternList('alice@example.com', ['*@example.com'])).toBe(true);
    expect(matchPatternList('alice@example.com', ['*@example.com', '!alice@*'])).toBe(false);
    expect(matchPatternList('alice@example.com', ['al?ce@example.com'])).toBe(true);
    expect(matchPatternList('alice@example.org', ['*@example.com'])).toBe(false);
    expect(matchPatternList('linkgate-policy', ['git', 'linkgate-*'])).toBe(true);
  });
});
