import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { processesWith, tsServer } from '../e2e/run-probe.ts';
import { wireServerFile } from '../reliability/wire-harness.ts';
import { processEnv, proxyCommandLine, shippedPolicy } from './proxy-helpers.ts';
import { waitUntil } from '../helpers/wait-until.ts';

// the proxy as a host starts it: its own process, stdio piped, a line of JSON-RPC each way
function startProxy(server: readonly string[], options: readonly string[] = []) {
  const [command, ...args] = proxyCommandLine(['--policy', shippedPolicy('default'), ...options], server);
  const child = spawn(command as string, args, { stdio: ['pipe', 'pipe', 'pipe'], env: processEnv() });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const answered = (id: number) =>
    waitUntil(`the answer to ${id}`, () => {
      if (out.split('\n').some((l) => l.includes(`"id":${id}`))) return true;
      if (child.exitCode !== null) throw new Error(`proxy exited: ${err}`);
      return undefined;
    });
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  return { child, exited, answered, send, stderr: () => err };
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'signal-host', version: '1' } },
};

describe('the proxy process', () => {
  test.each(['SIGTERM', 'SIGINT'] as const)(
    'passes %s to the server and exits with the server’s status',
    async (signal) => {
      const marker = `proxy-signal-${randomUUID()}`;
      const proxy = startProxy(tsServer(wireServerFile, marker));
      proxy.send(initialize);
      await proxy.answered(1);
      // the proxy's own command line names the marker too
      expect(processesWith(marker).filter((pid) => pid !== proxy.child.pid)).toHaveLength(1);
      proxy.child.kill(signal);
      const [code] = await proxy.exited;
      // the wire server has no handler for either signal, so the signal ends it: 128 + its number
      expect(code).toBe(signal === 'SIGTERM' ? 143 : 130);
      expect(processesWith(marker)).toEqual([]);
    },
    30_000,
  );

  test('exits 0 with the server when the host closes its stdin', async () => {
    const marker = `proxy-close-${randomUUID()}`;
    const proxy = startProxy(tsServer(wireServerFile, marker));
    proxy.send(initialize);
    await proxy.answered(1);
    proxy.child.stdin.end();
    expect((await proxy.exited)[0]).toBe(0);
    expect(processesWith(marker)).toEqual([]);
  }, 30_000);

  test('a host that sends its last request and closes stdin at once still gets the answer', async () => {
    const marker = `proxy-last-${randomUUID()}`;
    const proxy = startProxy(tsServer(wireServerFile, marker));
    proxy.send(initialize);
    proxy.child.stdin.end();
    expect((await proxy.exited)[0]).toBe(0);
    await proxy.answered(1);
    expect(proxy.stderr()).not.toContain('cannot write to the host');
  }, 30_000);

  test('a command that cannot be started is a usage error (exit 2) naming it', async () => {
    const proxy = startProxy(['/nonexistent/linkgate-no-such-server']);
    expect((await proxy.exited)[0]).toBe(2);
    expect(proxy.stderr()).toContain('linkgate: cannot start `/nonexistent/linkgate-no-such-server`: ENOENT');
  }, 30_000);
});
