// Red team (issue 39, hidden-style round 6), adapters' error paths and agent-writable files. Adapters: the read tool
// of `gatedLinks` when the server's read fails with an error naming a refused address; a read in flight when the
// connection closes, and a read tried after it closed (each answers a notice, never hangs, never rejects); the OpenAI
// Agents server object's `listResources` after a refusal, an entry's description naming the address; the Claude Agent SDK
// hooks whose policy path an agent replaced by a FIFO (the load must not wait for a writer) and then by a policy that
// does not parse (each event denied, the next one tried again). Files: the proxy's `--records` replaced by a FIFO or a
// symlink before it starts. `gatedLinks` and the Agents object over a real SDK client and the real scripted stdio
// server; the proxy as its own process.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect } from 'vitest';
import { cliEntry } from '../../src/cli/package-root.ts';
import { claudeAgentHooks } from '../../src/frameworks/claude-agent-hooks.ts';
import { gatedLinks } from '../../src/frameworks/gated-links.ts';
import { gatedAgentsServer } from '../../src/frameworks/openai-agents-server.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { readRequested } from '../hook/hook-events.ts';
import { answeringServer } from './hidden-fronts.ts';
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

/** `gatedLinks` over a real SDK client before the scripted server `a`; the client, the read tool and the read log. */
async function linked(file?: string) {
  const log = path.join(await scratch(), 'requests.jsonl');
  const links = gatedLinks({ gate: createGate(await loadPolicy(policyFile)), sink: callbackSink(() => undefined) });
  const client = new Client({ name: 'r6', version: '1' });
  await client.connect(links.transport('a', scriptedTransport(log, file)));
  onClose(() => client.close());
  const callTool = (result: unknown, more: Record<string, unknown> = {}) =>
    client.callTool({ name: 'result', arguments: { result, ...more } });
  return { client, links, callTool, reads: () => reads(log) };
}

describe('red team, adapters (round 6): gatedLinks and the Agents server on error paths', () => {
  it('read error names')(
    "a read of an allowed link whose error names the address of a link refused beside it: the read tool's text",
    async () => {
      // the answering server answers later reads as scripted: here an error naming the refused address
      const { links, callTool } = await linked(answeringServer);
      const listed = await callTool({ content: [link(metadata, 'creds'), link('rt://docs/a.txt', 'a')] });
      expect(JSON.stringify(listed)).toContain('linkgate refused the link');
      await callTool(
        { content: [] },
        { answers: { 'resources/read': { error: { code: -32000, message: `moved to ${metadata}` } } } },
      );
      expect(await links.read('rt://docs/a.txt')).not.toContain(hostPath);
    },
  );

  it('close mid read')('a read in flight when the connection closes answers a notice', async () => {
    const { client, links, callTool } = await linked();
    await callTool({ content: [link('rt://hold/slow.txt', 'slow')] });
    const pending = links.read('rt://hold/slow.txt');
    await client.close();
    const text = await pending;
    expect(text).toMatch(/^linkgate /);
  });

  it('read after close')('a read tried after the connection closed answers a notice, never rejects', async () => {
    const { client, links, callTool, reads: asked } = await linked();
    await callTool({ content: [link('rt://docs/b.txt', 'b')] });
    await client.close();
    await expect(links.read('rt://docs/b.txt')).resolves.toMatch(/^linkgate /);
    expect(await asked()).toEqual([]);
  });

  it('agents listing')(
    "the Agents server's listResources after a refusal: a description naming the address",
    async () => {
      const server = gatedAgentsServer({
        name: 'a',
        client: new Client({ name: 'agents', version: '1' }),
        transport: scriptedTransport(path.join(await scratch(), 'log.jsonl')),
        gate: createGate(await loadPolicy(policyFile)),
      });
      await server.connect();
      onClose(() => server.close());
      await server.callTool('result', { result: { content: [link(metadata, 'creds')] } });
      const listing = {
        resources: [{ uri: 'rt://docs/c.md', name: 'c', description: `mirror of ${metadata}` }],
      };
      await server.callTool('result', { result: { content: [] }, listing });
      expect(JSON.stringify(await server.listResources())).not.toContain(hostPath);
    },
  );
});

describe('red team, agent-writable files (round 6): the policy of in-process hooks and the proxy records', () => {
  it('agent hooks fifo policy')(
    'Claude Agent SDK hooks whose policy became a FIFO, then unparsable, then good: denied, denied, then judged',
    async () => {
      const dir = await scratch();
      const policy = path.join(dir, 'policy.yaml');
      execFileSync('mkfifo', [policy]);
      const hooks = claudeAgentHooks({
        policy,
        records: callbackSink(() => undefined),
        stateDir: path.join(dir, 'state'),
      });
      const pre = hooks.PreToolUse[0]?.hooks[0];
      const ask = async (id: string) =>
        JSON.stringify(await pre?.(readRequested('a', 'rt://docs/a.md', { toolUseId: id }), id, signal));
      expect(await ask('toolu_1')).toContain('"deny"');
      rmSync(policy);
      writeFileSync(policy, 'links: [');
      expect(await ask('toolu_2')).toContain('"deny"');
      copyFileSync(policyFile, policy);
      // the good policy loads on the next event (a failed load is not kept); a read of an undiscovered link is judged
      expect(await ask('toolu_3')).not.toContain('POLICY_UNREADABLE');
    },
  );

  for (const [label, make] of [
    ['a FIFO', (file: string) => execFileSync('mkfifo', [file])],
    [
      'a symlink to a file of the agent\u2019s choosing',
      (file: string) => {
        writeFileSync(`${file}.target`, 'keep\n');
        symlinkSync(`${file}.target`, file);
      },
    ],
  ] as const)
    it(`proxy records ${label}`)(`the proxy's --records is ${label}: it does not start, nothing written`, async () => {
      const dir = await scratch();
      const records = path.join(dir, 'records.jsonl');
      make(records);
      const child = spawn(
        process.execPath,
        [cliEntry(), 'proxy', '--policy', policyFile, '--records', records, '--', 'node', '-e', ''],
        { stdio: ['pipe', 'ignore', 'pipe'] },
      );
      const stderr: Buffer[] = [];
      child.stderr.on('data', (c: Buffer) => stderr.push(c));
      await new Promise((resolve) => child.on('exit', resolve));
      expect(Buffer.concat(stderr).toString()).toContain('cannot write records');
      if (label.startsWith('a symlink')) expect(readFileSync(`${records}.target`, 'utf8')).toBe('keep\n');
    });
});
