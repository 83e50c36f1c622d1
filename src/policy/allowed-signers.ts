import { errorText } from '../decision/error-line.ts';
import { GateError } from '../errors.ts';
import { parseSshPublicKeyBase64, type SshPublicKey } from './ssh-public-key.ts';

/** One line of an allowed-signers file (git's `gpg.ssh.allowedSignersFile`, ssh-keygen ALLOWED SIGNERS). */
export interface AllowedSigner {
  /** 1-based line in the file */
  readonly line: number;
  /** the identity patterns (`alice@example.com`, `*@example.com`, `!bob@example.com`) */
  readonly principals: readonly string[];
  /** the namespace patterns the key may sign in; undefined: any namespace */
  readonly namespaces?: readonly string[];
  /** the key is trusted from this time on, ms since the epoch */
  readonly validAfterMs?: number;
  /** the key is trusted until this time, ms since the epoch */
  readonly validBeforeMs?: number;
  readonly key: SshPublicKey;
}

/** Largest allowed-signers file read, bytes. */
export const maxAllowedSignersBytes = 1024 * 1024;

const keyTypes = /^(?:ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(?:256|384|521)|sk-\S+|\S+-cert-v01@openssh\.com|ssh-dss)$/;

/**
 * Parses an allowed-signers file: `PRINCIPALS [OPTIONS] KEYTYPE BASE64KEY [COMMENT]` per line, `#` comments and blank
 * lines ignored. Options: `namespaces="…"`, `valid-after="…"`, `valid-before="…"` (`YYYYMMDD[HHMM[SS]]`, `Z` for
 * UTC, else local time). `cert-authority`, certificate and security-key keys are refused. Throws GateError USAGE
 * naming `file:line` and what is wrong.
 */
export function parseAllowedSigners(text: string, file: string): AllowedSigner[] {
  const out: AllowedSigner[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const fail = (message: string): never => {
      throw new GateError('USAGE', `${file}:${index + 1}: ${message}`);
    };
    out.push(parseLine(line, index + 1, fail));
  }
  return out;
}

function parseLine(line: string, number: number, fail: (message: string) => never): AllowedSigner {
  let rest = line;
  // principals: a pattern list, quoted when it holds spaces
  let principalText: string;
  if (rest.startsWith('"')) {
    const close = rest.indexOf('"', 1);
    if (close === -1) fail('unterminated quoted principals');
    principalText = rest.slice(1, close);
    rest = rest.slice(close + 1);
  } else {
    const space = rest.search(/\s/);
    if (space === -1) fail('expected `PRINCIPALS [OPTIONS] KEYTYPE KEY`');
    principalText = rest.slice(0, space);
    rest = rest.slice(space);
  }
  const principals = principalText.split(',').filter((p) => p !== '');
  if (principals.length === 0) fail('no principals');
  rest = rest.trimStart();
  const firstWord = rest.split(/\s/, 1)[0] ?? '';
  const options: { namespaces?: string[]; validAfterMs?: number; validBeforeMs?: number } = {};
  if (!keyTypes.test(firstWord)) {
    const { consumed, entries } = splitOptions(rest, fail);
    rest = rest.slice(consumed).trimStart();
    for (const [name, value] of entries) {
      if (name === 'cert-authority')
        fail('`cert-authority` is not supported: list each reviewer’s own key instead of a certificate authority');
      else if (name === 'namespaces') {
        if (value === undefined) fail('`namespaces` needs a value, `namespaces="linkgate-policy"`');
        options.namespaces = value.split(',').filter((n) => n !== '');
      } else if (name === 'valid-after' || name === 'valid-before') {
        const ms = value === undefined ? undefined : parseTimestamp(value);
        if (ms === undefined) fail(`\`${name}\` needs a time \`YYYYMMDD[HHMM[SS]][Z]\``);
        if (name === 'valid-after') options.validAfterMs = ms;
        else options.validBeforeMs = ms;
      } else fail(`unknown option \`${name.slice(0, 40)}\``);
    }
  }
  const [type, base64] = rest.split(/\s+/);
  if (type === undefined || type === '' || base64 === undefined || base64 === '')
    fail('expected a key type and a base64 key after the principals');
  if (type.includes('-cert-')) fail(`certificate keys (\`${type}\`) are not supported`);
  let key: SshPublicKey;
  try {
    key = parseSshPublicKeyBase64(base64);
  } catch (error) {
    return fail(`bad key: ${errorText(error)}`);
  }
  if (key.type !== type) fail(`the key is a ${key.type} key, the line says \`${type.slice(0, 40)}\``);
  return Object.freeze({ line: number, principals, ...options, key });
}

// `name[="value"]` entries separated by commas, ending at whitespace outside quotes
function splitOptions(
  text: string,
  fail: (message: string) => never,
): { consumed: number; entries: [string, string | undefined][] } {
  const entries: [string, string | undefined][] = [];
  let i = 0;
  for (;;) {
    const name = /^[A-Za-z-]+/.exec(text.slice(i))?.[0];
    if (name === undefined) fail(`expected an option or a key type at \`${text.slice(i, i + 20)}\``);
    i += name.length;
    let value: string | undefined;
    if (text[i] === '=') {
      if (text[i + 1] !== '"') fail(`the value of \`${name}\` must be quoted`);
      const close = text.indexOf('"', i + 2);
      if (close === -1) fail(`unterminated value of \`${name}\``);
      value = text.slice(i + 2, close);
      i = close + 1;
    }
    entries.push([name.toLowerCase(), value]);
    if (text[i] === ',') {
      i += 1;
      continue;
    }
    if (i < text.length && !/\s/.test(text[i] ?? '')) fail(`unexpected \`${text[i] ?? ''}\` after option \`${name}\``);
    return { consumed: i, entries };
  }
}

/** `YYYYMMDD`, `YYYYMMDDHHMM` or `YYYYMMDDHHMMSS`, with `Z` for UTC (else local time), as ssh-keygen reads them. */
export function parseTimestamp(text: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?)?(Z?)$/.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', z] = m;
  const parts = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)] as const;
  const ms = z === 'Z' ? Date.UTC(...parts) : new Date(...parts).getTime();
  const check = new Date(ms);
  const same =
    z === 'Z'
      ? check.getUTCFullYear() === parts[0] && check.getUTCMonth() === parts[1] && check.getUTCDate() === parts[2]
      : check.getFullYear() === parts[0] && check.getMonth() === parts[1] && check.getDate() === parts[2];
  return Number.isFinite(ms) && same && parts[3] < 24 && parts[4] < 60 && parts[5] < 60 ? ms : undefined;
}

/** OpenSSH's pattern-list match: comma-separated `*`/`?` globs; a matching `!pattern` refuses, else any match accepts. */
export function matchPatternList(value: string, patterns: readonly string[]): boolean {
  let matched = false;
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) {
      if (globMatch(value, pattern.slice(1))) return false;
    } else if (globMatch(value, pattern)) matched = true;
  }
  return matched;
}

function globMatch(value: string, pattern: string): boolean {
  // iterative glob with one backtrack point: linear in practice, never exponential
  let v = 0;
  let p = 0;
  let star = -1;
  let mark = 0;
  while (v < value.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === value[v])) {
      v += 1;
      p += 1;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p;
      mark = v;
      p += 1;
    } else if (star !== -1) {
      p = star + 1;
      mark += 1;
      v = mark;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p += 1;
  return p === pattern.length;
}
