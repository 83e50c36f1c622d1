// LangChain's `MultiServerMCPClient` takes server definitions, not clients or transports: the recipe gives it `linkgate
// proxy` as each stdio server's command (docs/frameworks.md). The real @langchain/mcp-adapters, a LangGraph ReAct agent
// driven by a scripted chat model (no network), the hostile server behind the proxy: artifact mode reads the links
// tool's links itself and a host read tool over `getClient(server)` reads every link again; the refused links are
// never asked of the server on either path, withheld bodies never reach the model, the proxy writes the records.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { linkRecordsOnceWritten, serverReads, tsServerCommand } from '../real-host/fixture-process.ts';
import { realFrameworks } from '../real-host/real-parts.ts';
import { repoRoot } from '../sdk/fake-gate.ts';
import { frameworkSuite, importFrom } from './framework-package.ts';
import { expectRecords, hostileServerFile } from './gated-run-checks.ts';
import { hostileLink, hostileLinks } from './hostile-resources.ts';
import { scriptedModelClass, type ToolCall } from './langchain-scripted-model.ts';

const suite = frameworkSuite('langchain', realFrameworks.langchain);

interface ReadingClient {
  readResource(params: { uri: string }): Promise<unknown>;
}
interface MultiServerClient {
  getTools(): Promise<{ name: string }[]>;
  getClient(server: string): Promise<ReadingClient | undefined>;
  close(): Promise<void>;
}
interface Adapters {
  MultiServerMCPClient: new (config: Record<string, unknown>) => MultiServerClient;
}
interface Prebuilt {
  createReactAgent: (params: Record<string, unknown>) => {
    invoke(input: Record<string, unknown>): Promise<{ messages: unknown[] }>;
  };
}

describe('MultiServerMCPClient over linkgate proxy inside a real LangChain agent', () => {
  test('artifact mode and a host read tool never read a refused link; withheld bodies never reach the model', {
    timeout: 150_000,
  }, async (ctx) => {
    const dir = suite.require(ctx);
    const { MultiServerMCPClient } = await importFrom<Adapters>(dir, '@langchain/mcp-adapters');
    const { createReactAgent } = await importFrom<Prebuilt>(dir, '@langchain/langgraph/prebuilt');
    const { tool } = await importFrom<{ tool: (fn: unknown, fields: Record<string, unknown>) => { name: string } }>(
      dir,
      '@langchain/core/tools',
    );
    const scratch = await suite.scratch('linkgate-langchain-multi-');
    const requestLog = path.join(scratch, 'requests.jsonl');
    const recordsFile = path.join(scratch, 'records.jsonl');
    const [node, ...serverArgs] = tsServerCommand(hostileServerFile) as [string, ...string[]];
    const [, ...cliLoader] = tsServerCommand(path.join(repoRoot, 'src/cli/main.ts'));
    // the recipe: the proxy as the server's command, the server's own command after `--`
    const mcp = new MultiServerMCPClient({
      mcpServers: {
        hostile: {
          transport: 'stdio',
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
          env: { ...process.env, LINKGATE_REQUEST_LOG: requestLog } as Record<string, string>,
        },
      },
      outputHandling: { resource_link: 'artifact' },
    });
    try {
      const mcpTools = await mcp.getTools();
      const linksTool = mcpTools.find((t) => t.name.endsWith('links'));
      expect(linksTool).toBeDefined();
      const client = await mcp.getClient('hostile');
      // the host's read tool over the client the framework made (the proxy is that client's server)
      const readTool = tool(
        async (input: { uri: string }) =>
          client?.readResource({ uri: input.uri }).then(
            (result) => JSON.stringify(result),
            (error: unknown) => `error: ${(error as Error).message}`,
          ),
        {
          name: 'read_resource',
          description: 'reads a resource of the MCP server',
          schema: { type: 'object', properties: { uri: { type: 'string' } }, required: ['uri'] },
        },
      );
      const read = (uri: string, id: string): ToolCall => ({ id, name: 'read_resource', args: { uri } });
      const ScriptedChatModel = await scriptedModelClass(dir);
      const model = new ScriptedChatModel([
        [{ id: 'call_links', name: linksTool?.name ?? 'links', args: {} }],
        hostileLinks.map((r) => read(r.uri, `call_${r.key}`)),
      ]);
      const agent = createReactAgent({ llm: model, tools: [...mcpTools, readTool] });
      const result = await agent.invoke({ messages: [{ role: 'user', content: 'read every link' }] });

      const sent = JSON.stringify(model.seen);
      const messages = JSON.parse(JSON.stringify(result.messages)) as { kwargs?: Record<string, unknown> }[];
      const toolMessage = (id: string) =>
        JSON.stringify(messages.find((m) => m.kwargs?.['tool_call_id'] === id)?.kwargs ?? null);

      // neither artifact mode nor the read tool asked the server for the metadata or file: link
      const reads = await serverReads(requestLog);
      for (const key of ['metadata', 'file']) expect(reads).not.toContain(hostileLink(key).uri);
      expect(reads).toContain(hostileLink('readme').uri);
      expect(toolMessage('call_metadata')).toContain('uri.non-public-address');
      expect(toolMessage('call_readme')).toContain(hostileLink('readme').marker);
      expect(toolMessage('call_elf')).toContain('content.executable');
      for (const key of ['metadata', 'file', 'elf', 'html']) {
        expect(sent).not.toContain(hostileLink(key).marker);
        expect(JSON.stringify(messages)).not.toContain(hostileLink(key).marker);
      }
    } finally {
      await mcp.close();
    }
    // the proxy writes the last records as it closes, after the client has gone
    await linkRecordsOnceWritten(recordsFile, 5);
    await expectRecords(recordsFile, { everything: false });
  });
});
