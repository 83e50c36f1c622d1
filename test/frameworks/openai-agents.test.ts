// linkgate's MCP server object inside the real OpenAI Agents SDK: an Agent driven by the framework's own ScriptedModel
// (no network), with the hostile server and server-everything behind `gatedAgentsServer`, and a host read tool over
// `server.readResource` (the second read path a host adds). What the servers were asked, what the model received and
// what the records say are all checked.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';
import { type GatedAgentsServer, gatedAgentsServer } from '../../src/frameworks/openai-agents-server.ts';
import { realFrameworks } from '../real-host/real-parts.ts';
import { frameworkSuite } from './framework-package.ts';
import { gatedRunSetup } from './gated-run-setup.ts';
import { importAgents } from './openai-agents-package.ts';
import { everythingDoc, everythingServer, expectGatedRun, expectRecords } from './gated-run-checks.ts';
import { hostileLinks } from './hostile-resources.ts';

const suite = frameworkSuite('openai agents', realFrameworks.openaiAgents);

describe('gatedAgentsServer inside the real OpenAI Agents SDK', () => {
  test('refused links are never read (tool results and the host read tool), withheld bodies never reach the model', {
    timeout: 120_000,
  }, async (ctx) => {
    const dir = suite.require(ctx);
    const { agents, testing } = await importAgents(dir);
    const { requestLog, recordsFile, sink, gate, hostileServer } = await gatedRunSetup(
      suite,
      'linkgate-openai-agents-',
    );

    // the lines a user adds: one gated server object per MCP server
    const hostile = gatedAgentsServer({
      name: 'hostile',
      client: new Client({ name: 'agents-host', version: '1.0.0' }),
      transport: new StdioClientTransport(hostileServer),
      gate,
      sink,
    });
    const everything = gatedAgentsServer({
      name: 'everything',
      client: new Client({ name: 'agents-host', version: '1.0.0' }),
      transport: new StdioClientTransport({ command: process.execPath, args: [everythingServer, 'stdio'] }),
      gate,
      sink,
    });
    const servers: Record<string, GatedAgentsServer> = { hostile, everything };
    // the host's own read tool, over the server object's readResource: the second read path
    const readTool = agents.tool({
      name: 'read_resource',
      description: 'reads a resource of an MCP server',
      parameters: {
        type: 'object',
        properties: { server: { type: 'string' }, uri: { type: 'string' } },
        required: ['server', 'uri'],
        additionalProperties: false,
      },
      strict: true,
      // a refused read is an error (-32080) naming why; the framework would hide a thrown error's text from the model
      execute: async (input: { server: string; uri: string }) =>
        servers[input.server]?.readResource(input.uri).then(
          (result) => JSON.stringify(result),
          (error: unknown) => `error: ${(error as Error).message}`,
        ),
    });
    const read = (server: string, uri: string, callId: string) =>
      testing.functionCall('read_resource', { server, uri }, { callId });
    const model = new testing.ScriptedModel([
      [testing.functionCall('links', {}, { callId: 'call_links' })],
      hostileLinks.map((r) => read('hostile', r.uri, `call_${r.key}`)),
      [
        // the framework offers MCP tool names with `-` as `_`
        testing.functionCall('get_resource_links', { count: 1 }, { callId: 'call_everything' }),
      ],
      [read('everything', everythingDoc, 'call_everything_read')],
      [testing.assistantMessage('all read')],
    ]);
    const agent = new agents.Agent({
      name: 'reader',
      instructions: 'read every link',
      model,
      mcpServers: [hostile, everything],
      tools: [readTool],
    });
    await Promise.all([hostile.connect(), everything.connect()]);
    try {
      const result = await agents.run(agent, 'read every link the servers return', { maxTurns: 10 });
      expect(result.finalOutput).toBe('all read');
    } finally {
      await Promise.all([hostile.close(), everything.close()]);
      await sink.close();
    }
    model.assertComplete();

    // what the model received: every input it was sent, and each call's output
    const inputs = model.calls.map((c) => c.request.input);
    const everythingSent = JSON.stringify(inputs);
    const outputs = new Map<string, string>();
    for (const item of (inputs[inputs.length - 1] ?? []) as Record<string, unknown>[])
      if (item['type'] === 'function_call_result') outputs.set(String(item['callId']), JSON.stringify(item['output']));
    const output = (id: string) => outputs.get(id) ?? '';

    await expectGatedRun({ requestLog, output, sent: everythingSent });

    // one record per link: the links tool's refused ones, each read's verdict
    await expectRecords(recordsFile);
  });
});
