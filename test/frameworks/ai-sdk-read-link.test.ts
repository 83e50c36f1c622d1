// The AI SDK's gated read tool (`aiSdkReadLinkTool` over `gatedLinks`) inside the real `ai` 7 and `@ai-sdk/mcp` 2:
// `generateText` driven by the SDK's own MockLanguageModelV4 (no network) calls the read tool before any tool ran, then
// the hostile server's tool, then the read tool for each link it returned and for a uri none did. What reached the
// model is checked read by read, with the server's request log and the records.
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';
import { aiSdkReadLinkTool } from '../../src/frameworks/ai-sdk-read-link.ts';
import { gatedLinks } from '../../src/frameworks/gated-links.ts';
import { realFrameworks } from '../real-host/real-parts.ts';
import { lastToolOutputs, scriptedAiModel } from './ai-sdk-scripted-model.ts';
import { frameworkSuite, importFrom } from './framework-package.ts';
import { gatedRunSetup } from './gated-run-setup.ts';
import { expectRecords } from './gated-run-checks.ts';
import { expectReadToolRun, readToolScript } from './read-tool-checks.ts';

const suite = frameworkSuite('the ai sdk', realFrameworks.aiSdk);

interface McpClient {
  tools(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}
interface AiMcp {
  createMCPClient: (config: { transport: unknown }) => Promise<McpClient>;
}
interface Ai {
  generateText: (options: Record<string, unknown>) => Promise<{ text: string }>;
  tool: <T>(tool: T) => T;
  isStepCount: (count: number) => unknown;
}

describe('aiSdkReadLinkTool inside the real AI SDK', () => {
  test('reads only links a tool returned, through the gate: the body, or the notice', {
    timeout: 120_000,
  }, async (ctx) => {
    const dir = suite.require(ctx);
    const ai = await importFrom<Ai>(dir, 'ai');
    const { createMCPClient } = await importFrom<AiMcp>(dir, '@ai-sdk/mcp');
    const { requestLog, recordsFile, sink, gate, hostileServer } = await gatedRunSetup(suite, 'linkgate-ai-sdk-read-');
    // the lines a user writes: the agent's gated connections, and the read tool over them
    const links = gatedLinks({ gate, sink });
    const server = new StdioClientTransport(hostileServer);
    const mcp = await createMCPClient({ transport: links.transport('hostile', server) });
    try {
      const tools = { ...(await mcp.tools()), read_link: ai.tool(aiSdkReadLinkTool(links)) };
      const script = readToolScript('read_link', 'links');
      const model = await scriptedAiModel(dir, script);
      const result = await ai.generateText({ model, tools, prompt: 'read every link', stopWhen: ai.isStepCount(10) });
      expect(result.text).toBe('all read');

      const prompts = model.doGenerateCalls.map((c) => c.prompt);
      const outputs = lastToolOutputs(model);
      // a string a tool returns reaches the model as `{ type: 'text', value }`
      const output = (id: string) => {
        const o = outputs.get(id) as { type?: string; value?: unknown } | undefined;
        return o?.type === 'text' && typeof o.value === 'string' ? o.value : undefined;
      };
      await expectReadToolRun({ requestLog, output, sent: JSON.stringify(prompts) });
    } finally {
      await mcp.close();
      await sink.close();
    }
    await expectRecords(recordsFile, { everything: false });
  });
});
