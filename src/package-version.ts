import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** linkgate's own version, read once from its package.json (the same relative path from `src/` and `dist/`). */
export function packageVersion(): string {
  cached ??= (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
  return cached;
}
