import { existsSync } from 'node:fs';
import { readRegularFileSync } from '../policy/read-regular-file.ts';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'dotenv';

// largest env file doctor reads, bytes (dotenv files are a few lines)
const maxEnvFileBytes = 1024 * 1024;
/** Variables of an env file that make node or the loader run code of their own first, as doctor checks them. */
const codeLoading = ['NODE_OPTIONS', 'LD_PRELOAD'] as const;

/** What Gemini CLI's env file sets that doctor checks, and why it could not be read when it could not. */
export interface GeminiEnvFile {
  readonly vars: Record<string, string>;
  /** the env file Gemini CLI picks exists but doctor cannot read it: what it sets is not known */
  readonly problem?: string;
}

/**
 * The code-loading variables (NODE_OPTIONS, LD_PRELOAD) Gemini CLI 0.61 sets in its own environment from the env file
 * it loads (`loadEnvironment`): in a trusted folder the first `.gemini/.env` or `.env` from `cwd` up (only the home
 * folder's `.env` with `advanced.ignoreLocalEnv`), then `~/.gemini/.env`, `~/.env`; none in an untrusted one (only
 * its auth keys). A variable the environment already has is not replaced. Every hook and stdio server it starts
 * inherits them (an entry's own `env` may not override them: Gemini CLI blocks that). A file it picks (any path that
 * exists, a folder too) that cannot be read is a problem: Gemini CLI reads it as the user it runs as, and doctor cannot
 * say what it sets.
 */
export function geminiEnvFileVars(
  cwd: string,
  home: string,
  env: Readonly<Record<string, string | undefined>>,
  trusted: boolean,
  ignoreLocalEnv: boolean,
): GeminiEnvFile {
  if (!trusted) return { vars: {} };
  const file = envFile(resolve(cwd), resolve(home), ignoreLocalEnv);
  if (file === undefined) return { vars: {} };
  let text: string;
  try {
    // opened without blocking and checked to be a regular file: a FIFO the agent put there never holds doctor up
    text = readRegularFileSync(file, maxEnvFileBytes).toString('utf8');
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      vars: {},
      problem: `gemini cli's env file \`${file}\` cannot be read (${why}): what it sets for hooks and servers (NODE_OPTIONS) is not known`,
    };
  }
  // dotenv's own parse, the one Gemini CLI 0.61 bundles (dotenv 17): `KEY: value` lines, quoted values over lines
  const parsed = parse(text);
  const vars: Record<string, string> = {};
  for (const key of codeLoading)
    if (Object.hasOwn(parsed, key) && env[key] === undefined) vars[key] = parsed[key] as string;
  return { vars };
}

// Gemini CLI's `findEnvFile` for a trusted folder: the first path that exists (`fs.existsSync`, a folder too)
function envFile(cwd: string, home: string, ignoreLocalEnv: boolean): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const gemini = join(dir, '.gemini', '.env');
    if (existsSync(gemini)) return gemini;
    const plain = join(dir, '.env');
    if (existsSync(plain) && (!ignoreLocalEnv || dir === home)) return plain;
    if (dirname(dir) === dir) break;
  }
  return [join(home, '.gemini', '.env'), join(home, '.env')].find((f) => existsSync(f));
}
