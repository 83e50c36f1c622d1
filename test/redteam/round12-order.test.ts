// Red team (issue 39, hidden-style round 12), order at a connection's two ends. Before `initialize`: a 2026-07-28 host
// sends requests with no handshake (stateless), so the proxy's first message from the host may be a read of a refused
// uri, or a tool call whose answer holds a refused link: each must be judged as after a handshake. After close: the
// shared read tool (`gatedLinks.read`) asked for a link after its connection closed must answer with a notice (it
// never rejects), and not hang. The in-process proxy before the real scripted stdio server; `gatedLinks` over a real
// SDK client and the real answering stdio server. Controls: an ordinary read before the handshake reaches the server.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, test } from 'vitest';
import { gatedLinks } from '../../src/frameworks/gated-links.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { startRawHost } from '../proxy/raw-host.ts';
import { tsServerCommand } from '../real-host/fixture-process.ts';
import { answeringServer } from './hidden-fronts.ts';
import { caseKeys } from './round-cases.ts';
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
  serverFile,
} from './scripted-host.ts';

const open = new Set<string>([]);
const it = caseKeys(open);

afterEach(closeAll);
const within = { timeout: 60_000 };
const doc = 'rt://docs/a.txt';

describe('red team, order (round 12): requests before the handshake (the proxy)', () => {
  /** A raw host through the in-process proxy before the scripted server, no `initialize` sent; the server's read log. */
  async function unshaken() {
    const log = path.join(await scratch(), 'requests.jsonl');
    const [command, ...args] = tsServerCommand(serverFile) as [string, ...string[]];
    process.env['RT_SERVER_NAME'] = 'a';
    process.env['RT_REQUEST_LOG'] = log;
    const host = startRawHost(createGate(await loadPolicy(policyFile)), { kind: 'command', command, args });
    delete process.env['RT_SERVER_NAME'];
    delete process.env['RT_REQUEST_LOG'];
    onClose(async () => {
      host.end();
      await host.exit;
    });
    return { host, log };
  }

  test('a read of the metadata address as the first message: refused, never sent', within, async () => {
    const { host, log } = await unshaken();
    const answer = await host.request('resources/read', { uri: metadata });
    expect(JSON.stringify(answer)).toContain('linkgate');
    expect(await reads(log)).toEqual([]);
  });
  test('a tool call as the first message, its answer holding the metadata link: replaced', within, async () => {
    const { host } = await unshaken();
    const answer = await host.request('tools/call', {
      name: 'result',
      arguments: { result: { content: [link(metadata, 'creds')] } },
    });
    expect(JSON.stringify(answer)).not.toContain(hostPath);
    expect(JSON.stringify(answer)).toContain('linkgate refused the link');
  });
  test('control: a tool call as the first message, an ordinary link: handed on', within, async () => {
    const { host } = await unshaken();
    const answer = await host.request('tools/call', {
      name: 'result',
      arguments: { result: { content: [link('https://docs.example/guide/a.txt', 'guide')] } },
    });
    expect(JSON.stringify(answer)).toContain('docs.example/guide');
  });
});

describe('red team, order (round 12): the read tool after its connection closed', () => {
  async function listedThenClosed() {
    const links = gatedLinks({ gate: createGate(await loadPolicy(policyFile)), sink: callbackSink(() => {}) });
    const client = new Client({ name: 'r12', version: '1' });
    await client.connect(
      links.transport('a', scriptedTransport(path.join(await scratch(), 'r.jsonl'), answeringServer)),
    );
    await client.callTool({ name: 'result', arguments: { result: { content: [link(doc, 'a')] } } });
    return { links, client };
  }
  it('read after close')('a listed link read after close: a notice, not a rejection', within, async () => {
    const { links, client } = await listedThenClosed();
    await client.close();
    const answer = await links.read(doc);
    expect(answer).toContain('linkgate');
    expect(answer).not.toContain(`BODY ${doc}`);
  });
  test('control: the same link read before close: its body', within, async () => {
    const { links, client } = await listedThenClosed();
    onClose(() => client.close());
    expect(await links.read(doc)).toContain(`BODY ${doc}`);
  });
});
