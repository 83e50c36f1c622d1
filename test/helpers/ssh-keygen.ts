// Real OpenSSH `ssh-keygen` (Debian openssh-client) as a test oracle: keys of each type, `-Y sign` and `-Y verify`,
// and the review folders the review tests sign with it (the default policy naming the test's reviewers, keys, an
// allowed-signers file, signatures). ssh-keygen is installed on demand with apt when missing (never a project
// dependency); every call passes arguments as an array.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

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

const defaultPolicy = readFileSync(new URL('../../policies/default.yaml', import.meta.url), 'utf8');

/** The default policy's text with a review naming `reviewers` and expiring on `expires` (YYYY-MM-DD). */
export function policyText(reviewers: readonly string[], expires = '2999-01-01'): string {
  return defaultPolicy.replace(
    /^review:\n(?: {2}.*\n)+/m,
    `review:\n  reviewers: [${reviewers.join(', ')}]\n  date: 2025-06-01\n  ticket: LG-TEST-1\n  expires: ${expires}\n`,
  );
}

/** A scratch folder with a policy, keys and an allowed-signers file. */
export interface ReviewFolder {
  readonly dir: string;
  readonly policy: string;
  readonly sig: string;
  readonly allowedSigners: string;
  readonly keys: Readonly<Record<string, TestKey>>;
  /** signs the policy file's current bytes with ssh-keygen as `name` and appends to `POLICY.sig` */
  sign(name: string, namespace?: string): void;
  /** changes the policy file after signing: `file` joins the allowed schemes, so no signature matches its bytes */
  loosen(): void;
  cleanup(): void;
}

/** Makes a review folder: one key per entry of `signers` (identity → kind), all in the allowed-signers file. */
export function reviewFolder(
  signers: Readonly<Record<string, KeyKind>>,
  options: { reviewers?: readonly string[]; expires?: string; text?: string } = {},
): ReviewFolder {
  const dir = mkdtempSync(join(tmpdir(), 'linkgate-review-'));
  const keys: Record<string, TestKey> = {};
  for (const [identity, kind] of Object.entries(signers))
    keys[identity] = makeKey(dir, `key-${identity.replace(/\W/g, '-')}`, kind);
  const policy = join(dir, 'policy.yaml');
  writeFileSync(policy, options.text ?? policyText(options.reviewers ?? Object.keys(signers), options.expires));
  const allowedSigners = join(dir, 'allowed_signers');
  writeFileSync(
    allowedSigners,
    `${Object.entries(keys)
      .map(([identity, key]) => `${identity} namespaces="linkgate-policy" ${key.publicKey}`)
      .join('\n')}\n`,
  );
  const sig = `${policy}.sig`;
  return {
    dir,
    policy,
    sig,
    allowedSigners,
    keys,
    sign(name, namespace) {
      const key = keys[name];
      if (key === undefined) throw new Error(`no key ${name}`);
      const signature = sshSign(key, readFileSync(policy), namespace);
      writeFileSync(sig, signature, { flag: 'a' });
    },
    loosen() {
      writeFileSync(
        policy,
        readFileSync(policy, 'utf8').replace('schemes: [https, http]', 'schemes: [https, http, file]'),
      );
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A `reviewFolder` maker whose folders are removed after each test of the file that calls it. */
export function reviewFolders(): typeof reviewFolder {
  const made: ReviewFolder[] = [];
  afterEach(() => {
    for (const f of made.splice(0)) f.cleanup();
  });
  return (...args) => {
    const f = reviewFolder(...args);
    made.push(f);
    return f;
  };
}
