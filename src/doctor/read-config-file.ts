import { readFile, stat } from 'node:fs/promises';
import { isRecord } from '../decision/json-value.ts';

/** Largest host configuration file doctor reads, bytes (~/.claude.json grows with history; this is far above it). */
export const maxConfigBytes = 64 * 1024 * 1024;

/** A configuration file's parsed top level: absent, an object, or a problem (one lowercase line). */
export type ConfigFile =
  | { readonly kind: 'absent' }
  | { readonly kind: 'read'; readonly value: Record<string, unknown> }
  | { readonly kind: 'problem'; readonly message: string };

/** Reads and parses `file` with `parse` (JSON by default); a missing file is `absent`, anything wrong a `problem`. */
export async function readConfigFile(file: string, parse: (text: string) => unknown = JSON.parse): Promise<ConfigFile> {
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) return { kind: 'problem', message: `\`${file}\` is not a file` };
    size = info.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    return { kind: 'problem', message: `\`${file}\` cannot be read: ${(error as Error).message}` };
  }
  if (size > maxConfigBytes) return { kind: 'problem', message: `\`${file}\` is over ${maxConfigBytes} bytes` };
  try {
    const value = parse(await readFile(file, 'utf8'));
    if (!isRecord(value)) return { kind: 'problem', message: `\`${file}\` does not hold an object` };
    return { kind: 'read', value };
  } catch (error) {
    return { kind: 'problem', message: `\`${file}\` does not parse: ${oneLine(error)}` };
  }
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** The string entries of an `env` object (other values are not passed as strings by any host). */
export function stringRecord(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** A string list, or empty when `value` is not an array of strings. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
