import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** linkgate's own version from package.json (the same path from `src/review` and `dist/review`). */
export function toolVersion(): string {
  cached ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
  return cached;
}
