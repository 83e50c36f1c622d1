import { resolve as resolvePath } from 'node:path';
import { defaultStateDir, stateCacheRoot } from '../hook/session-state.ts';
import { stateFolderProblems } from '../hook/state-folder.ts';

/**
 * Why a hook's state folder makes every event fail closed, one lowercase line each: the hook's own check
 * (`stateFolderProblems`), run without making the folder. `written` is its `--state` (relative to `cwd`); without one,
 * the default the hook takes from its environment `env` (`home` when that has no HOME), its cache root followed.
 */
export function stateFolderLines(
  written: string | undefined,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): string[] {
  // the hook's home is the HOME of its environment (node's `homedir()`); the default folder's cache root is followed
  // as the hook follows it
  const hookHome = env['HOME'] ?? home;
  const problems =
    written === undefined
      ? stateFolderProblems(defaultStateDir(env, hookHome), undefined, stateCacheRoot(env, hookHome))
      : stateFolderProblems(resolvePath(cwd, written));
  return problems.map(
    (why) =>
      `${why}: the hook fails closed on every event${why.startsWith("the session's") ? ' of that session' : ''} (a read is denied, a tool result withheld)`,
  );
}
