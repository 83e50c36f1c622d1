/**
 * Every error code linkgate throws; a closed union, so callers can switch on it exhaustively. Decisions never
 * throw (they fail closed with reason codes); these are for loading, usage and transport faults.
 */
export type GateErrorCode =
  | 'POLICY_INVALID'
  | 'POLICY_UNREADABLE'
  | 'INPUT_INVALID'
  | 'USAGE'
  | 'READ_TIMEOUT'
  | 'READ_FAILED';

/** A source location: 1-based line and column in `file`. */
export interface SourceLocation {
  file: string;
  line: number;
  col: number;
}

/** A single finding about an input file: message is lowercase, one line, no final period. */
export interface Diagnostic extends SourceLocation {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  /** dotted path of the offending field, when known (`links.maxDeclaredBytes`) */
  path?: string;
}

// the brand every GateError carries: `instanceof` holds across two copies of this module (the library bundle and a
// copy bundled into a host's own code, as undici's errors do), where the classes differ but the registry key does not
const gateErrorBrand = Symbol.for('linkgate.GateError');

/** The one error class linkgate throws; `diagnostics` carries every located finding (policy errors). */
export class GateError extends Error {
  readonly code: GateErrorCode;
  readonly diagnostics: readonly Diagnostic[];

  /** True for a GateError made by any copy of linkgate (its `Symbol.for` brand); never throws. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    try {
      return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[gateErrorBrand] === true;
    } catch {
      return false;
    }
  }

  constructor(
    code: GateErrorCode,
    message: string,
    options: { cause?: unknown; diagnostics?: readonly Diagnostic[] } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GateError';
    Object.defineProperty(this, gateErrorBrand, { value: true });
    this.code = code;
    this.diagnostics = options.diagnostics ?? [];
  }
}

/** Formats a diagnostic as `file:line:col: severity code: message` (DESIGN §4d). */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.col}: ${d.severity} ${d.code}: ${d.message}`;
}

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
