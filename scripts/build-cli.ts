// Bundles the CLI entry into dist/bin/ (`npm run build`, after tsc): code-split, so starting `linkgate hook` loads
// the hook's modules and what they import, not the probe's SDK client or the reviewer's reporters. Then the library's
// entries into dist/lib/, which the package's `exports` name (types stay tsc's `.d.ts` in dist/; docs/speed.md "The
// library's cold start"), in the same process: one tsx start fewer in `npm run build`.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { cachedEntryBuildOptions, cliBuildOptions, eventBuildOptions, repoRoot } from './cli-build-options.ts';
import { libraryBuildOptions, libraryDir } from './library-build-options.ts';

const outdir = path.join(repoRoot, 'dist', 'bin');
await rm(outdir, { recursive: true, force: true });
await build(cliBuildOptions(outdir));
// the per-event commands again as one CommonJS script, and the start that runs it with V8's code cache (docs/speed.md)
await build(eventBuildOptions(outdir));
await build(cachedEntryBuildOptions(outdir));
process.stderr.write('bundled dist/bin/linkgate.js, linkgate-event.cjs and linkgate-cached.cjs\n');
const libraryOut = path.join(repoRoot, libraryDir);
await rm(libraryOut, { recursive: true, force: true });
await build(libraryBuildOptions(libraryOut));
process.stderr.write(`bundled ${libraryDir}/ (the library entries the package exports)\n`);
