// What every real-host run shares: a fresh folder with `home/`, `work/` and `tmp/`, the scripted model API, the host
// process under a hard timeout, and its stream-json output parsed. Each host file says only how its host starts.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ModelDialect, type ModelRequest, type ScriptStep, startModelApi } from './model-api.ts';
import { runProcess } from './run-process.ts';

/** The folders of one run: `dir` holds `home/` (HOME), `work/` (cwd) and `tmp/` (TMPDIR). */
export interface HostDirs {
  dir: string;
  home: string;
  work: string;
  tmp: string;
}

/** How to start one host: the executable, its arguments and its whole environment (nothing is inherited). */
export interface HostCommand {
  file: string;
  args: readonly string[];
  env: Record<string, string>;
}

/** One run of a host: where its folder goes, how it starts, the model's script and what the model received. */
export interface HostRunOptions<Result> {
  /** prefix of the run's temporary folder, e.g. `linkgate-claude-` */
  prefix: string;
  /** the scripted model turns, in order */
  script: readonly ScriptStep[];
  /** how the scripted API speaks (default: the Anthropic Messages API) */
  dialect?: ModelDialect;
  /** what the model received per tool call, from the requests the host made */
  toolResultsOf(requests: readonly ModelRequest[]): Record<string, Result>;
  /** writes the host's config files into the run's folders and says how to start it against `modelUrl` */
  prepare(dirs: HostDirs, modelUrl: string): Promise<HostCommand>;
  /** hard limit for the whole run; the process tree is killed after it (milliseconds, default 120000) */
  timeoutMs?: number;
}

/** What a run produced: the stream-json events, what reached the model, and how the host ended. */
export interface HostRunResult<Result> {
  /** `--output-format stream-json` lines, parsed (unparsable lines as `{ unparsable }`) */
  events: Record<string, unknown>[];
  /** every request the host made to the model API, bodies parsed */
  modelRequests: ModelRequest[];
  /** what the model received for each tool call, by call id */
  toolResults: Record<string, Result>;
  exitCode: number | null;
  stderr: string;
  timedOut: boolean;
  /** wall time of the host process (milliseconds) */
  elapsedMs: number;
  /** the run's folder: `home/` (HOME), `work/` (cwd), `tmp/` (TMPDIR) and the config files */
  dir: string;
  /** removes `dir` */
  cleanup(): Promise<void>;
}

/** JSON Lines as a host prints them: lines that do not start with `{` (banners, warnings) are passed over. */
export function parseJsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((l) => l.trimStart().startsWith('{'))
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        return { unparsable: l };
      }
    });
}

/** Runs a host once, offline, in fresh folders against the scripted model API, and returns what it did. */
export async function runHost<Result>(options: HostRunOptions<Result>): Promise<HostRunResult<Result>> {
  const dir = await mkdtemp(path.join(tmpdir(), options.prefix));
  const dirs: HostDirs = {
    dir,
    home: path.join(dir, 'home'),
    work: path.join(dir, 'work'),
    tmp: path.join(dir, 'tmp'),
  };
  await Promise.all([dirs.home, dirs.work, dirs.tmp].map((d) => mkdir(d, { recursive: true })));
  const model = await startModelApi(options.script, options.dialect);
  const timeoutMs = options.timeoutMs ?? 120_000;
  try {
    const command = await options.prepare(dirs, model.url);
    const run = await runProcess(command.file, command.args, { env: command.env, cwd: dirs.work, timeoutMs });
    return {
      events: parseJsonLines(run.stdout),
      modelRequests: model.requests,
      toolResults: options.toolResultsOf(model.requests),
      exitCode: run.exitCode,
      stderr: run.timedOut ? `${run.stderr}\nkilled after ${timeoutMs} ms` : run.stderr,
      timedOut: run.timedOut,
      elapsedMs: run.elapsedMs,
      dir,
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  } finally {
    await model.close();
  }
}
