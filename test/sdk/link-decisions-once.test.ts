// One uri in one tool result is decided once (second reading of issue 39): a tool result names the same links in
// `content`, in a JSON text item mirroring its structured content (SEP-2106) and in `structuredContent` (as link
// objects and as bare uri strings). The decorator decides `content`'s links in its ledger; the JSON text and the
// structured content take those decisions, and a link found only there is decided once for both. The hook the same
// for its own decisions. A counting gate shows every link decision made. On main each uri was decided again for the
// JSON text and again for `structuredContent`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { codexHost } from '../../src/hook/codex-host.ts';
import { handleHookEvent } from '../../src/hook/handle-hook-event.ts';
import type { HookEvent } from '../../src/hook/hook-event.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { defaultPolicyWith } from './fake-gate.ts';

type Json = Record<string, unknown>;

/** The gate, counting each link decision it is asked for by uri (through `decide` or `decideLink`). */
function countLinkDecisions(gate: Gate): { gate: Gate; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const note = (line: unknown) => {
    const { stage, link } = (line ?? {}) as { stage?: unknown; link?: { uri?: unknown } };
    if (stage === 'link' && typeof link?.uri === 'string') counts.set(link.uri, (counts.get(link.uri) ?? 0) + 1);
  };
  const counted: Gate = {
    ...gate,
    decideLink: (input) => {
      note(input);
      return gate.decideLink(input);
    },
    decide: (line) => {
      note(line);
      return gate.decide(line);
    },
  };
  return { gate: counted, counts };
}

const allowed = { type: 'resource_link', uri: 'guide://manuals/a', name: 'a', mimeType: 'text/plain' };
const refused = { type: 'resource_link', uri: 'file:///etc/passwd', name: 'pw' };
// only in the structured content and its JSON text, never in `content`'s links
const structuredOnly = 'http://169.254.169.254/latest/meta-data';
const structuredContent = {
  links: [allowed, refused],
  uris: [allowed.uri, refused.uri, structuredOnly],
  also: { again: refused.uri, meta: structuredOnly },
};
const result = {
  content: [allowed, refused, { type: 'text', text: JSON.stringify(structuredContent) }],
  structuredContent,
};

/** Every uri of the result, decided once; the refused ones gone from everything the host gets. */
function expectOnce(counts: Map<string, number>, handedOn: string): void {
  expect(Object.fromEntries(counts)).toEqual({ [allowed.uri]: 1, [refused.uri]: 1, [structuredOnly]: 1 });
  expect(handedOn).not.toContain('/etc/passwd');
  expect(handedOn).not.toContain('169.254.169.254/latest');
  expect(handedOn).toContain(allowed.uri);
}

describe('one link decision per uri of a tool result', () => {
  test('gateTransport: content, JSON text and structuredContent share the ledger', async () => {
    const { gate, counts } = countLinkDecisions(createGate(await defaultPolicyWith()));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    serverSide.onmessage = (message) => {
      const m = message as { id?: number; method?: string };
      if (m.id === undefined) return;
      const answers: Record<string, Json> = {
        initialize: {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 'mirror', version: '1.0.0' },
        },
        'tools/call': result,
      };
      void serverSide.send({ jsonrpc: '2.0', id: m.id, result: answers[m.method ?? ''] ?? {} });
    };
    await serverSide.start();
    const transport = gateTransport(clientSide, { gate, server: 'docs', sink: callbackSink(() => {}) });
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(transport);
    const answer = await client.callTool({ name: 'mirror', arguments: {} });
    await transport.flush();
    await client.close();
    expectOnce(counts, JSON.stringify(answer));
  });

  describe('the hook (codex, which gives the model structuredContent)', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'linkgate-once-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    test('content, JSON text and structuredContent: each uri decided once', async () => {
      const { gate, counts } = countLinkDecisions(createGate(await defaultPolicyWith()));
      const event = codexHost.parse({
        session_id: 'c1',
        cwd: '/tmp',
        transcript_path: null,
        model: 'm',
        permission_mode: 'default',
        hook_event_name: 'PostToolUse',
        tool_name: 'mcp__docs__mirror',
        tool_input: {},
        tool_use_id: 'call_mirror',
        tool_response: result,
      }) as HookEvent;
      const answer = await handleHookEvent(event, { gate, stateDir: dir, record: async () => {} });
      expect(answer.kind).toBe('replace');
      expectOnce(counts, codexHost.format(answer, event));
    });
  });
});
