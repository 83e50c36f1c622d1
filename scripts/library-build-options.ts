// The esbuild options of the library bundle `dist/lib/` (`npm run build`, after tsc; docs/speed.md "The library's
// cold start"), shared by `scripts/build-cli.ts`, the module-load guard (test/speed/library-loads.test.ts) and
// the bench. Every JavaScript subpath of the package's `exports` that names `./dist/lib/X.js` is built from `src/X.ts`,
// all in one build: code split, so `linkgate`, `linkgate/testing` and the framework subpaths share one copy of each
// module (one `GateError` class, one gate registry), and the read decision stays a chunk loaded at the first read.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BuildOptions } from 'esbuild';
import { englishOnlyZodLocales, repoRoot } from './cli-build-options.ts';

interface Manifest {
  exports: Record<string, string | { default?: string }>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifest = (): Manifest => JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest;

/** The folder of the library bundle, relative to the package root. */
export const libraryDir = 'dist/lib';

/** Each bundled entry (`index`, `testing/index`, `frameworks/mastra-tools` …) to its source, from the package's `exports`. */
export function libraryEntries(): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const target of Object.values(manifest().exports)) {
    const file = typeof target === 'string' ? target : target.default;
    const name = file?.startsWith(`./${libraryDir}/`) ? file.slice(libraryDir.length + 3, -'.js'.length) : undefined;
    if (name !== undefined) entries[name] = `src/${name}.ts`;
  }
  return entries;
}

/**
 * What stays an import of the user's installed package: the peers (the user's SDK, whose classes and errors the host
 * shares with linkgate), every dev dependency (never installed for users), and `@opentelemetry/api` (a registry of
 * one global tracer provider: the user's copy, never a second). The runtime dependencies are bundled: zod and yaml are
 * 168 modules an ES-module load resolves, reads and links one by one, and ipaddr.js is CommonJS, whose import from an
 * ES module starts Node's CommonJS export lexer (~40 ms of CPU at a cold start, measured in docs/speed.md).
 */
export function libraryExternals(): string[] {
  const { devDependencies = {}, peerDependencies = {} } = manifest();
  return [...Object.keys(peerDependencies), ...Object.keys(devDependencies), '@opentelemetry/api'];
}

/** Options for bundling the library entries into `outdir` (the package's `dist/lib`, or a test's scratch folder). */
export function libraryBuildOptions(outdir: string): BuildOptions {
  return {
    absWorkingDir: repoRoot,
    entryPoints: libraryEntries(),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    chunkNames: 'chunk-[hash]',
    external: libraryExternals(),
    // CommonJS dependencies call require(); an ES module has none of its own
    banner: {
      js: "import { createRequire as __linkgateRequire } from 'node:module';\nconst require = __linkgateRequire(import.meta.url);",
    },
    // not minified: a library's stack traces are read by its users (minifying saved no measurable CPU: functions
    // are compiled lazily); the source map points to src/
    minify: false,
    plugins: [englishOnlyZodLocales],
    sourcemap: 'linked',
    logLevel: 'warning',
  };
}
