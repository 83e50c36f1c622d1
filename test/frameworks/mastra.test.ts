// Mastra over `linkgate proxy`: `@mastra/mcp`'s MCPClient takes server definitions, not transports, so the proxy is the
// server's command and the client talks to it as to the server. The real @mastra/mcp (with @mastra/core), its tools
// called as an agent calls them and its own resource read (the second read path), against the hostile server: the
// refused links are never asked of the server, withheld bodies never come back, the README does, with records.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { repoRoot } from '../sdk/fake-gate.ts';
import { linkRecordsOnceWritten, serverReads, tsServerCommand } from '../real-host/fixture-process.ts';
import { realFrameworks } from '../real-host/real-parts.ts';
import { frameworkSuite, importFrom } from './framework-package.ts';
import { expectRecords, hostileServerFile } from './gated-run-checks.ts';
import { hostileLink } from './hostile-resources.ts';

const suite = frameworkSuite('mastra', realFrameworks.mastra);

interface MastraTool {
  execute: (input: Record<string, unknown>, context?: Record<string, unknown>) => Promise<unknown>;
}
interface MastraClient {
  listTools(): Promise<Record<string, MastraTool>>;
  resources: { read(server: string, uri: string): Promise<unknown> };
  disconnect(): Promise<void>;
}
interface MastraMcp {
  MCPClient: new (config: Record<string, unknown>) => MastraClient;
}

describe('Mastra MCPClient over linkgate proxy', () => {
  test('tool results and the client resource read never read a refused link; withheld bodies never come back', {
    timeout: 120_000,
  }, async (ctx) => {
    const dir = suite.require(ctx);
    const { MCPClient } = await importFrom<MastraMcp>(dir, '@mastra/mcp');
    const scratch = await suite.scratch('linkgate-mastra-');
    const requestLog = path.join(scratch, 'requests.jsonl');
    const recordsFile = path.join(scratch, 'records.jsonl');
    const [node, ...serverArgs] = tsServerCommand(hostileServerFile) as [string, ...string[]];
    const [, ...cliLoader] = tsServerCommand(path.join(repoRoot, 'src/cli/main.ts'));
    // the lines a user adds: the proxy as the server's command
    const mcp = new MCPClient({
      id: `linkgate-${path.basename(scratch)}`,
      servers: {
        hostile: {
          command: node,
          args: [
            ...cliLoader,
            'proxy',
            '--policy',
            path.join(repoRoot, 'policies/default.yaml'),
            '--server',
            'hostile',
            '--records',
            recordsFile,
            '--',
            node,
            ...serverArgs,
          ],
          env: { LINKGATE_REQUEST_LOG: requestLog },
        },
      },
    });
    const outputs = new Map<string, string>();
    try {
      const tools = await mcp.listTools();
      const links = tools['hostile_links'];
      expect(links).toBeDefined();
      outputs.set('links', JSON.stringify(await links?.execute({}, {})));
      for (const key of ['readme', 'metadata', 'file', 'elf', 'html'])
        outputs.set(
          key,
          await mcp.resources.read('hostile', hostileLink(key).uri).then(
            (r) => JSON.stringify(r),
            (e: unknown) => `error: ${(e as Error).message}`,
          ),
        );
    } finally {
      await mcp.disconnect();
    }
    const all = JSON.stringify([...outputs.values()]);
    expect(await serverReads(requestLog)).toEqual(['readme', 'elf', 'html'].map((k) => hostileLink(k).uri));
    expect(outputs.get('metadata')).toContain('uri.non-public-address');
    // the links tool's result hands the refused links on as notices, not as links anyone could read later
    expect(outputs.get('links')).toMatch(/linkgate refused the link `passwd`/);
    expect(outputs.get('readme')).toContain(hostileLink('readme').marker);
    for (const key of ['metadata', 'file', 'elf', 'html']) expect(all).not.toContain(hostileLink(key).marker);
    expect(outputs.get('elf')).toContain('content.executable');
    // the proxy writes the last records as it closes, after the client has gone
    await linkRecordsOnceWritten(recordsFile, 5);
    await expectRecords(recordsFile, { everything: false });
  });
});
