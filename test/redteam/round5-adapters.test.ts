// Red team (issue 39, hidden-style round 5), adapters' retry paths: a framework calls a tool or a read again after the
// gate refused or failed it (an agent loop retries on an error). The second try must meet the same gate: a read
// refused for its answer is refused again (no cache hands on what was withheld), a read denied before the host's read
// is denied again under a new call id or with a fragment added, a withheld tool result retried under the same call id
// stays withheld, `gateToolResult` retried after its sink threw still hands on nothing refused, and a link in an error
// result of a retried call is not one the read tool may read. `gatedLinks` over a real SDK client and the real
// scripted stdio server, the Claude Agent SDK hooks in process, `gateToolResult`.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect } from 'vitest';
import { claudeAgentHooks } from '../../src/frameworks/claude-agent-hooks.ts';
import { gatedLinks, notDiscoveredNotice } from '../../src/frameworks/gated-links.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { callbackSink, type RecordSink } from '../../src/record/record-sink.ts';
import { gateToolResult } from '../../src/sdk/gate-tool-result.ts';
import { readRequested, toolReturned } from '../hook/hook-events.ts';
import {
  closeAll,
  hostPath,
  link,
  metadata,
  onClose,
  policyFile,
  reads,
  scratch,
  scriptedTransport,
} from './scripted-host.ts';
import { caseKeys, signal } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

/** A real SDK client over `transport(inner)` before the scripted server `a`; the server's read log. */
async function client(transport: (inner: StdioClientTransport) => Parameters<Client['connect']>[0]) {
  const log = path.join(await scratch(), 'requests.jsonl');
  const c = new Client({ name: 'retry', version: '1' });
  await c.connect(transport(scriptedTransport(log)));
  onClose(() => c.close());
  return { client: c, reads: () => reads(log) };
}

const callTool = (c: Client, result: unknown) => c.callTool({ name: 'result', arguments: { result } });

describe('red team, adapters (round 5): gatedLinks, the read tool retried', () => {
  it('swap retry')('a read withheld for its answer (another resource) is withheld again when retried', async () => {
    const gate = createGate(await loadPolicy(policyFile));
    const links = gatedLinks({ gate, sink: callbackSink(() => undefined) });
    const { client: c } = await client((inner) => links.transport('a', inner));
    await callTool(c, { content: [link('rt://swap/a.txt', 'a')] });
    const first = await links.read('rt://swap/a.txt');
    const second = await links.read('rt://swap/a.txt');
    expect(first).toContain('linkgate');
    for (const text of [first, second]) {
      expect(text).not.toContain('SWAPPED-BODY-31');
      expect(text).not.toContain('169.254.169.254/latest');
    }
  });

  it('error result retry')(
    'a retried call answered with an error result holding a refused link: the read tool may not read it',
    async () => {
      const gate = createGate(await loadPolicy(policyFile));
      const links = gatedLinks({ gate, sink: callbackSink(() => undefined) });
      const { client: c, reads } = await client((inner) => links.transport('a', inner));
      await callTool(c, { content: [{ type: 'text', text: 'try again' }], isError: true });
      const retried = await callTool(c, { content: [link(metadata, 'creds')], isError: true });
      expect(JSON.stringify(retried)).not.toContain(hostPath);
      expect(await links.read(metadata)).toBe(notDiscoveredNotice);
      expect(await reads()).toEqual([]);
    },
  );
});

describe('red team, adapters (round 5): gateToolResult retried', () => {
  it('tool result retry')('retried after its sink threw, it still hands on nothing refused', async () => {
    const { client: c } = await client((inner) => inner);
    const raw = await callTool(c, { content: [link(metadata, 'creds'), { type: 'text', text: `see ${metadata}` }] });
    const gate = createGate(await loadPolicy(policyFile));
    const throwing: RecordSink = {
      write: () => Promise.reject(new Error('disk full')),
      close: async () => undefined,
    };
    const first = await gateToolResult(c, raw, { gate, server: 'a', sink: throwing });
    const second = await gateToolResult(c, raw, { gate, server: 'a', sink: callbackSink(() => undefined) });
    for (const gated of [first, second]) expect(JSON.stringify(gated.content)).not.toContain(hostPath);
    // the caller's own copy of the raw result is what it was (a retry judges the same input)
    expect(JSON.stringify(raw)).toContain(hostPath);
  });
});

describe('red team, adapters (round 5): Claude Agent SDK hooks, a retried read or result', () => {
  const hooksIn = async () =>
    claudeAgentHooks({
      policy: policyFile,
      records: callbackSink(() => undefined),
      stateDir: path.join(await scratch(), 'state'),
    });
  const denied = (answer: unknown) => JSON.stringify(answer).includes('"deny"');

  it('pre retry')(
    'a read denied, retried under a new call id and with a fragment added, is denied each time',
    async () => {
      const hooks = await hooksIn();
      const pre = hooks.PreToolUse[0]?.hooks[0];
      const post = hooks.PostToolUse[0]?.hooks[0];
      await post?.(toolReturned('a', 'result', [link(metadata, 'creds')]), 'toolu_0', signal);
      const tries = [
        [metadata, 'toolu_1'],
        [metadata, 'toolu_2'],
        [`${metadata}#retry`, 'toolu_3'],
        [`${metadata}?`, 'toolu_4'],
      ] as const;
      for (const [uri, id] of tries) {
        const answer = await pre?.(readRequested('a', uri, { toolUseId: id }), id, signal);
        expect(denied(answer), `${uri} ${id}`).toBe(true);
      }
    },
  );

  it('post retry')('a withheld tool result retried under the same call id stays withheld', async () => {
    const hooks = await hooksIn();
    const post = hooks.PostToolUse[0]?.hooks[0];
    const event = toolReturned('a', 'result', [link(metadata, 'creds')], { toolUseId: 'toolu_9' });
    const first = JSON.stringify(await post?.(event, 'toolu_9', signal));
    const second = JSON.stringify(await post?.(event, 'toolu_9', signal));
    for (const answer of [first, second]) {
      expect(answer).not.toBe('{}');
      expect(answer).not.toContain(hostPath);
    }
  });
});
