// The Vercel AI SDK over gated transports: `createMCPClient({ transport: gateTransport(…) })` is the whole set-up. The
// real `ai` and `@ai-sdk/mcp` (which declare Node 22; run here on Node 20), `generateText` driven by the SDK's own
// MockLanguageModelV4 (no network), the hostile server and server-everything, and a host read tool over the same
// gated connection (a second client on it would be a second, ungated path).
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { realFrameworks } from '../real-host/real-parts.ts';
import { lastToolOutputs, scriptedAiModel } from './ai-sdk-scripted-model.ts';
import { frameworkSuite, importFrom } from './framework-package.ts';
import { gatedRunSetup } from './gated-run-setup.ts';
import { everythingDoc, everythingServer, expectGatedRun, expectRecords } from './gated-run-checks.ts';
import { hostileLinks } from './hostile-resources.ts';
import type { ToolCall } from './langchain-scripted-model.ts';

const suite = frameworkSuite('the ai sdk', realFrameworks.aiSdk);

interface McpClient {
  tools(): Promise<Record<string, unknown>>;
  readResource(args: { uri: string }): Promise<unknown>;
  close(): Promise<void>;
}
interface AiMcp {
  createMCPClient: (config: { transport: unknown }) => Promise<McpClient>;
}
interface Ai {
  generateText: (options: Record<string, unknown>) => Promise<{ text: string; steps: unknown[] }>;
  tool: (options: Record<string, unknown>) => unknown;
  jsonSchema: (schema: Record<string, unknown>) => unknown;
  isStepCount: (count: number) => unknown;
}

describe('createMCPClient over gateTransport inside the real AI SDK', () => {
  test('refused links are never read (tool results and the host read tool), withheld bodies never reach the model', {
    timeout: 120_000,
  }, async (ctx) => {
    const dir = suite.require(ctx);
    const ai = await importFrom<Ai>(dir, 'ai');
    const { createMCPClient } = await importFrom<AiMcp>(dir, '@ai-sdk/mcp');
    const { requestLog, recordsFile, sink, gate, hostileServer } = await gatedRunSetup(suite, 'linkgate-ai-sdk-');
    // the line a user adds, per server: the client's transport goes through the gate
    const hostile = await createMCPClient({
      transport: gateTransport(new StdioClientTransport(hostileServer), {
        gate,
        sink,
        server: 'hostile',
      }),
    });
    const everything = await createMCPClient({
      transport: gateTransport(
        new StdioClientTransport({ command: process.execPath, args: [everythingServer, 'stdio'] }),
        {
          gate,
          sink,
          server: 'everything',
        },
      ),
    });
    const clients: Record<string, McpClient> = { hostile, everything };
    try {
      const readTool = ai.tool({
        description: 'reads a resource of an MCP server',
        inputSchema: ai.jsonSchema({
          type: 'object',
          properties: { server: { type: 'string' }, uri: { type: 'string' } },
          required: ['server', 'uri'],
        }),
        execute: async (input: { server: string; uri: string }) =>
          clients[input.server]?.readResource({ uri: input.uri }).then(
            (result) => JSON.stringify(result),
            (error: unknown) => `error: ${(error as Error).message}`,
          ),
      });
      const tools = { ...(await hostile.tools()), ...(await everything.tools()), read_resource: readTool };
      const read = (server: string, uri: string, id: string): ToolCall => ({
        id,
        name: 'read_resource',
        args: { server, uri },
      });
      const script: ToolCall[][] = [
        [{ id: 'call_links', name: 'links', args: {} }],
        hostileLinks.map((r) => read('hostile', r.uri, `call_${r.key}`)),
        [{ id: 'call_everything', name: 'get-resource-links', args: { count: 1 } }],
        [read('everything', everythingDoc, 'call_everything_read')],
      ];
      const model = await scriptedAiModel(dir, script);
      const result = await ai.generateText({ model, tools, prompt: 'read every link', stopWhen: ai.isStepCount(10) });
      expect(result.text).toBe('all read');

      // what the model received: the prompt of every call it answered
      const prompts = model.doGenerateCalls.map((c) => c.prompt);
      const sent = JSON.stringify(prompts);
      const outputs = lastToolOutputs(model);
      const output = (id: string) => (outputs.get(id) === undefined ? '' : JSON.stringify(outputs.get(id)));
      await expectGatedRun({ requestLog, output, sent });
    } finally {
      await Promise.all([hostile.close(), everything.close()]);
      await sink.close();
    }
    await expectRecords(recordsFile);
  });
});
