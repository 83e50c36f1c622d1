// The decision a refused link carries to the host (`_meta["io.linkgate/decision"]` beside its notice, `error.data` of a
// refused read) follows the notice rule of issue 39 item 3: its reasons may name the host (or the origin, the scheme),
// never the host and path, the uri, its userinfo, query values or fragment. A shell or web fetch tool the gate does
// not cover could otherwise be pointed at the address the decision spells out. Checked over generated uris (schemes,
// hosts of every class, paths, userinfo, queries; the shipped policy and one with an origin list)
// and through the decorator over a real SDK client, in `content` and in a refused read.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { addressOf } from '../../src/flow/read-back.ts';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { buildPolicy } from '../../src/policy/policy.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { decisionMetaKey, gateTransport } from '../../src/sdk/gate-transport.ts';
import { defaultPolicyWith } from './fake-gate.ts';

const hosts = [
  '169.254.169.254',
  'secret-host.internal',
  'localhost',
  '10.1.2.3',
  '[fd00::1]',
  '0x7f.1',
  'evil.example',
  'a\\b.com',
  'EVIL.corp:8443',
  '999.1.1.1',
  'exa%41mple.com',
  'xn--80ak6aa92e.com',
];
const schemes = ['http', 'https', 'ftp', 'vault', 'file', 'gopher', 'ws', 'javascript'];
const secretPaths = ['/srv/keys/prod-deploy', '/p%2e%2e/admin-panel', '//double/slash-path', '/\u202eexe.txt-name'];

/** What a decision must not spell out about `uri` (each long enough to mean something). */
function secretsOf(uri: string, path: string): string[] {
  return [uri, addressOf(uri), path.slice(1), 'hunter22', 'qvalue123', 'frag456'].filter((s) => s.length >= 4);
}

function expectUnreadable(decision: unknown, uri: string, path: string): void {
  const json = JSON.stringify(decision).toLowerCase();
  for (const secret of secretsOf(uri, path)) expect(json, `${uri}: ${secret}`).not.toContain(secret.toLowerCase());
}

async function gates(): Promise<Gate[]> {
  const shipped = await defaultPolicyWith();
  const doc = structuredClone(shipped.document);
  const strict = { ...doc, links: { ...doc.links, origins: ['https://ok.example.com'] } };
  return [createGate(shipped), createGate(buildPolicy(strict, '<strict>'))];
}

describe("a refused link's decision names no address", () => {
  test('generated uris: the link decision of each refused one', async () => {
    const [shipped, strict] = await gates();
    const uris = fc.record({
      scheme: fc.constantFrom(...schemes),
      user: fc.constantFrom('', 'admin:hunter22@', 'hunter22@'),
      host: fc.constantFrom(...hosts),
      path: fc.constantFrom(...secretPaths),
      strict: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(uris, async ({ scheme, user, host, path, strict: useStrict }) => {
        const uri = `${scheme}://${user}${host}${path}?q=qvalue123#frag456`;
        const gate = (useStrict ? strict : shipped) as Gate;
        const link = { type: 'resource_link', uri, name: 'n' };
        const decision = await gate.decide({ stage: 'link', server: 's', readFrom: 's', link });
        if (decision.effect === 'deny') expectUnreadable(decision, uri, path);
      }),
      { numRuns: 400 },
    );
  });

  test('through gateTransport: the `_meta` of a refused link in content and the `error.data` of its read', async () => {
    const [gate] = await gates();
    const refused = hosts.map((host, i) => ({
      type: 'resource_link',
      uri: `http://admin:hunter22@${host}${secretPaths[i % secretPaths.length]}?q=qvalue123#frag456`,
      name: `link ${i}`,
    }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    serverSide.onmessage = (message) => {
      const m = message as { id?: number; method?: string };
      if (m.id === undefined) return;
      const initialize = {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {}, resources: {} },
        serverInfo: { name: 's', version: '1' },
      };
      const result = m.method === 'initialize' ? initialize : m.method === 'tools/call' ? { content: refused } : {};
      void serverSide.send({ jsonrpc: '2.0', id: m.id, result });
    };
    await serverSide.start();
    const transport = gateTransport(clientSide, { gate: gate as Gate, sink: callbackSink(() => {}) });
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(transport);
    const answer = (await client.callTool({ name: 'links', arguments: {} })) as { content: Record<string, unknown>[] };
    for (const [i, link] of refused.entries()) {
      const item = answer.content[i] as { type: string; _meta?: Record<string, unknown> };
      expect(item.type, link.uri).toBe('text');
      const path = secretPaths[i % secretPaths.length] as string;
      expectUnreadable(item._meta?.[decisionMetaKey], link.uri, path);
      const read = await client.readResource({ uri: link.uri }).then(
        () => null,
        (error: unknown) => error as { data?: Record<string, unknown> },
      );
      expect(read?.data?.[decisionMetaKey], link.uri).toMatchObject({ effect: 'deny' });
      expectUnreadable(read?.data?.[decisionMetaKey], link.uri, path);
    }
    await client.close();
  });
});
