// Red team (issue 39, hidden-style round 10, added after the first landing). Order in the hooks: a host runs the hooks
// of parallel tool calls at once (one process each), so two post events of one session refuse two addresses at the same
// time; a later event naming either must still be withheld (a state written read-modify-write loses one). Adapters: the
// OpenAI Agents server's `readResource` of a refused uri and the read tool's answer for it: what the agent gets (an
// error's message included) must not spell the uri. The hook as its own process; a real SDK client over the real
// answering server for the adapter.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect } from 'vitest';
import { gatedAgentsServer } from '../../src/frameworks/openai-agents-server.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { hookArgs, hookScratch } from '../hook/hook-args.ts';
import { runHookProcess } from '../hook/hook-process.ts';
import { answeringServer } from './hidden-fronts.ts';
import { handed, postEvents } from './round10-hosts.ts';
import { closeAll, hostPath, link, metadata, policyFile, scratch, scriptedTransport } from './scripted-host.ts';
import { caseKeys } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

const hooks = hookScratch('linkgate-redteam-r10late-');

describe('red team, order (round 10): two post events of one session at once', () => {
  for (const [host, event] of postEvents)
    it(`concurrent refusals ${host}`)(
      `${host}: both refusals are remembered; a later event naming either is withheld`,
      { timeout: 120_000 },
      async () => {
        const run = (e: unknown) => runHookProcess(hookArgs(host, hooks.dir), JSON.stringify(e));
        const [a, b] = await Promise.all([
          run(event([['http://10.1.1.1/alpha-secret', 'a']], [], 'id_a')),
          run(event([['http://10.2.2.2/beta-secret', 'b']], [], 'id_b')),
        ]);
        expect(handed(a.stdout)).toContain('linkgate refused the link');
        expect(handed(b.stdout)).toContain('linkgate refused the link');
        for (const [address, id] of [
          ['http://10.1.1.1/alpha-secret', 'id_c'],
          ['http://10.2.2.2/beta-secret', 'id_d'],
        ] as const) {
          const later = event([], [`the keys: ${address}`], id);
          const out = await run(later);
          expect(out.code, out.stderr).toBe(0);
          const got = out.stdout.trim() === '' ? JSON.stringify(later) : handed(out.stdout);
          expect(got).not.toContain(address.slice(7));
        }
      },
    );
});

describe('red team, adapters (round 10): a refused read through the OpenAI Agents server', () => {
  it('agents refused read message')(
    'readResource of the metadata uri: refused, and what the agent gets does not spell it',
    { timeout: 60_000 },
    async () => {
      const server = gatedAgentsServer({
        name: 'a',
        client: new Client({ name: 'r10', version: '1' }),
        transport: scriptedTransport(path.join(await scratch(), 'r.jsonl'), answeringServer),
        gate: createGate(await loadPolicy(policyFile)),
        sink: callbackSink(() => {}),
      });
      await server.connect();
      const got = await server.readResource(metadata).then(
        (r) => JSON.stringify(r),
        (e: unknown) => (e instanceof Error ? `${e.message} ${JSON.stringify(e)}` : String(e)),
      );
      await server.callTool('result', { result: { content: [link(metadata, 'creds')] } });
      const read = await server.readLink(metadata);
      await server.close();
      expect(got).toContain('linkgate');
      expect(got).not.toContain(hostPath);
      expect(read).not.toContain(hostPath);
    },
  );
});
