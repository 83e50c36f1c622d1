// Real OpenSSH `ssh-keygen` (Debian openssh-client) as a test oracle: keys of each type, `-Y sign` and `-Y verify`.
// Installed on demand with apt when missing (never a project dependency); every call passes arguments as an array.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Key types the tests make, as `ssh-keygen -t TYPE -b BITS`. */
export const keyKinds = {
  ed25519: ['-t', 'ed25519'],
  'ecdsa-p256': ['-t', 'ecdsa', '-b', '256'],
  'ecdsa-p384': ['-t', 'ecdsa', '-b', '384'],
  'ecdsa-p521': ['-t', 'ecdsa', '-b', '521'],
  rsa: ['-t', 'rsa', '-b', '3072'],
} as const;

/** A key kind the tests make. */
export type KeyKind = keyof typeof keyKinds;

let found: string | undefined;

/** The path of ssh-keygen, installing openssh-client with apt when it is missing. */
export function sshKeygen(): string {
  if (found !== undefined) return found;
  const which = spawnSync('which', ['ssh-keygen'], { encoding: 'utf8' });
  if (which.status !== 0) {
    const apt = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
    const run = (args: string[]) => {
      const [cmd = 'apt-get', ...rest] = [...apt, ...args];
      execFileSync(cmd, rest, { stdio: 'ignore', timeout: 300_000 });
    };
    run(['apt-get', 'install', '-y', '--no-install-recommends', 'openssh-client']);
  }
  found = execFileSync('which', ['ssh-keygen'], { encoding: 'utf8' }).trim();
  return found;
}

/** A key made by ssh-keygen: the private key file and the public key as `TYPE BASE64`. */
export interface TestKey {
  readonly file: string;
  readonly publicKey: string;
}

/** Makes a key of `kind` without a passphrase (or with `passphrase`) at `dir/name`. */
export function makeKey(dir: string, name: string, kind: KeyKind, passphrase = ''): TestKey {
  const file = join(dir, name);
  execFileSync(sshKeygen(), ['-q', ...keyKinds[kind], '-N', passphrase, '-C', name, '-f', file], { stdio: 'ignore' });
  const [type, base64] = readFileSync(`${file}.pub`, 'utf8').trim().split(' ');
  return { file, publicKey: `${type} ${base64}` };
}

/** `ssh-keygen -Y sign -n NAMESPACE -f KEY` over `data` (on stdin): the armored signature it writes. */
export function sshSign(key: TestKey, data: string | Uint8Array, namespace = 'linkgate-policy'): string {
  return execFileSync(sshKeygen(), ['-Y', 'sign', '-n', namespace, '-f', key.file], {
    input: data,
    encoding: 'utf8',
    stdio: ['pipe', 'pipe', 'ignore'],
  });
}

/** `ssh-keygen -Y verify` of `signature` over `data` for `identity`: exit status and what it printed. */
export function sshVerify(
  dir: string,
  allowedSigners: string,
  identity: string,
  signature: string,
  data: string | Uint8Array,
  namespace = 'linkgate-policy',
): { status: number | null; output: string } {
  const allowed = join(dir, 'oracle-allowed-signers');
  const sig = join(dir, 'oracle.sig');
  writeFileSync(allowed, allowedSigners);
  writeFileSync(sig, signature);
  const run = spawnSync(sshKeygen(), ['-Y', 'verify', '-f', allowed, '-I', identity, '-n', namespace, '-s', sig], {
    input: data,
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}
