import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { runProxy } from '../../src/proxy/run-proxy.ts';
import { tsServer } from '../e2e/run-probe.ts';
import { repoRoot } from '../sdk/fake-gate.ts';
import { processEnv, shippedPolicy } from './proxy-helpers.ts';
import { waitUntil } from '../helpers/wait-until.ts';

/** Chunks of a flood and the size of each, bytes: 32 MiB in all, far more than the proxy may hold. */
const chunkCount = 2048;
const chunkBytes = 16 * 1024;
/** The most the proxy may hold for a peer that stopped reading, bytes. */
const heldBound = 2 * 1024 * 1024;
/** What the pipes and stream buffers between the server and the proxy may take beyond that, bytes. */
const pipeSlack = 1024 * 1024;

async function floodProxy(env: Record<string, string> = {}) {
  const toProxy = new PassThrough();
  const fromProxy = new PassThrough();
  const errors = new PassThrough();
  errors.resume();
  const [command, ...args] = tsServer('test/fixtures/servers/flood-server.ts');
  const exit = runProxy({
    gate: createGate(await loadPolicy(shippedPolicy('default'))),
    server: 'flood',
    mode: 'enforce',
    upstream: { kind: 'command', command: command as string, args },
    stdin: toProxy,
    stdout: fromProxy,
    stderr: errors,
    env: processEnv(env),
    cwd: repoRoot,
  });
  return { toProxy, fromProxy, exit };
}

// once bytes are held, polls `held` until it stops changing (the proxy stopped taking bytes) or passes the bound;
// returns the most seen
async function heldWhenStalled(held: () => number): Promise<number> {
  await waitUntil('bytes held', () => (held() === 0 ? undefined : true));
  let most = 0;
  let last = -1;
  for (let unchanged = 0; unchanged < 10 && most <= heldBound; ) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const now = held();
    most = Math.max(most, now);
    unchanged = now === last ? unchanged + 1 : 0;
    last = now;
  }
  return most;
}

// every line the host reads from now on, and a promise of the answer to `id`
function readLines(from: PassThrough, id: number) {
  const lines: string[] = [];
  let rest = '';
  from.setEncoding('utf8');
  const answered = new Promise<Record<string, unknown>>((resolve) => {
    from.on('data', (chunk: string) => {
      rest += chunk;
      for (let end = rest.indexOf('\n'); end !== -1; end = rest.indexOf('\n')) {
        const line = rest.slice(0, end);
        rest = rest.slice(end + 1);
        lines.push(line);
        const m = JSON.parse(line) as Record<string, unknown>;
        if (m['id'] === id) resolve(m);
      }
    });
  });
  return { lines, answered };
}

describe('backpressure', () => {
  test('when the host stops reading, the proxy stops reading the server', async () => {
    const progressFile = path.join(await mkdtemp(path.join(tmpdir(), 'linkgate-flood-')), 'progress');
    const p = await floodProxy({ FLOOD_PROGRESS: progressFile });
    p.toProxy.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'test/flood', params: { count: chunkCount, bytes: chunkBytes } })}\n`,
    );
    // the host reads nothing: what the proxy holds for it is what waits in its stdout
    const most = await heldWhenStalled(() => p.fromProxy.writableLength + p.fromProxy.readableLength);
    expect(most).toBeLessThanOrEqual(heldBound);
    // and the server had to wait: it handed out no more than the proxy holds plus what the pipes between them take,
    // so the flood is not sitting inside the proxy where `held` cannot see it
    const sentWhenStalled = Number(await readFile(progressFile, 'utf8'));
    expect(sentWhenStalled).toBeGreaterThan(0);
    expect(sentWhenStalled * chunkBytes).toBeLessThanOrEqual(heldBound + pipeSlack);
    // the host reads again: every chunk arrives, in order, then the answer
    const { lines, answered } = readLines(p.fromProxy, 1);
    expect((await answered)['result']).toEqual({ sent: chunkCount });
    const seqs = lines.slice(0, -1).map((l) => (JSON.parse(l) as { params: { seq: number } }).params.seq);
    expect(seqs).toEqual(Array.from({ length: chunkCount }, (_, i) => i));
    p.toProxy.end();
    expect(await p.exit).toBe(0);
  }, 120_000);

  test('when the server stops reading, the proxy stops reading the host', async () => {
    const gateFile = path.join(await mkdtemp(path.join(tmpdir(), 'linkgate-flood-')), 'open');
    const p = await floodProxy({ FLOOD_GATE: gateFile });
    const pad = 'p'.repeat(chunkBytes - 80);
    let written = 0;
    for (let seq = 0; seq < chunkCount; seq += 1) {
      const line = `${JSON.stringify({ jsonrpc: '2.0', method: 'test/chunk', params: { seq, pad } })}\n`;
      written += Buffer.byteLength(line);
      p.toProxy.write(line);
    }
    // what the proxy took from the host and could not pass on (the server reads nothing) is held in the proxy
    const most = await heldWhenStalled(() => written - p.toProxy.writableLength - p.toProxy.readableLength);
    expect(most).toBeLessThanOrEqual(heldBound);
    await writeFile(gateFile, '');
    const { answered } = readLines(p.fromProxy, 2);
    p.toProxy.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'test/count' })}\n`);
    expect((await answered)['result']).toEqual({ chunks: chunkCount });
    p.toProxy.end();
    expect(await p.exit).toBe(0);
  }, 120_000);
});
