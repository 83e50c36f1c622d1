import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** linkgate's own version, read once from the nearest package.json named `linkgate` above this module (source, `dist/` or the bundle's chunks). */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'linkgate' && typeof pkg.version === 'string') return (cached = pkg.version);
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('linkgate package.json not found above the running module');
    dir = parent;
  }
}
