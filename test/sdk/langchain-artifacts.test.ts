// LangChain's artifact mode (`outputHandling: { resource_link: 'artifact' }`) reads every link of a tool result at once
// and fails the whole tool on one failed read, safe links included. With `refusedReads: 'notice'` the decorator answers
// a refused, unfinished or failed read with its notice as the one item: the bad link becomes its notice, the others are
// delivered. The real @langchain/mcp-adapters, installed on demand as test/frameworks/langchain.test.ts does.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { importFrom, frameworkSuite } from '../frameworks/framework-package.ts';
import { realFrameworks } from '../real-host/real-parts.ts';
import { defaultPolicyWith } from './fake-gate.ts';
import { faultStdio } from './fault-clients.ts';
import { brokenUri, safeUri } from './fault-server.ts';

const suite = frameworkSuite('langchain', realFrameworks.langchain);

interface Adapters {
  loadMcpTools: (name: string, client: Client, options?: Record<string, unknown>) => Promise<unknown[]>;
}
type LangChainTool = { name: string; invoke(call: Record<string, unknown>): Promise<unknown> };

async function artifactTool(dir: string, refusedReads?: 'notice') {
  const { loadMcpTools } = await importFrom<Adapters>(dir, '@langchain/mcp-adapters');
  const gate = createGate(await defaultPolicyWith());
  const client = new Client({ name: 'langchain-host', version: '1.0.0' });
  const options = refusedReads === undefined ? {} : { refusedReads };
  await client.connect(gateTransport(faultStdio('1.x'), { gate, server: 'fault', ...options }));
  const tools = (await loadMcpTools('fault', client, {
    outputHandling: { resource_link: 'artifact' },
  })) as LangChainTool[];
  const tool = tools.find((t) => t.name === 'artifact-links') as LangChainTool;
  const call = { id: 'call_1', name: 'artifact-links', args: {}, type: 'tool_call' };
  return { client, run: () => tool.invoke(call) };
}

describe("LangChain's artifact mode over the decorator", () => {
  test('one failed read fails the whole tool unless refused reads answer with their notice', {
    timeout: 120_000,
  }, async (ctx) => {
    const dir = suite.require(ctx);
    // the default (a -32080 or the server's error): the adapter's one Promise.all fails, the safe link with it
    const plain = await artifactTool(dir);
    try {
      const failed = JSON.stringify(await plain.run().catch((e: unknown) => ({ thrown: String(e) })));
      expect(failed).not.toContain(`contents of ${safeUri}`);
    } finally {
      await plain.client.close();
    }

    const noticed = await artifactTool(dir, 'notice');
    try {
      const message = JSON.parse(JSON.stringify(await noticed.run())) as { kwargs?: { artifact?: unknown } };
      const artifacts = JSON.stringify(message.kwargs?.artifact ?? message);
      console.info(
        `[measure] artifact mode with notices: safe body delivered: ${artifacts.includes(`contents of ${safeUri}`)}`,
      );
      expect(artifacts).toContain(`contents of ${safeUri}`);
      expect(artifacts).toContain('linkgate did not complete the read of');
      expect(artifacts).toContain('read.error');
      expect(artifacts).toContain(JSON.stringify(brokenUri).slice(1, -1));
    } finally {
      await noticed.client.close();
    }
  });
});
