import { isAbsolute, relative, resolve } from 'node:path';
import type { LinkgateInvocation } from './linkgate-invocation.ts';

// the folder an agent works in is one its shell may write in every host (Claude Code's and Codex's sandboxes let it
// write the project): a hook whose policy or code lies there is one the agent can rewrite

/** Whether `file` lies in `folder` (or is it). */
function inside(folder: string, file: string): boolean {
  const rel = relative(folder, file);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Warnings for a hook whose `--policy` or linkgate code lies in the project folder `cwd`. */
export function inProjectLines(invocation: LinkgateInvocation, cwd: string): string[] {
  const lines: string[] = [];
  const policy = invocation.policy === undefined ? undefined : resolve(cwd, invocation.policy);
  if (policy !== undefined && inside(cwd, policy))
    lines.push(
      `its policy \`${policy}\` lies in the project folder, which the agent's shell may write: the agent can rewrite what the hook decides (keep the policy outside the project)`,
    );
  if (invocation.bundleExists && isAbsolute(invocation.bundle) && inside(cwd, invocation.bundle))
    lines.push(
      `its linkgate code \`${invocation.bundle}\` lies in the project folder, which the agent's shell may write: the agent can rewrite the hook (run a linkgate installed outside the project)`,
    );
  return lines;
}
