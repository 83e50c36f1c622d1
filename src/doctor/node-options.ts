/** A NODE_OPTIONS value split into arguments as node does, or why node refuses to start with it. */
export type NodeOptionsArgs = { readonly args: readonly string[] } | { readonly unreadable: string };

/**
 * `value` split as node 20 splits NODE_OPTIONS (ParseNodeOptionsEnvVar, src/node_options.cc): a space ends an
 * argument, a `"` starts or ends a quoted run in which a space is kept and `\` takes the next character as it is; the
 * quotes are dropped and runs join into one argument (`"--require" x` and `--re""quire x` are `--require`, `x`). An
 * unclosed quote or a `\` ending a quoted run is unreadable: node does not start.
 */
export function nodeOptionsArgs(value: string): NodeOptionsArgs {
  const args: string[] = [];
  let quoted = false;
  let fresh = true;
  for (let i = 0; i < value.length; i++) {
    let c = value[i] as string;
    if (c === '\\' && quoted) {
      if (i + 1 === value.length) return { unreadable: 'a `\\` ends it inside quotes' };
      c = value[++i] as string;
    } else if (c === ' ' && !quoted) {
      fresh = true;
      continue;
    } else if (c === '"') {
      quoted = !quoted;
      continue;
    }
    if (fresh) args.push(c);
    else args[args.length - 1] += c;
    fresh = false;
  }
  return quoted ? { unreadable: 'a quote is not closed' } : { args };
}

// node flags that run code of their own before the entry, and the env file (which can set NODE_OPTIONS)
const loading = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader']);
const envFile = new Set(['--env-file', '--env-file-if-exists']);

/**
 * The first of `args` (node's own arguments, or NODE_OPTIONS split by nodeOptionsArgs) that makes node run other code
 * first or read an env file, with which it is, or undefined. A long flag's name is read as node reads it: up to `=`,
 * `_` as `-` (`--experimental_loader=x` loads x).
 */
export function preloadingFlag(args: readonly string[]): { flag: string; kind: 'code' | 'env-file' } | undefined {
  for (const arg of args) {
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') ? (eq < 0 ? arg : arg.slice(0, eq)).replaceAll('_', '-') : arg;
    if (loading.has(name)) return { flag: name, kind: 'code' };
    if (envFile.has(name)) return { flag: name, kind: 'env-file' };
  }
  return undefined;
}
