// The resident hook with the real Claude Code (issue 42 item 3), offline: the set-up `linkgate resident claude-code
// --print-config` prints (the HTTP hook before a read, the command hook and the HTTP hook after a tool), the server
// started as root on a privileged port and running as `nobody` for a gated uid. A refused read is blocked through the
// HTTP hook; with the server down, and with a wrong secret, every read is blocked (`onFailure: "block"`), and the
// fixture server is never asked. (Claude Code itself runs as root here: its test install lives under /root; the user
// separation is tested in test/resident/resident-server.test.ts.)
import { chmod, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  canStartAsRoot,
  freePrivilegedPort,
  gatedUid,
  printConfig,
  type ResidentProcess,
  startResidentProcess,
} from '../resident/resident-process.ts';
import { installClaudeCode, runClaudeCode } from './claude-code.ts';
import { fixtureServer, serverReads } from './fixture-process.ts';
import { fixtureNamed } from './fixture-resources.ts';
import { builtCli, realHostSuite } from './host-suite.ts';

const host = realHostSuite('claude code', () => installClaudeCode());
builtCli();

const { readme, metadata } = fixtureNamed;
const read = (id: string, uri: string) => ({
  toolUses: [{ id, name: 'ReadMcpResourceTool', input: { server: 'fixture', uri } }],
});

let server: ResidentProcess | undefined;
afterAll(async () => {
  await server?.stop();
});

/** The printed settings for a server on `port`, the command hook writing its records to `records`. */
async function printedSettings(port: number, records: string): Promise<Record<string, unknown>> {
  const printed = await printConfig(port, gatedUid, '--user', 'nobody', '--records', records);
  expect(printed.code, printed.stderr).toBe(0);
  return JSON.parse(printed.stdout) as Record<string, unknown>;
}

async function runWith(settings: Record<string, unknown>, secret: string, requestLog: string) {
  const run = await runClaudeCode({
    mcpServers: { fixture: fixtureServer(requestLog) },
    settings,
    env: { LINKGATE_RESIDENT_SECRET: secret },
    prompt: 'read the links of the fixture server',
    script: [
      { toolUses: [{ id: 'toolu_links', name: 'mcp__fixture__links', input: {} }] },
      read('toolu_metadata', metadata.uri),
      read('toolu_readme', readme.uri),
      { text: 'done' },
    ],
    allowedTools: ['mcp__fixture__links', 'ReadMcpResourceTool'],
    timeoutMs: 150_000,
  });
  host.defer(() => run.cleanup());
  expect(run.timedOut, run.stderr).toBe(false);
  const text = (id: string) => JSON.stringify(run.toolResults[id] ?? null);
  return { run, text };
}

describe.runIf(canStartAsRoot || process.env['CI'] === 'true')('claude code with the resident hook', () => {
  test('a refused read is blocked through the http hook; an allowed one is read', { timeout: 240_000 }, async (ctx) => {
    host.require(ctx);
    const dir = await host.scratch('linkgate-resident-');
    // the service user writes its records here
    await chmod(dir, 0o777);
    const port = await freePrivilegedPort();
    server = await startResidentProcess(port, dir, ['--records', path.join(dir, 'resident.jsonl')]);
    const settings = await printedSettings(port, path.join(dir, 'hook.jsonl'));
    const requestLog = path.join(dir, 'requests.jsonl');
    const { run, text } = await runWith(settings, server.secret, requestLog);
    console.log(`claude code, resident hook up: ${run.elapsedMs} ms; metadata ${text('toolu_metadata').slice(0, 300)}`);
    const reads = await serverReads(requestLog);
    expect(reads).not.toContain(metadata.uri);
    expect(reads).toContain(readme.uri);
    expect(text('toolu_metadata')).toContain('linkgate refused to read');
    expect(text('toolu_metadata')).toContain('uri.non-public-address');
    expect(text('toolu_readme')).toContain(readme.marker);
    // the server decided the refusal and recorded it, as the service user
    expect(await readFile(path.join(dir, 'resident.jsonl'), 'utf8')).toContain('uri.non-public-address');
  });

  // a handler runs by its `type` (docs/doctor.md): an http entry that also carries a `command` posts, and runs nothing
  test('an http entry that also carries a command posts to the server and runs no command', {
    timeout: 240_000,
  }, async (ctx) => {
    host.require(ctx);
    const dir = await host.scratch('linkgate-resident-typed-');
    await chmod(dir, 0o777);
    const port = await freePrivilegedPort();
    const own = await startResidentProcess(port, dir, ['--records', path.join(dir, 'resident.jsonl')]);
    host.defer(async () => void (await own.stop()));
    const settings = await printedSettings(port, path.join(dir, 'hook.jsonl'));
    const marker = path.join(dir, 'command-ran');
    const hooks = settings['hooks'] as Record<string, { hooks: Record<string, unknown>[] }[]>;
    for (const group of hooks['PreToolUse'] ?? [])
      for (const handler of group.hooks) handler['command'] = `touch ${marker}`;
    const requestLog = path.join(dir, 'requests.jsonl');
    const { run, text } = await runWith(settings, own.secret, requestLog);
    console.log(
      `claude code, http entry with a command: ${run.elapsedMs} ms; metadata ${text('toolu_metadata').slice(0, 300)}`,
    );
    expect(await serverReads(requestLog)).not.toContain(metadata.uri);
    expect(text('toolu_metadata')).toContain('linkgate refused to read');
    expect(await readFile(path.join(dir, 'resident.jsonl'), 'utf8')).toContain('uri.non-public-address');
    await expect(readFile(marker)).rejects.toThrow(/ENOENT/);
  });

  test('a wrong secret blocks every read', { timeout: 240_000 }, async (ctx) => {
    host.require(ctx);
    if (server === undefined) throw new Error('the server did not start');
    const dir = await host.scratch('linkgate-resident-secret-');
    const settings = await printedSettings(server.port, path.join(dir, 'hook.jsonl'));
    const requestLog = path.join(dir, 'requests.jsonl');
    const { run, text } = await runWith(settings, `${server.secret}-not`, requestLog);
    console.log(`claude code, wrong secret: ${run.elapsedMs} ms; readme ${text('toolu_readme').slice(0, 300)}`);
    expect(await serverReads(requestLog)).toEqual([]);
    expect(text('toolu_readme')).toContain('"is_error":true');
    expect(text('toolu_readme')).toContain('HTTP 401');
    expect(text('toolu_readme')).not.toContain(readme.marker);
  });

  test('the server down blocks every read', { timeout: 240_000 }, async (ctx) => {
    host.require(ctx);
    if (server === undefined) throw new Error('the server did not start');
    const { port, secret } = server;
    expect(await server.stop()).toBe(0);
    server = undefined;
    const dir = await host.scratch('linkgate-resident-down-');
    const settings = await printedSettings(port, path.join(dir, 'hook.jsonl'));
    const requestLog = path.join(dir, 'requests.jsonl');
    const { run, text } = await runWith(settings, secret, requestLog);
    console.log(`claude code, server down: ${run.elapsedMs} ms; readme ${text('toolu_readme').slice(0, 300)}`);
    expect(await serverReads(requestLog)).toEqual([]);
    expect(text('toolu_readme')).toContain('"is_error":true');
    expect(text('toolu_readme')).toContain('onFailure is \\"block\\"');
    expect(text('toolu_readme')).not.toContain(readme.marker);
  });
});
