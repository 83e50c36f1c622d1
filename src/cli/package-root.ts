import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedEntryName } from '../start/start-files.ts';

/** The folder of linkgate's own package.json, found upward from this module (source, `dist/` or the bundle). */
export function packageRoot(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'linkgate')
      return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('linkgate package.json not found above the running module');
    dir = parent;
  }
}

/** The CLI entry the package's `bin` names, as an absolute path. */
export function cliEntry(): string {
  const root = packageRoot();
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: { linkgate: string } };
  return join(root, pkg.bin.linkgate);
}

/**
 * The script a host's per-event command line starts (issue 42 item 2), as an absolute path in the installed package:
 * `dist/bin/linkgate-cached.cjs`, which runs `hook` and `eval` from the event bundle with V8's code cache kept next to
 * it. `--print-config` writes `node <this> hook HOST …`.
 */
export function perEventEntry(): string {
  return join(packageRoot(), 'dist', 'bin', cachedEntryName);
}
