// How a host starts the fixture server, and what the server's request log says it was asked.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { linkRecordLines } from '../helpers/run-cli.ts';
import { waitUntil } from '../helpers/wait-until.ts';
import { repoRoot } from '../sdk/fake-gate.ts';
import type { McpServerConfig } from './claude-code.ts';

/** The fixture server's source file. */
export const fixtureServerFile = path.join(import.meta.dirname, 'fixture-server.ts');

// the host starts servers in its own cwd, where `--import tsx` would not resolve: name tsx's loader by URL
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** The command line that starts `file` (a TypeScript MCP server) under tsx from any working directory. */
export function tsServerCommand(file: string = fixtureServerFile): string[] {
  return [process.execPath, '--import', tsxLoader, file];
}

/** An `mcpServers` entry that starts the fixture server logging its requests to `logFile`. */
export function fixtureServer(logFile: string): McpServerConfig {
  const [command, ...args] = tsServerCommand();
  return { command: command as string, args, env: { LINKGATE_REQUEST_LOG: logFile } };
}

/** An `mcpServers` entry that starts `linkgate proxy` (this checkout's source, the default policy, records written to
 * `recordsFile`) in front of the fixture server logging its requests to `logFile`. */
export function proxiedFixtureServer(logFile: string, recordsFile: string): McpServerConfig {
  const args = [
    '--import',
    tsxLoader,
    path.join(repoRoot, 'src/cli/main.ts'),
    'proxy',
    '--policy',
    path.join(repoRoot, 'policies/default.yaml'),
    '--server',
    'fixture',
    '--records',
    recordsFile,
    '--',
    ...tsServerCommand(),
  ];
  return { command: process.execPath, args, env: { LINKGATE_REQUEST_LOG: logFile } };
}

/** The link records of `recordsFile` once it holds `count` of them: the proxy writes them as it closes, after the host has exited. */
export async function linkRecordsOnceWritten(recordsFile: string, count: number): Promise<LinkRecord[]> {
  return waitUntil(`${count} link records in ${recordsFile}`, async () => {
    const records = linkRecordLines(await readFile(recordsFile, 'utf8').catch(() => '')) as LinkRecord[];
    return records.length >= count ? records : undefined;
  });
}

/** One request the fixture server received. */
export interface LoggedRequest {
  method: string;
  uri: string | null;
}

/** The requests the fixture server logged to `logFile`, in order (empty when it logged none). */
export async function readRequestLog(logFile: string): Promise<LoggedRequest[]> {
  const text = await readFile(logFile, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as LoggedRequest);
}

/** The uris the fixture server was asked to read (`resources/read`), in order. */
export async function serverReads(logFile: string): Promise<(string | null)[]> {
  return (await readRequestLog(logFile)).filter((r) => r.method === 'resources/read').map((r) => r.uri);
}
