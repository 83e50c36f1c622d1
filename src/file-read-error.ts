import { GateError, type GateErrorCode } from './gate-error.ts';

const reasons: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a folder on its path is a file',
};

/** Why a file could not be read, in a few words (`no such file`, `permission denied`, …). */
export function fileReadReason(cause: unknown): string {
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return reasons[code] ?? code.toLowerCase();
  return cause instanceof Error ? (cause.message.split('\n')[0] ?? 'read error') : 'read error';
}

/** The one wording for a file that cannot be read, used by every command: `cannot read KIND \`FILE\`: REASON`. */
export function fileReadError(code: GateErrorCode, kind: string, shownAs: string, cause: unknown): GateError {
  return new GateError(code, `cannot read ${kind} \`${shownAs}\`: ${fileReadReason(cause)}`, { cause });
}
