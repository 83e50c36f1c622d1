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
const loading = new Set(['--require', '--import', '--experimental-loader']);
const envFile = new Set(['--env-file', '--env-file-if-exists']);

// node 20's options that take the next argument as their value when written without `=` (`node --help`; `-r x`,
// `--require x`); the short ones only so (`-r=x` is a bad option)
const valued = new Set([
  '--allow-fs-read',
  '--allow-fs-write',
  '--build-snapshot-config',
  '--conditions',
  '--cpu-prof-dir',
  '--cpu-prof-interval',
  '--cpu-prof-name',
  '--diagnostic-dir',
  '--disable-proto',
  '--disable-warning',
  '--dns-result-order',
  '--env-file',
  '--env-file-if-exists',
  '--eval',
  '--experimental-default-type',
  '--experimental-loader',
  '--experimental-policy',
  '--experimental-sea-config',
  '--heap-prof-dir',
  '--heap-prof-interval',
  '--heap-prof-name',
  '--heapsnapshot-near-heap-limit',
  '--heapsnapshot-signal',
  '--icu-data-dir',
  '--import',
  '--input-type',
  '--inspect-port',
  '--inspect-publish-uid',
  '--max-http-header-size',
  '--network-family-autoselection-attempt-timeout',
  '--openssl-config',
  '--policy-integrity',
  '--print',
  '--redirect-warnings',
  '--report-directory',
  '--report-filename',
  '--report-signal',
  '--require',
  '--secure-heap',
  '--secure-heap-min',
  '--snapshot-blob',
  '--test-concurrency',
  '--test-name-pattern',
  '--test-reporter',
  '--test-reporter-destination',
  '--test-shard',
  '--test-timeout',
  '--title',
  '--tls-cipher-list',
  '--tls-keylog',
  '--trace-event-categories',
  '--trace-event-file-pattern',
  '--trace-require-module',
  '--unhandled-rejections',
  '--use-largepages',
  '--v8-pool-size',
  '--watch-path',
]);

// node options known to leave a linkgate entry's answer alone (an allow-list: doctor counts any other as not gated):
// warnings and traces, memory and the process title, certificates and name order, how the bundle's own relative
// imports resolve (the bundle loads nothing by package name); `--require`, `--import`, a loader and an env file are
// named apart (preloadingFlag)
const vetted = new Set([
  '--no-warnings',
  '--disable-warning',
  '--no-deprecation',
  '--trace-warnings',
  '--trace-deprecation',
  '--trace-uncaught',
  '--pending-deprecation',
  '--enable-source-maps',
  '--max-old-space-size',
  '--max-semi-space-size',
  '--title',
  '--use-openssl-ca',
  '--use-bundled-ca',
  '--openssl-legacy-provider',
  '--dns-result-order',
  '--input-type',
  '--conditions',
  '--preserve-symlinks',
  '--preserve-symlinks-main',
  '--max-http-header-size',
  '--v8-pool-size',
  '--zero-fill-buffers',
  '--redirect-warnings',
  '--diagnostic-dir',
  '--experimental-vm-modules',
]);
// options after which node keeps running once the script is done, or waits for a debugger before it: no answer
// reaches the host before its timeout
const keepsRunning = new Set(['--watch', '--watch-path', '--watch-preserve-output', '--inspect-brk', '--inspect-wait']);
// options that open node's inspector: any local process that reaches its port can change what linkgate answers
const opensInspector = new Set(['--inspect', '--inspect-port', '--inspect-publish-uid']);

// node's other spellings of an option
const aliases: ReadonlyMap<string, string> = new Map([
  ['-r', '--require'],
  ['-e', '--eval'],
  ['-p', '--print'],
  ['-pe', '--print'],
  ['-C', '--conditions'],
  ['-c', '--check'],
  ['-v', '--version'],
  ['-h', '--help'],
  ['--loader', '--experimental-loader'],
  ['--debug-port', '--inspect-port'],
  ['--report-dir', '--report-directory'],
  ['-i', '--interactive'],
]);

// options after which node runs no script of the command line: it evaluates, prints, checks or tests instead
const runsNoScript = new Set([
  '--eval',
  '--print',
  '--check',
  '--version',
  '--help',
  '--v8-options',
  '--completion-bash',
  '--prof-process',
  '--test',
  '--build-snapshot',
]);

// the option `arg` names, as node reads its name: a long one up to `=`, `_` as `-`; aliases as what they stand for
function optionName(arg: string): string {
  if (!arg.startsWith('--')) return aliases.get(arg) ?? arg;
  const eq = arg.indexOf('=');
  const name = (eq < 0 ? arg : arg.slice(0, eq)).replaceAll('_', '-');
  return aliases.get(name) ?? name;
}

/** One of node's options as node reads it: its name (`--require` for `-r`), its value, and its words as written. */
export interface NodeOption {
  readonly name: string;
  readonly value?: string;
  readonly words: readonly string[];
}

