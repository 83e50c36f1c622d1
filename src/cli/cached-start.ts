// `dist/bin/linkgate-cached.cjs`, the command line `--print-config` can give a host (issue 42 item 2): the per-event
// commands (`hook`, `eval`) run from the event bundle compiled with V8's code cache kept next to it
// (`dist/bin/code-cache/`); any other command runs the usual CLI bundle. Kept tiny: it is compiled at every start.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runCachedScript } from '../start/code-cache.ts';
import { codeCacheDir, eventBundleName } from '../start/start-files.ts';

/** The commands the event bundle holds (`perEventCommands`; a test holds them equal). */
export const eventCommandNames: readonly string[] = ['hook', 'eval'];

/** Runs the CLI from the installed `dist/bin` folder `binDir`: the event bundle with its code cache, or the full CLI. */
export async function startCached(binDir: string, argv: readonly string[]): Promise<void> {
  if (!eventCommandNames.includes(argv[0] ?? '')) {
    const cli = (await import(pathToFileURL(join(binDir, 'linkgate.js')).href)) as {
      runAsProcess: (argv: readonly string[]) => Promise<void>;
    };
    return cli.runAsProcess(argv);
  }
  const script = runCachedScript(join(binDir, eventBundleName), codeCacheDir(binDir));
  // written at exit, so the functions this run compiled are in it
  process.once('exit', () => script.save());
  if (process.env['LINKGATE_CODE_CACHE_REPORT'] === '1')
    process.stderr.write(`linkgate code cache: ${script.status}\n`);
  await (script.exports['runEvent'] as (argv: readonly string[]) => Promise<void>)(argv);
}

declare const LINKGATE_CACHED_ENTRY: boolean | undefined;
if (typeof LINKGATE_CACHED_ENTRY === 'boolean' && LINKGATE_CACHED_ENTRY)
  startCached(dirname(fileURLToPath(import.meta.url)), process.argv.slice(2)).catch((error: unknown) => {
    // exit 2 is the code hosts treat as a block: a start that fails refuses the call
    process.stderr.write(`linkgate: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
