// Mastra in process (no proxy): the hostile server's tools as Mastra tools over an MCP SDK client connected through
// `gatedLinks(…).transport(…)` (`gatedMastraTools`), and the read tool over the same connection (`mastraReadLinkTool`),
// inside the real `@mastra/core` Agent driven by Mastra's own MastraLanguageModelV2Mock (no network). The model calls
// the read tool before any tool ran, the links tool, then the read tool for every link and for a uri no tool returned;
// what reached the model is checked read by read, with the server's request log and the records.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';
import { gatedLinks } from '../../src/frameworks/gated-links.ts';
import { gatedMastraTools, mastraReadLinkTool } from '../../src/frameworks/mastra-tools.ts';
import { realFrameworks } from '../real-host/real-parts.ts';
import { lastToolOutputs, scriptedDoGenerate } from './ai-sdk-scripted-model.ts';
import { frameworkSuite, importFrom } from './framework-package.ts';
import { gatedRunSetup } from './gated-run-setup.ts';
import { expectRecords } from './gated-run-checks.ts';
import { hostileLink } from './hostile-resources.ts';
import { expectReadToolRun, readToolScript } from './read-tool-checks.ts';

const suite = frameworkSuite('mastra', realFrameworks.mastra);

interface MastraAgent {
  generate(prompt: string, options: Record<string, unknown>): Promise<{ text: string }>;
}
interface MastraCore {
  Agent: new (config: Record<string, unknown>) => MastraAgent;
}
interface MastraMock {
  MastraLanguageModelV2Mock: new (config: Record<string, unknown>) => { doGenerateCalls: { prompt: unknown }[] };
}

describe('gatedMastraTools and mastraReadLinkTool inside a real Mastra agent', () => {
  test('tool results pass the gate; the read tool reads only links a tool returned, through the gate', {
    timeout: 120_000,
  }, async (ctx) => {
    const dir = suite.require(ctx);
    const { Agent } = await importFrom<MastraCore>(dir, '@mastra/core/agent');
    const { MastraLanguageModelV2Mock } = await importFrom<MastraMock>(dir, '@mastra/core/test-utils/llm-mock');
    const { requestLog, recordsFile, sink, gate, hostileServer } = await gatedRunSetup(
      suite,
      'linkgate-mastra-in-process-',
    );
    // the lines a user writes: a gated connection per server, its tools, and the read tool
    const links = gatedLinks({ gate, sink });
    const client = new Client({ name: 'mastra-host', version: '1.0.0' });
    await client.connect(links.transport('hostile', new StdioClientTransport(hostileServer)));
    try {
      const tools = { ...(await gatedMastraTools('hostile', client)), read_link: mastraReadLinkTool(links) };
      expect(Object.keys(tools).sort()).toEqual(['hostile_links', 'read_link']);
      const script = readToolScript('read_link', 'hostile_links');
      const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
      const model = new MastraLanguageModelV2Mock({
        doGenerate: scriptedDoGenerate(script, usage, (reason) => reason),
      });
      const agent = new Agent({ id: 'reader', name: 'reader', instructions: 'read every link', model, tools });
      const result = await agent.generate('read every link', { maxSteps: 10 });
      expect(result.text).toBe('all read');

      const prompts = model.doGenerateCalls.map((c) => c.prompt);
      const outputs = lastToolOutputs(model);
      const output = (id: string) => {
        const o = outputs.get(id) as { type?: string; value?: unknown } | undefined;
        return o?.type === 'text' && typeof o.value === 'string' ? o.value : undefined;
      };
      // the links tool's result reached the agent with the refused links as notices, never as links
      const linksResult = JSON.stringify(outputs.get('call_links'));
      expect(linksResult).toContain(hostileLink('readme').uri);
      expect(linksResult).toMatch(/linkgate refused the link `passwd`/);
      expect(linksResult).not.toContain(hostileLink('file').uri);
      await expectReadToolRun({ requestLog, output, sent: JSON.stringify(prompts) });
    } finally {
      await client.close();
      await sink.close();
    }
    await expectRecords(recordsFile, { everything: false });
  });
});
