// The proxy's own shutdown (issue: a loaded machine turned `echo … | linkgate proxy …` into exit 143): when the host
// closes, the server's stdin is closed, then SIGTERM, then SIGKILL follow (the MCP stdio transport's sequence). A
// server that only SIGTERM ends was shut down the normal way: exit 0. One that needed SIGKILL is reported
// (proxy-hostile.test.ts).
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { runProxy } from '../../src/proxy/run-proxy.ts';
import { repoRoot } from '../sdk/fake-gate.ts';
import { processEnv, shippedPolicy } from './proxy-helpers.ts';

// answers `initialize`, then keeps running after its stdin closes; SIGTERM ends it as node does by default
const lingering = `
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  for (const line of chunk.split('\\n').filter(Boolean)) {
    const m = JSON.parse(line);
    if (m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'lingering', version: '1' } } }) + '\\n');
  }
});
process.stdin.on('end', () => process.stderr.write('stdin closed, staying\\n'));
setInterval(() => {}, 1000);
`;

describe('the proxy shutting its server down', () => {
  test('a server that keeps running after its stdin closes is ended by SIGTERM, and the proxy exits 0', async () => {
    const toProxy = new PassThrough();
    const fromProxy = new PassThrough();
    const errors = new PassThrough();
    let stderr = '';
    errors.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const answered = new Promise<void>((resolve) => fromProxy.once('data', () => resolve()));
    const exit = runProxy({
      gate: createGate(await loadPolicy(shippedPolicy('default'))),
      server: 'lingering',
      mode: 'enforce',
      upstream: { kind: 'command', command: process.execPath, args: ['-e', lingering] },
      stdin: toProxy,
      stdout: fromProxy,
      stderr: errors,
      env: processEnv(),
      cwd: repoRoot,
    });
    toProxy.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    await answered;
    toProxy.end();
    expect(await exit).toBe(0);
    expect(stderr).toContain('stdin closed, staying');
  }, 60_000);
});
