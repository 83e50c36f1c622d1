// The esbuild options of the CLI bundle, shared by `scripts/build-cli.ts` and the bench (which also builds variants).
import path from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';
import { buildKeyOf } from '../src/policy/policy-cache.ts';

/** The repository root. */
export const repoRoot = path.resolve(import.meta.dirname, '..');

// zod's namespace re-exports every locale (~300 KB of source that each process start would compile); linkgate's
// messages are English, which zod configures itself, so the bundle's locale table holds English only
/** esbuild plugin: zod's locale table with English only (linkgate's messages are English). */
export const englishOnlyZodLocales: Plugin = {
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
    // what a validated policy in the cache depends on besides its bytes, known when the bundle is built: an event
    // reads no package file to know it (src/policy/policy-cache.ts)
    define: { LINKGATE_POLICY_BUILD_KEY: JSON.stringify(buildKeyOf(repoRoot)) },
    // less source to parse at each start
    minify: variant.minify ?? true,
    plugins: (variant.englishOnly ?? true) ? [englishOnlyZodLocales] : [],
    sourcemap: 'linked',
    logLevel: 'warning',
  };
}

// CommonJS has no `import.meta`: the bundles below take its url from their own file name
const commonJsUrl = {
  banner: { js: 'const __linkgateUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: { 'import.meta.url': '__linkgateUrl' },
};

/** The file name, beside the event bundle, of the packages only a policy that is not yet cached needs. */
export const policyDepsName = 'linkgate-policy-deps';
// every bare specifier of these packages that src/ imports for its value (type imports are erased); the build fails on
// any other, so a new import cannot put a package back into every event
const policyDepsSpecifiers = ['zod', 'yaml'];
const policyDepsPackage = /^(zod|yaml)(\/.*)?$/;

/**
 * esbuild plugin for the event bundle: `zod` and `yaml` (the policy schema and the YAML parser, which only a policy
 * not yet in the validated cache needs) are taken at run time from `linkgate-policy-deps.cjs` beside the bundle, a
 * second output of the same build, so an event neither reads nor compiles them (docs/speed.md).
 */
export const policyDepsSidecar: Plugin = {
  name: 'policy-deps-sidecar',
  setup(b) {
    const sidecar = `./${policyDepsName}.cjs`;
    b.onResolve({ filter: new RegExp(`^${policyDepsName}$`) }, () => ({ path: 'entry', namespace: 'policy-deps' }));
    b.onLoad({ filter: /.*/, namespace: 'policy-deps' }, () => ({
      contents:
        policyDepsSpecifiers.map((s, i) => `import * as m${i} from ${JSON.stringify(s)};`).join('\n') +
        `\nexport default { ${policyDepsSpecifiers.map((s, i) => `${JSON.stringify(s)}: m${i}`).join(', ')} };\n`,
      resolveDir: repoRoot,
    }));
    b.onResolve({ filter: policyDepsPackage }, (args) => {
      // the sidecar's own entry and the packages' files resolve as usual
      if (args.namespace === 'policy-deps' || args.importer.includes(`${path.sep}node_modules${path.sep}`)) return;
      if (!policyDepsSpecifiers.includes(args.path))
        return { errors: [{ text: `${args.path}: not in the policy-deps sidecar (scripts/cli-build-options.ts)` }] };
      return { path: args.path, namespace: 'policy-deps-ref' };
    });
    b.onResolve({ filter: new RegExp(`^\\./${policyDepsName}\\.cjs$`) }, (args) => ({
      path: args.path,
      external: true,
    }));
    b.onLoad({ filter: /.*/, namespace: 'policy-deps-ref' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(sidecar)}).default[${JSON.stringify(args.path)}];`,
      loader: 'js',
    }));
  },
};

/**
 * Packages whose module code the event bundle runs only at a call of one of the named exports, not when their importer
 * loads: `entities` decodes its HTML entity table when it is evaluated (~2% of a pre-read hook event), and only a text
 * read back for a refused address that holds a `&` calls it (`src/flow/read-back.ts`).
 */
export const deferredPackages: Readonly<Record<string, { from: string; names: readonly string[] }>> = {
  entities: { from: 'entities/decode', names: ['decodeHTML'] },
};

/**
 * esbuild plugin for the event bundle: an import of a `deferredPackages` package from linkgate's own sources gets a
 * module of functions of the same names that `require` the package at their first call (esbuild bundles that
 * `require` as a lazily run initializer), so the package is still in the bundle but runs only when used; an import of
 * any other name fails the build.
 */
export const deferredPackageImports: Plugin = {
  name: 'deferred-package-imports',
  setup(b) {
    const names = Object.keys(deferredPackages);
    b.onResolve({ filter: new RegExp(`^(?:${names.join('|')})$`) }, (args) =>
      args.namespace === 'file' && !args.importer.includes(`${path.sep}node_modules${path.sep}`)
        ? { path: args.path, namespace: 'deferred-package' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'deferred-package' }, (args) => {
      const { from, names: exported } = deferredPackages[args.path] as { from: string; names: readonly string[] };
      return {
        contents:
          `let loaded;
const load = () => (loaded ??= require(${JSON.stringify(from)}));
` +
          exported
            .map(
              (n) => `export function ${n}(...args) { return load().${n}(...args); }
`,
            )
            .join(''),
        resolveDir: repoRoot,
        loader: 'js',
      };
    });
  },
};

/**
 * Options for the event bundle `linkgate-event.cjs` (issue 42 item 2): the per-event commands as one CommonJS script,
 * so the code-cache start (`linkgate-cached.cjs`) can compile it with V8's code cache, which ES modules cannot use on
 * Node 20. What those commands load lazily (the read decision) stays lazy inside it; zod and yaml are a second output,
 * `linkgate-policy-deps.cjs`, required only when a policy is validated (`policyDepsSidecar`).
 */
export function eventBuildOptions(outdir: string): BuildOptions {
  const base = cliBuildOptions(outdir);
  return {
    ...base,
    entryPoints: { 'linkgate-event': 'src/cli/event-main.ts', [policyDepsName]: policyDepsName },
    splitting: false,
    plugins: [...(base.plugins ?? []), policyDepsSidecar, deferredPackageImports],
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    banner: commonJsUrl.banner,
    define: { ...base.define, ...commonJsUrl.define },
    // a source map would be read at every start by nothing; the event bundle maps to the same sources as linkgate.js
    sourcemap: false,
  };
}

/** Options for `linkgate-cached.cjs`, the small start script that runs the event bundle with its code cache. */
export function cachedEntryBuildOptions(outdir: string): BuildOptions {
  return {
    ...eventBuildOptions(outdir),
    entryPoints: { 'linkgate-cached': 'src/cli/cached-start.ts' },
    define: { ...commonJsUrl.define, LINKGATE_CACHED_ENTRY: 'true' },
  };
}
