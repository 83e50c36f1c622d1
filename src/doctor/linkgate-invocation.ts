import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, relative, resolve as resolvePath } from 'node:path';
import { isRecord } from '../decision/json-value.ts';
import { readRegularFileSync } from '../policy/read-regular-file.ts';
import { cachedEntryName } from '../start/start-files.ts';
import { nodeCommandLine, nodeOptionsArgs, optionWithoutValue, preloadingFlag, unvettedFlag } from './node-options.ts';

/** A command line that runs linkgate: which subcommand, from which entry, with which policy and review options. */
export interface LinkgateInvocation {
  readonly subcommand: 'proxy' | 'hook';
  /** the host `linkgate hook HOST` speaks for (hook only) */
  readonly host?: string;
  /** the linkgate entry that runs: a script path (`node …/linkgate.js`), or the `linkgate` found on PATH */
  readonly bundle: string;
  readonly bundleExists: boolean;
  /** the node flags before the script (`node [flags] SCRIPT …`), when there are any: the code cache is keyed by them */
  readonly nodeFlags?: readonly string[];
  /** why the entry is not linkgate's own (a script merely named `linkgate.js`), when it exists but is not */
  readonly entryProblem?: string;
  /** `--mode` as written: `enforce` unless the command says `observe` */
  readonly mode: 'enforce' | 'observe';
  /** why the command will not run as linkgate should (a `--mode` it refuses, node flags that load other code) */
  readonly argProblem?: string;
  /** `--strict-files`: a policy this user could change is refused, so the command does not start */
  readonly strictFiles?: true;
  /** `--records` as written (relative to the host's working directory) */
  readonly records?: string;
  /** `--state` as written (relative to the host's working directory; hook only) */
  readonly state?: string;
  /** `--policy` as written (relative to the host's working directory) */
  readonly policy?: string;
  readonly allowedSigners?: string;
  readonly minSigners?: string;
}

const entryNames = new Set(['linkgate', 'linkgate.js', 'linkgate.mjs', 'linkgate.cjs']);
const nodeNames = new Set(['node', 'node.exe', 'nodejs']);
// the per-event start `--print-config` writes (`node …/dist/bin/linkgate-cached.cjs hook HOST …`), beside the bin entry
const cachedEntry = cachedEntryName;

/**
 * The linkgate invocation `argv` runs (`linkgate proxy …`, `node /path/linkgate.js hook HOST …`, `npx linkgate …`),
 * or undefined when it runs something else. `cwd` resolves a relative script; `path` is the PATH a bare `linkgate`
 * is looked up on.
 */
