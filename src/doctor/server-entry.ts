import { resolve } from 'node:path';
import type { ConfiguredServer } from './doctor-report.ts';
import { stringList, stringRecord } from './read-config-file.ts';

/**
 * A server entry in the `{command, args, env}` / `{url}` shape every host shares, as a `ConfiguredServer`; `urlKeys`
 * names the fields a host reads a remote server's endpoint from, first found wins (a command makes it stdio, unless
 * `urlFirst`: the host connects to a url it finds and ignores the command).
 */
export function serverFromEntry(
  where: Pick<ConfiguredServer, 'host' | 'name' | 'scope' | 'file' | 'enabled'>,
  entry: Readonly<Record<string, unknown>>,
  urlKeys: readonly string[] = ['url'],
  urlFirst = false,
): ConfiguredServer {
  const url = urlKeys.map((k) => entry[k]).find((u): u is string => typeof u === 'string');
  // a host that looks at the url first (Gemini CLI) never runs the command beside it
  const given = typeof entry['command'] === 'string' ? entry['command'] : undefined;
  const command = urlFirst && url !== undefined ? undefined : given;
  return {
    ...where,
    argv: command === undefined ? [] : [command, ...stringList(entry['args'])],
    ...(url === undefined || command !== undefined ? {} : { url }),
    env: stringRecord(entry['env']),
  };
}

/** The folder a host that reads an entry's `cwd` starts its command in, resolved against `base`; none when unset. */
export function entryCwd(entry: Readonly<Record<string, unknown>>, base: string): { cwd?: string } {
  const cwd = entry['cwd'];
  return typeof cwd === 'string' && cwd !== '' ? { cwd: resolve(base, cwd) } : {};
}
