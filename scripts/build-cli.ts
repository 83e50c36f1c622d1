// Bundles the CLI entry into dist/bin/ (`npm run build`, after tsc): code-split, so starting `linkgate hook` loads
// the hook's modules and what they import, not the probe's SDK client or the reviewer's reporters. The library stays
// plain tsc output in dist/ for hosts that bundle themselves.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { cachedEntryBuildOptions, cliBuildOptions, eventBuildOptions, repoRoot } from './cli-build-options.ts';

const outdir = path.join(repoRoot, 'dist', 'bin');
await rm(outdir, { recursive: true, force: true });
await build(cliBuildOptions(outdir));
// the per-event commands again as one CommonJS script, and the start that runs it with V8's code cache (docs/speed.md)
await build(eventBuildOptions(outdir));
await build(cachedEntryBuildOptions(outdir));
process.stderr.write('bundled dist/bin/linkgate.js, linkgate-event.cjs and linkgate-cached.cjs\n');
