import { domainToASCII } from 'node:url';

/** A compiled list of host-name patterns: exact names and `*.suffix` entries (subdomains only). */
export interface NamePatterns {
  readonly exact: ReadonlySet<string>;
  /** suffixes with their leading dot (`.corp.example.com`) */
  readonly suffixes: readonly string[];
}

/** The empty pattern list: matches nothing. */
export const noNamePatterns: NamePatterns = Object.freeze({ exact: new Set<string>(), suffixes: [] });

/**
 * Compiles `name` / `*.suffix` entries to canonical form (IDNA, lower-case, one trailing dot dropped).
 * An entry that is not a valid host name is kept lower-cased as written, so it can still match its own text.
 */
export function compileNamePatterns(entries: readonly string[]): NamePatterns {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const entry of entries) {
    if (entry.startsWith('*.')) suffixes.push(`.${canonicalName(entry.slice(2))}`);
    else exact.add(canonicalName(entry));
  }
  return Object.freeze({ exact, suffixes: Object.freeze(suffixes) });
}

/** True when `name` (canonical, no trailing dot) is listed exactly or is a subdomain of a `*.` entry. */
export function matchesNamePatterns(patterns: NamePatterns, name: string): boolean {
  if (patterns.exact.has(name)) return true;
  for (const suffix of patterns.suffixes) if (name.endsWith(suffix) && name.length > suffix.length) return true;
  return false;
}

function canonicalName(name: string): string {
  const ascii = domainToASCII(name) || name.toLowerCase();
  return ascii.endsWith('.') ? ascii.slice(0, -1) : ascii;
}
