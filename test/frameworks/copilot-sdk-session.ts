// One session of the real GitHub Copilot SDK (@github/copilot-sdk, its bundled Copilot runtime) run offline: a BYOK
// provider pointed at the scripted model API (Chat Completions), the MCP servers given, the hooks given (or none);
// what the model received is read from the requests the model API got.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chatCompletionsDialect, toolMessagesOf, toolMessageText } from '../real-host/chat-completions-model-api.ts';
import type { HostSuite } from '../real-host/host-suite.ts';
import { type ScriptStep, startModelApi } from '../real-host/model-api.ts';
import { importFrom } from './framework-package.ts';

// the SDK, written structurally: what a session run calls of it
interface CopilotSession {
  on(event: 'session.idle', handler: () => void): void;
  send(message: { prompt: string }): Promise<unknown>;
  disconnect(): Promise<void>;
}
interface CopilotSdk {
  CopilotClient: new (
    options: Record<string, unknown>,
  ) => {
    start(): Promise<void>;
    stop(): Promise<unknown>;
    createSession(config: Record<string, unknown>): Promise<CopilotSession>;
  };
  approveAll: unknown;
}

/** What one session left: its time, each tool call's text as the model got it, and everything the model was sent. */
export interface CopilotRun {
  elapsedMs: number;
  text(callId: string): string | undefined;
  everything: string;
}

/**
 * Runs one session of the SDK installed in `dir` (scratch folders from `suite`): the model follows `script`, the
 * session has `mcpServers` (`{name: {type: 'local', command, args, …}}`) and `hooks` (none when undefined).
 */
export async function runCopilotSession(
  dir: string,
  suite: Pick<HostSuite, 'scratch'>,
  script: ScriptStep[],
  mcpServers: Record<string, unknown>,
  hooks: Record<string, unknown> | undefined,
): Promise<CopilotRun> {
  const sdk = await importFrom<CopilotSdk>(dir, '@github/copilot-sdk');
  const scratch = await suite.scratch('linkgate-copilot-sdk-');
  const home = path.join(scratch, 'home');
  await mkdir(home, { recursive: true });
  const api = await startModelApi(script, chatCompletionsDialect);
  const client = new sdk.CopilotClient({
    baseDirectory: path.join(home, '.copilot'),
    workingDirectory: scratch,
    useLoggedInUser: false,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: home, TMPDIR: scratch, COPILOT_AUTO_UPDATE: 'false' },
    logLevel: 'error',
  });
  await client.start();
  try {
    const session = await client.createSession({
      model: 'scripted',
      provider: { type: 'openai', baseUrl: `${api.url}/v1`, apiKey: 'offline' },
      onPermissionRequest: sdk.approveAll,
      mcpServers,
      ...(hooks === undefined ? {} : { hooks }),
    });
    const idle = new Promise<void>((resolve) => session.on('session.idle', () => resolve()));
    const started = performance.now();
    await session.send({ prompt: 'list the links, show the documents, fetch the guide' });
    await idle;
    const elapsedMs = Math.round(performance.now() - started);
    await session.disconnect();
    const results = toolMessagesOf(api.requests);
    return {
      elapsedMs,
      text: (id) => toolMessageText(results[id]),
      everything: JSON.stringify(api.requests.map((r) => r.body)),
    };
  } finally {
    await client.stop();
    await api.close();
  }
}