// `args` from `at` read as node's options, up to the first that is not one (or the end); where they ended, and the
// option node refuses to start with (one that takes a value followed by none, or by a word starting with `-`)
function readOptions(args: readonly string[], at = 0): { options: NodeOption[]; end: number; missing?: string } {
  const options: NodeOption[] = [];
  let i = at;
  while (i < args.length) {
    const arg = args[i] as string;
    if (arg === '-' || arg === '--' || !arg.startsWith('-')) break;
    const name = optionName(arg);
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    if (eq >= 0) options.push({ name, value: arg.slice(eq + 1), words: [arg] });
    else if (valued.has(name)) {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('-')) return { options, end: i, missing: arg };
      options.push({ name, value, words: [arg, value] });
      i += 1;
    } else options.push({ name, words: [arg] });
    i += 1;
  }
  return { options, end: i };
}

/**
 * The first option of `args` (NODE_OPTIONS split by nodeOptionsArgs) that takes a value and has none (`--title -r`,
 * a `--require` at the end), or undefined: node does not start with it.
 */
export function optionWithoutValue(args: readonly string[]): string | undefined {
  for (let at = 0; at < args.length; ) {
    const { end, missing } = readOptions(args, at);
    if (missing !== undefined) return missing;
    at = end + 1;
  }
  return undefined;
}

/** `node [options] [script | -] [--] [arguments]` (the words after `node`) read as node 20 reads them. */
export interface NodeCommandLine {
  /** node's own options, values included, as written */
  readonly options: readonly NodeOption[];
  /** the first word after the options (after `--` when there is one): the script, unless `runsNone` */
  readonly script: string | undefined;
  /** the words after it: the script's arguments */
  readonly args: readonly string[];
  /** an option after which node runs no script (`--eval`, `--check`, `--version`, …): `script` is then an argument */
  readonly runsNone?: string;
  /** an option node does not start with: it takes a value and none follows (`--title -r`) */
  readonly refused?: string;
}

/** `argv` (the words after `node`) read as node reads them: its options (with their values), the script and its arguments. */
export function nodeCommandLine(argv: readonly string[]): NodeCommandLine {
  const { options, end, missing } = readOptions(argv);
  const at = argv[end] === '--' ? end + 1 : end;
  const runsNone = options.find((o) => runsNoScript.has(o.name))?.name;
  // node stops at the option it refuses: the script is still where it would have been (`--title -r linkgate.js`)
  const script = missing === undefined ? argv[at] : argv.slice(end).find((w) => !w.startsWith('-'));
  return {
    options,
    script,
    args: script === undefined ? [] : argv.slice(argv.indexOf(script, end) + 1),
    ...(runsNone === undefined ? {} : { runsNone }),
    ...(missing === undefined ? {} : { refused: missing }),
  };
}

/**
 * The first of `args` (node's own arguments, or NODE_OPTIONS split by nodeOptionsArgs) that makes node run other code
 * first or read an env file, with which it is, or undefined. Read as node reads them: a long flag's name up to `=`,
 * `_` as `-` (`--experimental_loader=x` loads x), `-r` as `--require`, and an option's value is not an option
 * (`--title -r` names the process `-r`).
 */
export function preloadingFlag(args: readonly string[]): { flag: string; kind: 'code' | 'env-file' } | undefined {
  for (let at = 0; at < args.length; ) {
    const { options, end, missing } = readOptions(args, at);
    // node does not start: nothing loads (`optionWithoutValue` says so)
    if (missing !== undefined) return undefined;
    for (const option of options) {
      // named as written (`-r`, `--experimental_loader`), its value left out
      const flag = (option.words[0] as string).split('=')[0] as string;
      if (loading.has(option.name)) return { flag, kind: 'code' };
      if (envFile.has(option.name)) return { flag, kind: 'env-file' };
    }
    // a word that is not an option (NODE_OPTIONS holds none node would take): read on after it
    at = end + 1;
  }
  return undefined;
}

/**
 * Why the first of `args` (node's own arguments, or NODE_OPTIONS split by nodeOptionsArgs) that doctor has not vetted
 * may keep linkgate's answer from the host, or undefined when every option is one it knows to leave the answer alone.
 */
export function unvettedFlag(args: readonly string[]): string | undefined {
  for (let at = 0; at < args.length; ) {
    const { options, end, missing } = readOptions(args, at);
    if (missing !== undefined) return undefined;
    for (const option of options) {
      if (vetted.has(option.name) || loading.has(option.name) || envFile.has(option.name)) continue;
      const flag = (option.words[0] as string).split('=')[0] as string;
      if (keepsRunning.has(option.name))
        return `\`${flag}\` keeps node running or waiting for a debugger: no answer reaches the host before its timeout`;
      if (opensInspector.has(option.name))
        return `\`${flag}\` opens node's inspector: a local process that reaches its port can change what linkgate answers`;
      return `\`${flag}\` is not an option doctor knows to leave linkgate's answer alone: not counted as gated (drop it)`;
    }
    at = end + 1;
  }
  return undefined;
}
