import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Variables of an env file that make node or the loader run code of their own first, as doctor checks them. */
const codeLoading = ['NODE_OPTIONS', 'LD_PRELOAD'] as const;

/**
 * The code-loading variables (NODE_OPTIONS, LD_PRELOAD) Gemini CLI 0.61 sets in its own environment from the env file
 * it loads (`loadEnvironment`): in a trusted folder the first `.gemini/.env` or `.env` from `cwd` up (only the home
 * folder's `.env` with `advanced.ignoreLocalEnv`), then `~/.gemini/.env`, `~/.env`; none in an untrusted one (only
 * its auth keys). A variable the environment already has is not replaced. Every hook and stdio server it starts
 * inherits them (an entry's own `env` may not override them: Gemini CLI blocks that).
 */
export function geminiEnvFileVars(
  cwd: string,
  home: string,
  env: Readonly<Record<string, string | undefined>>,
  trusted: boolean,
  ignoreLocalEnv: boolean,
): Record<string, string> {
  if (!trusted) return {};
  const file = envFile(resolve(cwd), resolve(home), ignoreLocalEnv);
  if (file === undefined) return {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  const parsed = parseEnvFile(text);
  const found: Record<string, string> = {};
  for (const key of codeLoading) if (parsed[key] !== undefined && env[key] === undefined) found[key] = parsed[key];
  return found;
}

// Gemini CLI's `findEnvFile` for a trusted folder
function envFile(cwd: string, home: string, ignoreLocalEnv: boolean): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const gemini = join(dir, '.gemini', '.env');
    if (isFile(gemini)) return gemini;
    const plain = join(dir, '.env');
    if (isFile(plain) && (!ignoreLocalEnv || dir === home)) return plain;
    if (dirname(dir) === dir) break;
  }
  return [join(home, '.gemini', '.env'), join(home, '.env')].find(isFile);
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

// `KEY=VALUE` lines as dotenv reads them: `export ` allowed, `#` comments, a value in matching quotes unquoted
function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([\w.-]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (match === null) continue;
    let value = match[2] as string;
    const quote = value[0];
    if ((quote === '"' || quote === "'" || quote === '`') && value.endsWith(quote) && value.length >= 2)
      value = value.slice(1, -1);
    else value = value.replace(/\s+#.*$/, '');
    out[match[1] as string] = value;
  }
  return out;
}