export function linkgateInvocation(
  argv: readonly string[],
  cwd: string,
  path: string | undefined,
): LinkgateInvocation | undefined {
  const first = argv[0];
  if (first === undefined) return undefined;
  let bundle: string;
  let bundleExists: boolean;
  let rest: readonly string[];
  let nodeFlags: readonly string[] | undefined;
  const name = basename(first);
  let runsNone: string | undefined;
  let refused: string | undefined;
  if (nodeNames.has(name)) {
    // node [node options, with their values] SCRIPT args…, read as node reads it (`-r x linkgate.js` runs linkgate.js)
    const line = nodeCommandLine(argv.slice(1));
    const script = line.script;
    if (script === undefined || !(entryNames.has(basename(script)) || basename(script) === cachedEntry))
      return undefined;
    bundle = resolvePath(cwd, script);
    nodeFlags = line.options.flatMap((o) => o.words);
    bundleExists = existsSync(bundle);
    rest = line.args;
    runsNone = line.runsNone;
    refused = line.refused;
  } else if (name === 'npx' || name === 'pnpx' || name === 'bunx') {
    const at = argv.findIndex((a, i) => i > 0 && !a.startsWith('-'));
    const pkg = argv[at];
    if (pkg === undefined || !/^linkgate(@.*)?$/.test(pkg)) return undefined;
    bundle = `${name} ${pkg}`;
    // resolved by npx when the host starts it: not a file doctor can check
    bundleExists = false;
    rest = argv.slice(at + 1);
  } else if (entryNames.has(name)) {
    bundle = first.includes('/') ? resolvePath(cwd, first) : (onPath(first, path) ?? first);
    bundleExists = isAbsolute(bundle) && executable(bundle);
    rest = argv.slice(1);
  } else return undefined;

  const subcommand = rest[0];
  if (subcommand !== 'proxy' && subcommand !== 'hook') return undefined;
  const entryProblem = bundleExists ? notLinkgateEntry(bundle) : undefined;
  // options end at `--` (the proxy's server command follows)
  const end = rest.indexOf('--');
  const own = end < 0 ? rest.slice(1) : rest.slice(1, end);
  const host = subcommand === 'hook' ? own.find((a) => !a.startsWith('-') && !isOptionValue(own, a)) : undefined;
  const mode = option(own, 'mode')['mode'];
  // an option that makes the command print and exit 0: the host reads no answer (Claude Code takes it as an allow)
  const printsOnly = own.find((a) => printAndExit.has(a) && !isOptionValue(own, a));
  const argProblem =
    mode !== undefined && mode !== 'enforce' && mode !== 'observe'
      ? `\`--mode ${mode}\` is refused by the command: it does not start`
      : printsOnly !== undefined
        ? `\`${printsOnly}\` makes the command print and exit: it answers no event`
        : refused !== undefined
          ? `node does not start: \`${refused}\` takes a value and none follows`
          : runsNone !== undefined
            ? `node runs no script with \`${runsNone}\`: linkgate does not run, nothing answers`
            : preloadProblem('its node flags', nodeFlags ?? []);
  return {
    subcommand,
    ...(host === undefined ? {} : { host }),
    bundle,
    bundleExists,
    ...(nodeFlags === undefined || nodeFlags.length === 0 ? {} : { nodeFlags }),
    ...(entryProblem === undefined ? {} : { entryProblem }),
    mode: mode === 'observe' ? 'observe' : 'enforce',
    ...(argProblem === undefined ? {} : { argProblem }),
    ...(own.includes('--strict-files') ? { strictFiles: true as const } : {}),
    ...option(own, 'records'),
    ...(subcommand === 'hook' ? option(own, 'state') : {}),
    ...option(own, 'policy'),
    ...option(own, 'allowed-signers', 'allowedSigners'),
    ...option(own, 'min-signers', 'minSigners'),
  };
}

/**
 * Why node options may keep linkgate's answer from the host, or undefined: code of its own run before linkgate
 * (`--require`, `--import`, a loader, an `--env-file` that can set NODE_OPTIONS), which can answer in linkgate's place,
 * or any option doctor has not vetted (`--watch` and `--inspect-brk` never let the host have an answer in time). `options` is a
 * NODE_OPTIONS value, split as node splits it (quotes and all), or node's own arguments as the command gives them. A
 * NODE_OPTIONS node cannot read is a problem too: node does not start.
 */
export function preloadProblem(where: string, options: string | readonly string[]): string | undefined {
  let args: readonly string[];
  if (typeof options === 'string') {
    const split = nodeOptionsArgs(options);
    if ('unreadable' in split)
      return `${where} cannot be read as node reads it (${split.unreadable}): node does not start`;
    args = split.args;
    const missing = optionWithoutValue(args);
    if (missing !== undefined)
      return `${where} cannot be read as node reads it (\`${missing}\` takes a value and none follows): node does not start`;
  } else args = options;
  const found = preloadingFlag(args);
  if (found === undefined) {
    const unvetted = unvettedFlag(args);
    return unvetted === undefined ? undefined : `${where}: ${unvetted}`;
  }
  // node reads NODE_OPTIONS from an env file too (node 20): a `--require` there runs before linkgate
  return found.kind === 'code'
    ? `${where} load other code first (\`${found.flag}\`): linkgate may not be what answers`
    : `${where} read an env file (\`${found.flag}\`), whose NODE_OPTIONS can load other code first: linkgate may not be what answers`;
}

