// LangChain.js over a gated client: the framework's own way to use a client it did not make is `loadMcpTools(name,
// client)`, so the gate is the client's transport (`client.connect(gateTransport(…))`) and no adapter is needed. The
// real @langchain/mcp-adapters, a LangGraph ReAct agent driven by a scripted chat model (no network), the hostile
// server and server-everything. Artifact mode (`outputHandling: { resource_link: 'artifact' }`) makes the adapter read
// every link itself: that second read path goes through the same transport, so refused links are never asked of the
// server there either.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { serverReads } from '../real-host/fixture-process.ts';
import { realFrameworks } from '../real-host/real-parts.ts';
import { frameworkSuite, importFrom } from './framework-package.ts';
import { gatedRunSetup } from './gated-run-setup.ts';
import { everythingDoc, everythingServer, expectRecords } from './gated-run-checks.ts';
import { hostileLink, hostileLinks } from './hostile-resources.ts';
import { scriptedModelClass, type ToolCall } from './langchain-scripted-model.ts';

const suite = frameworkSuite('langchain', realFrameworks.langchain);

interface Adapters {
  loadMcpTools: (name: string, client: Client, options?: Record<string, unknown>) => Promise<unknown[]>;
}
interface Prebuilt {
  createReactAgent: (params: Record<string, unknown>) => {
    invoke(input: Record<string, unknown>, config?: Record<string, unknown>): Promise<{ messages: unknown[] }>;
  };
}
async function gatedClient(
  transport: StdioClientTransport,
  name: string,
  options: Parameters<typeof gateTransport>[1],
) {
  const client = new Client({ name: 'langchain-host', version: '1.0.0' });
  // the line a user adds: the client's transport goes through the gate
  await client.connect(gateTransport(transport, { ...options, server: name }));
  return client;
}

describe('loadMcpTools over a gated client inside a real LangChain agent', () => {
  test('tool results, a host read tool and artifact mode never read a refused link; withheld bodies never reach the model', {
    timeout: 120_000,
  }, async (ctx) => {
    const dir = suite.require(ctx);
    const { loadMcpTools } = await importFrom<Adapters>(dir, '@langchain/mcp-adapters');
    const { createReactAgent } = await importFrom<Prebuilt>(dir, '@langchain/langgraph/prebuilt');
    const { tool } = await importFrom<{ tool: (fn: unknown, fields: Record<string, unknown>) => unknown }>(
      dir,
      '@langchain/core/tools',
    );
    const { requestLog, recordsFile, sink, gate, hostileServer } = await gatedRunSetup(suite, 'linkgate-langchain-');
    const hostileTransport = new StdioClientTransport(hostileServer);
    const hostile = await gatedClient(hostileTransport, 'hostile', { gate, sink });
    const everything = await gatedClient(
      new StdioClientTransport({ command: process.execPath, args: [everythingServer, 'stdio'] }),
      'everything',
      { gate, sink },
    );
    const clients: Record<string, Client> = { hostile, everything };
    try {
      // artifact mode: the adapter reads every link of a tool result itself, over the same client
      const tools = [
        ...(await loadMcpTools('hostile', hostile, { outputHandling: { resource_link: 'artifact' } })),
        ...(await loadMcpTools('everything', everything)),
        // the host's own read tool over the client: the gate answers a refused read with an error naming why
        tool(
          async (input: { server: string; uri: string }) =>
            clients[input.server]?.readResource({ uri: input.uri }).then(
              (result) => JSON.stringify(result),
              (error: unknown) => `error: ${(error as Error).message}`,
            ),
          {
            name: 'read_resource',
            description: 'reads a resource of an MCP server',
            schema: {
              type: 'object',
              properties: { server: { type: 'string' }, uri: { type: 'string' } },
              required: ['server', 'uri'],
            },
          },
        ),
      ];
      const read = (server: string, uri: string, id: string): ToolCall => ({
        id,
        name: 'read_resource',
        args: { server, uri },
      });
      const ScriptedChatModel = await scriptedModelClass(dir);
      const model = new ScriptedChatModel([
        [{ id: 'call_links', name: 'links', args: {} }],
        hostileLinks.map((r) => read('hostile', r.uri, `call_${r.key}`)),
        [{ id: 'call_everything', name: 'get-resource-links', args: { count: 1 } }],
        [read('everything', everythingDoc, 'call_everything_read')],
      ]);
      const agent = createReactAgent({ llm: model, tools });
      const result = await agent.invoke({ messages: [{ role: 'user', content: 'read every link' }] });

      // what the model received: every message list it was sent, tool messages with their artifacts
      const sent = JSON.stringify(model.seen);
      const messages = JSON.parse(JSON.stringify(result.messages)) as { kwargs?: Record<string, unknown> }[];
      const toolMessage = (id: string) =>
        JSON.stringify(messages.find((m) => m.kwargs?.['tool_call_id'] === id)?.kwargs ?? null);

      // the metadata and file: links were asked of the server neither by the adapter nor by the read tool
      const reads = await serverReads(requestLog);
      for (const key of ['metadata', 'file']) expect(reads).not.toContain(hostileLink(key).uri);
      expect(reads).toContain(hostileLink('readme').uri);
      expect(toolMessage('call_metadata')).toContain('uri.non-public-address');
      expect(toolMessage('call_file')).toMatch(/refused to read/);
      // artifact mode reads the links tool's links itself: a refused one reaches it as a notice and is never read, a
      // withheld body fails the adapter's whole call; no refused or withheld body is in its tool message
      expect(toolMessage('call_links')).not.toContain(hostileLink('metadata').marker);
      // the README reached the model, the ELF labelled image/png and the HTML page with script did not, on any path
      expect(toolMessage('call_readme')).toContain(hostileLink('readme').marker);
      for (const key of ['metadata', 'file', 'elf', 'html']) {
        expect(sent).not.toContain(hostileLink(key).marker);
        expect(JSON.stringify(messages)).not.toContain(hostileLink(key).marker);
      }
      expect(toolMessage('call_elf')).toContain('content.executable');
      expect(toolMessage('call_everything_read')).toContain('architecture');
    } finally {
      await Promise.all([hostile.close(), everything.close()]);
      await sink.close();
    }
    await expectRecords(recordsFile);
  });
});
