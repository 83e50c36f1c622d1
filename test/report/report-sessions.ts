// Records written by the real front ends against a test server: the proxy as a process under a real SDK Client,
// and the Claude Code hook as the CLI fed the host's events; each session appends to its own records file.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { hostileLinks } from '../fixtures/servers/hostile-server.ts';
import { runCli } from '../helpers/run-cli.ts';
import { readRequested, readReturned, toolReturned } from '../hook/hook-events.ts';
import { processEnv, proxyCommandLine, shippedPolicy } from '../proxy/proxy-helpers.ts';

/** A session's gate mode. */
export type SessionMode = 'enforce' | 'observe';

/** One proxy session: which server, its label, the tool called, the host's client name, the mode. */
export interface ProxySession {
  server: readonly string[];
  label: string;
  tool: string;
  args?: Record<string, unknown>;
  clientName: string;
  mode?: SessionMode;
}

/** The proxy as a process: the client calls the tool and reads every link it returned; returns the records file. */
export async function proxySession(dir: string, s: ProxySession): Promise<string> {
  const mode = s.mode ?? 'enforce';
  const file = path.join(dir, `proxy-${s.label}-${s.tool}-${mode}.jsonl`);
  const [command, ...rest] = proxyCommandLine(
    ['--policy', shippedPolicy('default'), '--server', s.label, '--mode', mode, '--records', file],
    s.server,
  );
  const client = new Client({ name: s.clientName, version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: command as string, args: rest, env: processEnv(), stderr: 'ignore' }),
  );
  const result = (await client.callTool({ name: s.tool, arguments: s.args ?? {} })) as {
    content: { type: string; uri?: string }[];
  };
  for (const item of result.content)
    if (item.type === 'resource_link') await client.readResource({ uri: String(item.uri) }).catch(() => undefined);
  await client.close();
  return file;
}

/** The Claude Code hook as the CLI: the hostile tool result, then the host's read of each link the hook let through. */
export async function hookSession(dir: string, mode: SessionMode = 'enforce'): Promise<string> {
  const file = path.join(dir, `hook-${mode}.jsonl`);
  const hook = (event: unknown) =>
    runCli(
      [
        'hook',
        'claude-code',
        '--policy',
        shippedPolicy('default'),
        '--mode',
        mode,
        '--state',
        path.join(dir, `hook-state-${mode}`),
        '--records',
        file,
      ],
      JSON.stringify(event),
    );
  await hook(toolReturned('hostile', 'links', [...hostileLinks]));
  for (const link of hostileLinks) {
    const pre = await hook(readRequested('hostile', link.uri));
    // a read the hook denied before it went out never comes back; the others return the server's body
    if (pre.stdout.includes('deny')) continue;
    await hook(
      readReturned('hostile', link.uri, [{ uri: link.uri, mimeType: 'text/plain', text: `contents of ${link.uri}\n` }]),
    );
  }
  return file;
}
