// LangChain's gated read tool (`langchainReadLinkTool` over `gatedLinks`) inside a real LangGraph ReAct agent driven by
// a scripted chat model (no network): the tools `loadMcpTools` made over a client connected through
// `links.transport(…)`, and the read tool as a `DynamicStructuredTool` of the installed @langchain/core. The model calls
// the read tool before any tool ran, the links tool, then the read tool for every link and for a uri no tool returned;
// what reached the model is checked read by read, with the server's request log and the records.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';
import { gatedLinks } from '../../src/frameworks/gated-links.ts';
import { langchainReadLinkTool } from '../../src/frameworks/langchain-read-link.ts';
import { realFrameworks } from '../real-host/real-parts.ts';
import { frameworkSuite, importFrom } from './framework-package.ts';
import { gatedRunSetup } from './gated-run-setup.ts';
import { expectRecords } from './gated-run-checks.ts';
import { hostileLink } from './hostile-resources.ts';
import { scriptedModelClass } from './langchain-scripted-model.ts';
import { expectReadToolRun, readToolScript } from './read-tool-checks.ts';

const suite = frameworkSuite('langchain', realFrameworks.langchain);

interface Adapters {
  loadMcpTools: (name: string, client: Client, options?: Record<string, unknown>) => Promise<unknown[]>;
}
interface Prebuilt {
  createReactAgent: (params: Record<string, unknown>) => {
    invoke(input: Record<string, unknown>): Promise<{ messages: unknown[] }>;
  };
}
interface CoreTools {
  DynamicStructuredTool: new (fields: ReturnType<typeof langchainReadLinkTool>) => object;
}

describe('langchainReadLinkTool inside a real LangChain agent', () => {
  test('reads only links a tool returned, through the gate: the body, or the notice', {
    timeout: 120_000,
  }, async (ctx) => {
    const dir = suite.require(ctx);
    const { loadMcpTools } = await importFrom<Adapters>(dir, '@langchain/mcp-adapters');
    const { createReactAgent } = await importFrom<Prebuilt>(dir, '@langchain/langgraph/prebuilt');
    const { DynamicStructuredTool } = await importFrom<CoreTools>(dir, '@langchain/core/tools');
    const { requestLog, recordsFile, sink, gate, hostileServer } = await gatedRunSetup(
      suite,
      'linkgate-langchain-read-',
    );
    // the lines a user writes: a gated connection per server, its tools, and the read tool
    const links = gatedLinks({ gate, sink });
    const client = new Client({ name: 'langchain-host', version: '1.0.0' });
    await client.connect(links.transport('hostile', new StdioClientTransport(hostileServer)));
    try {
      const tools = [
        ...(await loadMcpTools('hostile', client)),
        new DynamicStructuredTool(langchainReadLinkTool(links)),
      ];
      const ScriptedChatModel = await scriptedModelClass(dir);
      const model = new ScriptedChatModel(readToolScript('read_link', 'links'));
      const agent = createReactAgent({ llm: model, tools });
      const result = await agent.invoke({ messages: [{ role: 'user', content: 'read every link' }] });

      const messages = JSON.parse(JSON.stringify(result.messages)) as { kwargs?: Record<string, unknown> }[];
      const output = (id: string) => {
        const content = messages.find((m) => m.kwargs?.['tool_call_id'] === id)?.kwargs?.['content'];
        return typeof content === 'string' ? content : undefined;
      };
      // the links tool's result reached the agent with the refused links as notices, never as links
      const linksResult = JSON.stringify(messages.find((m) => m.kwargs?.['tool_call_id'] === 'call_links') ?? null);
      expect(linksResult).toContain(hostileLink('readme').uri);
      expect(linksResult).toMatch(/linkgate refused the link `passwd`/);
      await expectReadToolRun({ requestLog, output, sent: JSON.stringify([model.seen, messages]) });
    } finally {
      await client.close();
      await sink.close();
    }
    await expectRecords(recordsFile, { everything: false });
  });
});
