// A framework's real npm package, installed on demand into the test cache (never a dependency users download) and
// imported from there: the install goes through the real-host installer (one install per version, shared by workers
// and checkouts), and its check runs the package's entry under this Node, so a package that cannot run here is a skip
// with the error, not a failure deep inside a test.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TestContext } from 'vitest';
import { type HostSuite, realHostSuite } from '../real-host/host-suite.ts';
import { type HostInstall, installPackage } from '../real-host/install-package.ts';

/** An npm package at an exact version, with its peers installed beside it by npm, and the file that proves it loads. */
export interface FrameworkSpec {
  name: string;
  /** exact version, never a range */
  version: string;
  /** a module of the package, relative to the install prefix, that `node` runs to prove the package loads here */
  entry: string;
  /** more exact `name@version` specs installed beside it */
  with?: readonly string[];
}

/** Installs the framework into the test cache once, or says why it cannot (never throws). */
export function installFramework(spec: FrameworkSpec): Promise<HostInstall> {
  return installPackage({
    name: spec.name,
    version: spec.version,
    bin: spec.entry,
    viaNode: true,
    ...(spec.with === undefined ? {} : { with: spec.with }),
    // the entry prints nothing: the check is that node runs it to the end under this Node's version
    versionCheck: { args: [], expect: '' },
  });
}

/** Imports `specifier` (a package or one of its subpaths) from the install at `dir`, as an ES module would. */
export async function importFrom<T>(dir: string, specifier: string): Promise<T> {
  const parts = specifier.split('/');
  const name = parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  const subpath = ['.', ...parts.slice(name.split('/').length)].join('/');
  const root = path.join(dir, 'node_modules', name);
  const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
    exports?: unknown;
    module?: string;
    main?: string;
  };
  const target =
    manifest.exports === undefined
      ? subpath === '.'
        ? (manifest.module ?? manifest.main ?? 'index.js')
        : subpath
      : exportTarget(typeof manifest.exports === 'string' ? { '.': manifest.exports } : manifest.exports, subpath);
  if (target === undefined) throw new Error(`${name} exports no \`${subpath}\` for import`);
  return (await import(pathToFileURL(path.join(root, target)).href)) as T;
}

// the `import` target of one subpath of a package's `exports` map (conditions `import`, `node`, `default`, in order)
function exportTarget(exports: unknown, subpath: string): string | undefined {
  if (typeof exports !== 'object' || exports === null) return undefined;
  const map = exports as Record<string, unknown>;
  const entry = Object.keys(map).some((k) => k.startsWith('.')) ? map[subpath] : subpath === '.' ? map : undefined;
  return pickCondition(entry);
}

function pickCondition(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (typeof entry !== 'object' || entry === null) return undefined;
  const conditions = entry as Record<string, unknown>;
  for (const key of ['import', 'node', 'default']) {
    const found = pickCondition(conditions[key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A framework suite: the package installed before the file's tests (each test skips with the reason when it cannot be). */
export interface FrameworkSuite extends Omit<HostSuite, 'require'> {
  /** the install prefix to import the package from, or skips the test with the reason */
  require(ctx: TestContext): string;
}

/** Registers the install of `spec` before the file's tests and the removal of their scratch folders after them. */
export function frameworkSuite(label: string, spec: FrameworkSpec): FrameworkSuite {
  let dir: string | undefined;
  const suite = realHostSuite(label, async () => {
    const installed = await installFramework(spec);
    if (installed.ok) dir = installed.dir;
    return installed;
  });
  return {
    require(ctx) {
      suite.require(ctx);
      return dir as string;
    },
    scratch: (prefix) => suite.scratch(prefix),
    defer: (cleanup) => suite.defer(cleanup),
  };
}