/**
 * The first shell operator of `line` outside quotes (`;`, `&`, `|`, `<`, `>`, a backtick, `$(`, a newline), or
 * undefined: with one, the shell runs more than linkgate (`|| true`, `&`, `> /dev/null`), and what reaches the host is
 * not linkgate's answer.
 */
export function shellOperator(line: string): string | undefined {
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote === "'") {
      if (c === "'") quote = undefined;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\') i++;
      else if (c === '`' || (c === '$' && line[i + 1] === '(')) return c === '`' ? c : '$(';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (';&|<>`\n'.includes(c) || (c === '$' && line[i + 1] === '(')) return c === '$' ? '$(' : c;
  }
  return undefined;
}

// linkgate's own options that print something and exit without reading an event or starting a server
const printAndExit = new Set(['--help', '-h', '--print-config']);

const valued = new Set([
  '--policy',
  '--allowed-signers',
  '--min-signers',
  '--records',
  '--state',
  '--mode',
  '--server',
  '--policy-id',
  '--min-version',
  '--url',
  '--header',
]);

function isOptionValue(args: readonly string[], value: string): boolean {
  const at = args.indexOf(value);
  return at > 0 && valued.has(args[at - 1] ?? '');
}

function option(args: readonly string[], name: string, key: string = name): Record<string, string> {
  let found: string | undefined;
  args.forEach((a, i) => {
    if (a === `--${name}`) found = args[i + 1] ?? found;
    else if (a.startsWith(`--${name}=`)) found = a.slice(name.length + 3);
  });
  return found === undefined ? {} : { [key]: found };
}

/**
 * Why `file` is not linkgate's entry, or undefined when it is: the `bin.linkgate` of a package named `linkgate` (an
 * npm install, a checkout), or `dist/bin/linkgate.js` of the linkgate Claude Code plugin, or the per-event start
 * `linkgate-cached.cjs` beside either; symlinks (npm's bin links) are followed. Any other script named `linkgate.js` is not linkgate, whatever it forwards to.
 */
export function notLinkgateEntry(file: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return `linkgate entry \`${file}\` cannot be resolved`;
  }
  if (linkgateRoot(real) !== undefined) return undefined;
  return `\`${file}\` is not linkgate's entry: no linkgate package.json or plugin manifest names it`;
}

/**
 * The folder of the linkgate package (or plugin) whose entry `file` is, found as `notLinkgateEntry` finds it: the code
 * the entry runs lies in it. Undefined when `file` is no linkgate entry.
 */
export function linkgatePackageRoot(file: string): string | undefined {
  try {
    return linkgateRoot(realpathSync(file));
  } catch {
    return undefined;
  }
}

// `real`: a real path
function linkgateRoot(real: string): string | undefined {
  for (let dir = dirname(real), depth = 0; depth < 4; dir = dirname(dir), depth++) {
    const manifest = readJson(join(dir, 'package.json'));
    const bin = manifest?.['bin'];
    const binFile = isRecord(bin) ? bin['linkgate'] : manifest?.['name'] === 'linkgate' ? bin : undefined;
    // the bin entry, or the per-event start beside it
    const entries = (bin: string) => [bin, join(dirname(bin), cachedEntry)];
    if (
      manifest?.['name'] === 'linkgate' &&
      typeof binFile === 'string' &&
      entries(resolvePath(dir, binFile)).includes(real)
    )
      return dir;
    const plugin = readJson(join(dir, '.claude-plugin', 'plugin.json'));
    if (plugin?.['name'] === 'linkgate' && entries(join('dist', 'bin', 'linkgate.js')).includes(relative(dir, real)))
      return dir;
    if (dirname(dir) === dir) break;
  }
  return undefined;
}

// largest package.json or plugin manifest doctor reads, bytes
const maxManifestBytes = 4 * 1024 * 1024;

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    // opened without blocking and checked to be a regular file: a FIFO planted beside an entry never holds doctor up
    const value: unknown = JSON.parse(readRegularFileSync(file, maxManifestBytes).toString('utf8'));
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function onPath(command: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue;
    const file = join(dir, command);
    if (executable(file)) return file;
  }
  return undefined;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
