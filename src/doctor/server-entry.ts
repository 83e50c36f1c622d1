import type { ConfiguredServer } from './doctor-report.ts';
import { stringList, stringRecord } from './read-config-file.ts';

/**
 * A server entry in the `{command, args, env}` / `{url}` shape every host shares, as a `ConfiguredServer`; `urlKeys`
 * names the fields a host reads a remote server's endpoint from, first found wins (a command makes it stdio).
 */
export function serverFromEntry(
  where: Pick<ConfiguredServer, 'host' | 'name' | 'scope' | 'file' | 'enabled'>,
  entry: Readonly<Record<string, unknown>>,
  urlKeys: readonly string[] = ['url'],
): ConfiguredServer {
  const command = typeof entry['command'] === 'string' ? entry['command'] : undefined;
  const url = urlKeys.map((k) => entry[k]).find((u): u is string => typeof u === 'string');
  return {
    ...where,
    argv: command === undefined ? [] : [command, ...stringList(entry['args'])],
    ...(url === undefined || command !== undefined ? {} : { url }),
    env: stringRecord(entry['env']),
  };
}
