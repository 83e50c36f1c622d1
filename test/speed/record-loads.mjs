// Preloaded with `node --import` by the module-load guard (pre-read-loads.test.ts): records every module the process
// loads, ES modules through a loader hook and CommonJS ones (zod's `require`d build) from the require cache at exit,
// one path or URL a line, into the file `LINKGATE_LOADS_FILE` names.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const out = process.env.LINKGATE_LOADS_FILE;
if (out === undefined) throw new Error('record-loads.mjs needs LINKGATE_LOADS_FILE');
const hooks = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(out)}, url + '\\n');
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
const require = createRequire(import.meta.url);
process.on('exit', () => {
  appendFileSync(
    out,
    Object.keys(require.cache)
      .map((file) => `${file}\n`)
      .join(''),
  );
});
