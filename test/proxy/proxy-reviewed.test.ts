// `linkgate proxy --allowed-signers`: a policy whose review does not verify refuses every read and marks every link
// denied (policy.unreviewed), while everything it does not gate (initialize, tools/list, the tool call) is forwarded.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { reviewFolders } from '../helpers/ssh-keygen.ts';
import { demoServer, processEnv, proxyCommandLine } from './proxy-helpers.ts';

type Json = Record<string, unknown>;
const reviewFolder = reviewFolders();

async function session(
  policy: string,
  allowedSigners: string,
): Promise<{ answers: Map<number, Json>; stderr: string }> {
  const [command, ...args] = proxyCommandLine(['--policy', policy, '--allowed-signers', allowedSigners], demoServer);
  const child = spawn(command as string, args, { env: processEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  const answers = new Map<number, Json>();
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  let buffered = '';
  const wanted = [1, 2, 3, 4];
  const done = new Promise<void>((resolve) => {
    child.stdout.on('data', (c: Buffer) => {
      buffered += c.toString();
      for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
        const message = JSON.parse(buffered.slice(0, end)) as Json;
        buffered = buffered.slice(end + 1);
        if (typeof message['id'] === 'number') answers.set(message['id'], message);
        if (wanted.every((id) => answers.has(id))) resolve();
      }
    });
  });
  const send = (m: Json) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
  send({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  send({ method: 'notifications/initialized' });
  send({ id: 2, method: 'tools/list' });
  send({ id: 3, method: 'tools/call', params: { name: 'show-links', arguments: {} } });
  send({ id: 4, method: 'resources/read', params: { uri: 'demo://linkgate/guide.md' } });
  await done;
  child.stdin.end();
  await new Promise((resolve) => child.on('close', resolve));
  return { answers, stderr };
}

describe('linkgate proxy --allowed-signers', () => {
  it('verified: reads go through; loosened: every read refused and every link denied, the rest forwarded', async () => {
    const f = reviewFolder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const good = await session(f.policy, f.allowedSigners);
    expect(good.stderr).not.toContain('policy.unreviewed');
    expect(good.answers.get(4)).toHaveProperty('result.contents');

    f.loosen();
    const bad = await session(f.policy, f.allowedSigners);
    expect(bad.stderr).toMatch(/linkgate: policy\.unreviewed: signature 1: does not match these bytes/);
    expect(bad.answers.get(1)).toHaveProperty('result.serverInfo');
    expect((bad.answers.get(2) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
    const items = (bad.answers.get(3) as { result: { content: { type: string; _meta?: Json }[] } }).result.content;
    // every link is denied, so none is handed on as a link: each is a text item naming it, with the decision
    expect(items.filter((i) => i.type === 'resource_link')).toEqual([]);
    const links = items.filter((i) => i.type === 'text' && i._meta?.['io.linkgate/decision'] !== undefined);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      const decision = link._meta?.['io.linkgate/decision'] as { effect: string; reasons: unknown[] };
      expect(decision.effect).toBe('deny');
      expect(JSON.stringify(decision.reasons)).toContain('policy.unreviewed');
    }
    const read = bad.answers.get(4) as { error: { code: number; message: string } };
    expect(read.error.code).toBe(-32080);
    expect(read.error.message).toContain('policy.unreviewed');
  });
});
