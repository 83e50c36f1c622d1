import { resolve as resolvePath } from 'node:path';
import { defaultStateDir } from '../hook/session-state.ts';
import { stateFolderProblems } from '../hook/state-folder.ts';

/**
 * Why a hook's state folder makes every event fail closed, one lowercase line each: the hook's own check
 * (`stateFolderProblems`), run without making the folder. `written` is its `--state` (relative to `cwd`); without one,
 * the default the hook takes from its environment `env` (`home` when that has no HOME).
 */
export function stateFolderLines(
  written: string | undefined,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string[] {
  // the hook's home is the HOME of its environment (node's `homedir()`)
  const dir = written === undefined ? defaultStateDir(env, env['HOME'] ?? home) : resolvePath(cwd, written);
  return stateFolderProblems(dir).map(
    (why) =>
      `${why}: the hook fails closed on every event${why.startsWith("the session's") ? ' of that session' : ''} (a read is denied, a tool result withheld)`,
  );
}
