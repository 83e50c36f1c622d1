// The esbuild options of the CLI bundle, shared by `scripts/build-cli.ts` and the bench (which also builds variants).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';

/** The repository root. */
export const repoRoot = path.resolve(import.meta.dirname, '..');

// zod's namespace re-exports every locale (~300 KB of source that each process start would compile); linkgate's
// messages are English, which zod configures itself, so the bundle's locale table holds English only
const englishOnlyZodLocales: Plugin = {
  name: 'english-only-zod-locales',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`)
        ? { path: path.join(path.dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

// The gate's input schemas (src/gate/inputs.ts) use zod's mini build, which tree-shakes to the ~25 KB they use. But
// code splitting shares whole files: the zod core files that mini and the policy schema's classic zod both import
// would land in one ~150 KB chunk that every hook event loads. So the bundle gets its own copy of the zod files
// mini reaches, tree-shaken on its own; classic zod loads only where a policy is parsed (a hook event whose policy
// is cached never does). The two copies share no values: input schemas are mini's, the policy schema is classic's.
const zodMiniNamespace = 'zod-mini-copy';
const ownZodMiniCopy: Plugin = {
  name: 'own-zod-mini-copy',
  setup(b) {
    const inputs = path.join(repoRoot, 'src', 'gate', 'inputs.ts');
    const copy = async (spec: string, resolveDir: string, importer: string) => {
      const found = await b.resolve(spec, { resolveDir, importer, kind: 'import-statement' });
      if (found.errors.length > 0) return { errors: found.errors };
      // the files of a plugin's namespace lose their package's `sideEffects: false`, and with it tree shaking
      return { path: found.path, namespace: zodMiniNamespace, sideEffects: found.sideEffects };
    };
    b.onResolve({ filter: /^zod\// }, (args) =>
      args.importer === inputs && args.namespace === 'file'
        ? copy(args.path, args.resolveDir, args.importer)
        : undefined,
    );
    b.onResolve({ filter: /.*/, namespace: zodMiniNamespace }, (args) =>
      copy(args.path, args.resolveDir, args.importer),
    );
    b.onLoad({ filter: /.*/, namespace: zodMiniNamespace }, async (args) => ({
      contents: await readFile(args.path, 'utf8'),
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

/** Options for bundling the CLI entry into `outdir`; the variants exist for the bench's comparison only. */
export function cliBuildOptions(
  outdir: string,
  variant: { splitting?: boolean; englishOnly?: boolean; minify?: boolean } = {},
): BuildOptions {
  return {
    absWorkingDir: repoRoot,
    entryPoints: { linkgate: 'src/cli/main.ts' },
    outdir,
    bundle: true,
    // one chunk per command's modules: a command loads only what it imports
    splitting: variant.splitting ?? true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    chunkNames: 'chunk-[hash]',
    // `import(telemetrySdkPackage)` stays a runtime import: the optional peer is the user's to install
    external: ['@opentelemetry/sdk-node'],
    // CommonJS dependencies (json-logic-js) call require(); an ES module has none of its own
    banner: {
      js: "import { createRequire as __linkgateRequire } from 'node:module';\nconst require = __linkgateRequire(import.meta.url);",
    },
    // less source to parse at each start
    minify: variant.minify ?? true,
    plugins: [ownZodMiniCopy, ...((variant.englishOnly ?? true) ? [englishOnlyZodLocales] : [])],
    sourcemap: 'linked',
    logLevel: 'warning',
  };
}
