// A records failure follows one setting, `onRecordError: 'withhold' | 'report'` (default withhold), in every front end
// (issue 39 item 4, issue 40 item 3): in enforce mode what the record is about is withheld, or passed on and reported;
// never dropped silently. The decorator over a real SDK client and a real stdio server; gateToolResult; the proxy
// session; the hook command.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { proxySession } from '../../src/proxy/proxy-session.ts';
import type { OnRecordError } from '../../src/record/record-error.ts';
import type { RecordSink } from '../../src/record/record-sink.ts';
import { gateToolResult } from '../../src/sdk/gate-tool-result.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { tsServer } from '../e2e/run-probe.ts';
import { hostileLinks } from '../fixtures/servers/hostile-server.ts';
import { runCli } from '../helpers/run-cli.ts';
import { memoryPeer } from '../proxy/memory-peers.ts';
import { shippedPolicy } from '../proxy/proxy-helpers.ts';

type Json = Record<string, unknown>;

const readme = 'demo://hostile/readme.txt';
const gate = async () => createGate(await loadPolicy(shippedPolicy('default')));

// a sink whose link records (and, when `discovered`, discovery records) cannot be written
function failingSink(discovered: boolean): RecordSink {
  const fail = async () => {
    throw new Error('no space left on device');
  };
  return discovered
    ? { write: fail, writeDiscovered: fail, close: async () => {} }
    : { write: fail, close: async () => {} };
}

async function decorated(options: {
  mode?: 'enforce' | 'observe';
  onRecordError?: OnRecordError;
  discovered?: boolean;
}) {
  const [command, ...args] = tsServer('test/fixtures/servers/hostile-server.ts');
  const stdio = new StdioClientTransport({ command: command as string, args, stderr: 'ignore' });
  const transport = gateTransport(stdio, {
    gate: await gate(),
    server: 'hostile',
    sink: failingSink(options.discovered === true),
    ...(options.mode === undefined ? {} : { mode: options.mode }),
    ...(options.onRecordError === undefined ? {} : { onRecordError: options.onRecordError }),
  });
  const client = new Client({ name: 'record-error-host', version: '1' });
  const heard: string[] = [];
  await client.connect(transport);
  client.onerror = (error) => heard.push(error.message);
  return { client, heard };
}

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'answered',
    (error: unknown) => (error as Error).message,
  );

describe('gateTransport over a real SDK client and stdio server', () => {
  test('enforce, default (withhold): a read whose record cannot be written is answered with the failure, and onerror hears it', async () => {
    const { client, heard } = await decorated({});
    // its `write` takes the tool result's discovery records too: that result is withheld first
    expect(await outcome(client.callTool({ name: 'links', arguments: {} }))).toMatch(/could not write the record/);
    expect(await outcome(client.readResource({ uri: readme }))).toMatch(
      /could not write the record, so it passes on none of it .*no space left on device/,
    );
    expect(heard).toContain('no space left on device');
    await client.close();
  }, 30_000);

  test('enforce, withhold: a tool result whose links cannot be recorded is not passed on', async () => {
    const { client } = await decorated({ discovered: true });
    expect(await outcome(client.callTool({ name: 'links', arguments: {} }))).toMatch(/could not write the record/);
    await client.close();
  }, 30_000);

  test('enforce, report: the read is answered and the failure is heard', async () => {
    const { client, heard } = await decorated({ onRecordError: 'report', discovered: true });
    await client.callTool({ name: 'links', arguments: {} });
    expect(await outcome(client.readResource({ uri: readme }))).toBe('answered');
    expect(heard.filter((m) => m === 'no space left on device').length).toBeGreaterThanOrEqual(2);
    await client.close();
  }, 30_000);

  test('observe: nothing is withheld, the failure is heard', async () => {
    const { client, heard } = await decorated({ mode: 'observe', discovered: true });
    await client.callTool({ name: 'links', arguments: {} });
    expect(await outcome(client.readResource({ uri: readme }))).toBe('answered');
    expect(heard).toContain('no space left on device');
    await client.close();
  }, 30_000);
});

describe('gateToolResult', () => {
  const reader = {
    async request() {
      return { contents: [{ uri: readme, mimeType: 'text/plain', text: 'hello' }] };
    },
  };
  const toolResult = { content: [{ type: 'resource_link', uri: readme, name: 'readme', mimeType: 'text/plain' }] };

  test('never rejects for a failing sink: withhold (default) returns none of the result, report returns it', async () => {
    const g = await gate();
    const withheld = await gateToolResult(reader, toolResult, { gate: g, sink: failingSink(false) });
    expect(withheld.recordError).toMatch(/no space left on device/);
    expect(withheld.content).toEqual([{ type: 'text', text: withheld.recordError }]);
    const reported = await gateToolResult(reader, toolResult, {
      gate: g,
      sink: failingSink(false),
      onRecordError: 'report',
    });
    expect(reported.recordError).toMatch(/no space left on device/);
    expect(reported.content.map((i) => i['type'])).toEqual(['resource_link', 'resource']);
    const written = await gateToolResult(reader, toolResult, { gate: g });
    expect(written.recordError).toBeNull();
  });
});

describe('the proxy session', () => {
  test.each([
    ['withhold', /could not write the record/],
    ['report', null],
  ] as const)('%s: a read whose record cannot be written', async (onRecordError, withheld) => {
    const host = memoryPeer();
    const server = memoryPeer();
    const warned: string[] = [];
    const session = proxySession(host.transport, server.transport, {
      gate: await gate(),
      server: 'hostile',
      sink: failingSink(false),
      onRecordError,
      warn: (m) => warned.push(m),
    });
    await session.start();
    host.deliver({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'links' } });
    await server.waitFor((m) => m['id'] === 1);
    server.deliver({ jsonrpc: '2.0', id: 1, result: { content: [...hostileLinks] } });
    await host.waitFor((m) => m['id'] === 1);
    host.deliver({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: readme } });
    await server.waitFor((m) => m['id'] === 2);
    server.deliver({
      jsonrpc: '2.0',
      id: 2,
      result: { contents: [{ uri: readme, mimeType: 'text/plain', text: 'hi' }] },
    });
    const answer = await host.waitFor((m) => m['id'] === 2);
    if (withheld === null) expect(answer['result']).toBeDefined();
    else expect(String((answer['error'] as Json | undefined)?.['message'])).toMatch(withheld);
    expect(warned).toContain('no space left on device');
  });
});

describe('linkgate hook', () => {
  const event = JSON.stringify({
    session_id: 's',
    transcript_path: '/dev/null',
    cwd: '/',
    hook_event_name: 'PreToolUse',
    tool_name: 'ReadMcpResourceTool',
    tool_input: { server: 'hostile', uri: readme },
  });

  test('withhold (default) fails the event closed; report answers as judged and says why on stderr', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-hook-record-error-'));
    // a folder where the records file should be: no record can be written
    const args = ['hook', 'claude-code', '--policy', shippedPolicy('default'), '--records', dir, '--state', dir];
    const withheld = await runCli(args, event);
    expect(withheld.code).toBe(2);
    expect(withheld.stderr).toMatch(/could not write the record/);
    const reported = await runCli([...args, '--on-record-error', 'report'], event);
    expect([reported.code, reported.stderr]).toEqual([
      0,
      expect.stringMatching(/linkgate hook: records: .*not a regular file/),
    ]);
  });
});
