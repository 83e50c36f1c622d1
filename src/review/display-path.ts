import { isAbsolute, relative, resolve, sep } from 'node:path';

/** How a file is named in reports: relative to `cwd` with `/` separators when inside it, else absolute. */
export function displayPath(cwd: string, file: string): string {
  const absolute = resolve(cwd, file);
  const rel = relative(cwd, absolute);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return absolute;
  return rel.split(sep).join('/');
}
