// The gated read tool of the OpenAI Agents adapter: a host read tool whose `execute` is `server.readLink(uri)`, inside
// the real framework driven by its own ScriptedModel (no network). It reads only links the server's tool results
// passed on, through the gate: a refused link (a notice in the tool result, never a link) and a uri no tool returned
// are never asked of the server, withheld bodies never reach the model, the README does.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';
import { gatedAgentsServer, readLinkParameters } from '../../src/frameworks/openai-agents-server.ts';
import { serverReads } from '../real-host/fixture-process.ts';
import { realFrameworks } from '../real-host/real-parts.ts';
import { frameworkSuite } from './framework-package.ts';
import { gatedRunSetup } from './gated-run-setup.ts';
import { importAgents } from './openai-agents-package.ts';
import { expectRecords } from './gated-run-checks.ts';
import { hostileLink, hostileLinks } from './hostile-resources.ts';

const suite = frameworkSuite('openai agents', realFrameworks.openaiAgents);

// a uri of the hostile server's scheme that no tool returned: the read tool must not ask for it
const undiscovered = 'hostile://docs/never-returned.md';

describe('the OpenAI Agents read tool over readLink', () => {
  test('reads only links a tool returned, through the gate', { timeout: 120_000 }, async (ctx) => {
    const dir = suite.require(ctx);
    const { agents, testing } = await importAgents(dir);
    const { requestLog, recordsFile, sink, gate, hostileServer } = await gatedRunSetup(
      suite,
      'linkgate-openai-read-link-',
    );
    const hostile = gatedAgentsServer({
      name: 'hostile',
      client: new Client({ name: 'agents-host', version: '1.0.0' }),
      transport: new StdioClientTransport(hostileServer),
      gate,
      sink,
    });
    // the lines a user adds for the read tool
    const readLink = agents.tool({
      name: 'read_link',
      description: 'reads a link a tool of the hostile server returned',
      parameters: readLinkParameters,
      strict: true,
      execute: ({ uri }: { uri: string }) => hostile.readLink(uri),
    });
    const read = (uri: string, callId: string) => testing.functionCall('read_link', { uri }, { callId });
    const model = new testing.ScriptedModel([
      // before any tool ran, nothing is discovered: the README is refused too
      [read(hostileLink('readme').uri, 'call_early')],
      [testing.functionCall('links', {}, { callId: 'call_links' })],
      [...hostileLinks.map((r) => read(r.uri, `call_${r.key}`)), read(undiscovered, 'call_undiscovered')],
      [testing.assistantMessage('all read')],
    ]);
    const agent = new agents.Agent({ name: 'reader', model, mcpServers: [hostile], tools: [readLink] });
    await hostile.connect();
    try {
      const result = await agents.run(agent, 'read every link', { maxTurns: 10 });
      expect(result.finalOutput).toBe('all read');
    } finally {
      await hostile.close();
      await sink.close();
    }
    model.assertComplete();

    const inputs = model.calls.map((c) => c.request.input);
    const sent = JSON.stringify(inputs);
    const outputs = new Map<string, string>();
    for (const item of (inputs[inputs.length - 1] ?? []) as Record<string, unknown>[])
      if (item['type'] === 'function_call_result') outputs.set(String(item['callId']), JSON.stringify(item['output']));
    const output = (id: string) => outputs.get(id) ?? '';

    // the server was asked only for the links the tool passed on, once each, after the tool ran
    expect(await serverReads(requestLog)).toEqual(['readme', 'elf', 'html'].map((k) => hostileLink(k).uri));
    expect(output('call_early')).toContain('link.not-discovered');
    expect(output('call_undiscovered')).toContain('link.not-discovered');
    // the refused links reached the agent as notices, so the read tool has no link of theirs to read
    for (const key of ['metadata', 'file']) expect(output(`call_${key}`)).toContain('link.not-discovered');
    expect(output('call_readme')).toContain(hostileLink('readme').marker);
    expect(output('call_elf')).toContain('content.executable');
    for (const key of ['metadata', 'file', 'elf', 'html']) expect(sent).not.toContain(hostileLink(key).marker);
    await expectRecords(recordsFile, { everything: false });
  });
});
