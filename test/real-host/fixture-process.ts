// How a host starts the fixture server, and what the server's request log says it was asked.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The fixture server's source file. */
export const fixtureServerFile = path.join(import.meta.dirname, 'fixture-server.ts');

// the host starts servers in its own cwd, where `--import tsx` would not resolve: name tsx's loader by URL
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** The command line that starts `file` (a TypeScript MCP server) under tsx from any working directory. */
export function tsServerCommand(file: string = fixtureServerFile): string[] {
  return [process.execPath, '--import', tsxLoader, file];
}

/** An `mcpServers` entry that starts the fixture server logging its requests to `logFile`. */
export function fixtureServer(logFile: string): { command: string; args: string[]; env: Record<string, string> } {
  const [command, ...args] = tsServerCommand();
  return { command: command as string, args, env: { LINKGATE_REQUEST_LOG: logFile } };
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
