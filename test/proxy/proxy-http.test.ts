import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { stringify } from 'yaml';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { connectionByteCap } from '../../src/sdk/connection-byte-cap.ts';
import { decisionMetaKey, gateErrorCode } from '../../src/sdk/gate-transport.ts';
import { repoRoot } from '../sdk/fake-gate.ts';
import { type LoggingServer, okText, startMcpHttpServer, startOtherServer } from './http-test-server.ts';
import { processEnv, shippedPolicy } from './proxy-helpers.ts';
import { initialize, startRawHost } from './raw-host.ts';

type Json = Record<string, unknown>;

const token = 'Bearer t0k-only-for-the-mcp-origin';
/** `read.maxBytes` of the test policy, bytes: the byte cap per response is this as base64 plus the framing slack. */
const maxReadBytes = 3 * 1024;

const started: LoggingServer[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.close();
});

// the shipped default with the local servers' origins exempt from the address rules, as a test host must be
async function policyAllowing(origins: readonly string[]): Promise<string> {
  const { parse } = await import('yaml');
  const doc = parse(await readFile(shippedPolicy('default'), 'utf8')) as { links: Json; read: Json };
  doc.links = { ...doc.links, allowNonPublicOrigins: [...origins] };
  doc.read = { ...doc.read, maxBytes: maxReadBytes, readTimeoutMs: 5000 };
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'linkgate-proxy-http-')), 'policy.yaml');
  await writeFile(file, stringify(doc));
  return file;
}

async function servers(responses: 'sse' | 'json') {
  const other = await startOtherServer();
  const mcp = await startMcpHttpServer(responses, () => `${other.origin}/mcp`);
  started.push(mcp, other);
  return { mcp, other };
}

const cli = (args: readonly string[]) =>
  [process.execPath, '--import', 'tsx', path.join(repoRoot, 'src/cli/main.ts'), 'proxy', ...args] as const;

describe.each(['sse', 'json'] as const)('linkgate proxy --url (Streamable HTTP, %s responses)', (responses) => {
  test('the real SDK client gets tools, resources and prompts through the proxy; gated reads as on stdio', async () => {
    const { mcp, other } = await servers(responses);
    const policy = await policyAllowing([mcp.origin, other.origin]);
    const [command, ...args] = cli([
      '--policy',
      policy,
      '--server',
      'remote',
      '--url',
      `${mcp.origin}/mcp`,
      '--header',
      'Authorization=${MCP_TEST_TOKEN}',
    ]);
    const client = new Client({ name: 'http-proxy-host', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command,
        args,
        env: processEnv({ MCP_TEST_TOKEN: token }),
        stderr: 'ignore',
      }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'links', 'big', 'embedded']);
      const echo = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(echo).toEqual({
        content: [{ type: 'text', text: 'hi' }],
        structuredContent: { text: 'hi' },
        _meta: { 'test/echo': true },
      });
      expect((await client.getPrompt({ name: 'greet', arguments: { name: 'ann' } })).messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'hello ann' } },
      ]);
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([
        'test://doc/ok',
        'test://doc/script',
      ]);
      expect((await client.readResource({ uri: 'test://doc/ok' })).contents).toEqual([
        { uri: 'test://doc/ok', mimeType: 'text/plain', text: okText },
      ]);
      const script = await client.readResource({ uri: 'test://doc/script' }).catch((e: unknown) => e);
      expect(script).toBeInstanceOf(McpError);
      expect((script as McpError).code).toBe(gateErrorCode);
      expect((script as McpError).message).toContain('content.executable');
      // the embedded script is withheld; the text beside it passes
      const embedded = (await client.callTool({ name: 'embedded' })) as { content: Json[] };
      expect(embedded.content[0]).toEqual({ type: 'text', text: 'a script follows' });
      expect(embedded.content[1]?.['type']).toBe('text');
      expect(String(embedded.content[1]?.['text'])).toContain('content.executable');
      await client.ping();
    } finally {
      await client.close();
    }
    // every request reached the mcp origin with the header; the other origin was never asked
    const posts = mcp.log.filter((r) => r.method === 'POST');
    expect(posts.length).toBeGreaterThan(8);
    expect(mcp.log.every((r) => r.authorization === token)).toBe(true);
    expect(posts.flatMap((r) => r.rpc)).toEqual(expect.arrayContaining(['initialize', 'tools/call', 'prompts/get']));
    expect(other.log).toEqual([]);
  }, 60_000);

  test('a link to another local origin is judged, never fetched: the read goes to the mcp origin only', async () => {
    const { mcp, other } = await servers(responses);
    // the other origin is exempt too, so its link is allowed and read (through the server, as every link is)
    const gate = createGate(await loadPolicy(await policyAllowing([mcp.origin, other.origin])));
    const host = startRawHost(gate, { kind: 'url', url: `${mcp.origin}/mcp`, headers: [['Authorization', token]] });
    await initialize(host);
    const linkTo = `${other.origin}/secret.txt`;
    const links = await host.request('tools/call', { name: 'links', arguments: { linkTo } });
    const items = (links['result'] as { content: Json[] }).content;
    expect(items.map((i) => (i['_meta'] as Json)[decisionMetaKey])).toEqual([{ effect: 'allow' }, { effect: 'allow' }]);
    const read = await host.request('resources/read', { uri: linkTo });
    // the mcp server does not know the uri: its own error passes to the host
    expect((read['error'] as Json | undefined)?.['code']).toBe(-32602);
    expect(mcp.log.some((r) => r.rpc.includes('resources/read'))).toBe(true);
    expect(mcp.log.every((r) => r.authorization === token)).toBe(true);
    expect(other.log).toEqual([]);
    host.end();
    expect(await host.exit).toBe(0);
  }, 30_000);

  test('redirects: same origin followed with the header, another origin refused before it is sent', async () => {
    const { mcp, other } = await servers(responses);
    const gate = createGate(await loadPolicy(await policyAllowing([mcp.origin, other.origin])));
    const same = startRawHost(gate, { kind: 'url', url: `${mcp.origin}/same`, headers: [['Authorization', token]] });
    await initialize(same);
    expect((await same.request('tools/call', { name: 'echo', arguments: { text: 'via 307' } }))['result']).toEqual({
      content: [{ type: 'text', text: 'via 307' }],
      structuredContent: { text: 'via 307' },
      _meta: { 'test/echo': true },
    });
    same.end();
    expect(await same.exit).toBe(0);
    expect(mcp.log.filter((r) => r.path === '/same').length).toBeGreaterThan(0);
    expect(mcp.log.every((r) => r.authorization === token)).toBe(true);

    const away = startRawHost(gate, {
      kind: 'url',
      url: `${mcp.origin}/elsewhere`,
      headers: [['Authorization', token]],
    });
    const answer = await away.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw-host', version: '1.0.0' },
    });
    expect(answer['error']).toMatchObject({
      code: gateErrorCode,
      message: expect.stringContaining(`not the origin \`${mcp.origin}\``),
    });
    away.end();
    await away.exit;
    expect(other.log).toEqual([]);
  }, 30_000);

  test('a response over the byte cap fails that request only; the session goes on', async () => {
    const { mcp } = await servers(responses);
    const policy = await loadPolicy(await policyAllowing([mcp.origin]));
    const cap = connectionByteCap(policy);
    const host = startRawHost(createGate(policy), { kind: 'url', url: `${mcp.origin}/mcp`, headers: [] });
    await initialize(host);
    const under = await host.request('tools/call', { name: 'big', arguments: { bytes: cap - 4096 } });
    expect(((under['result'] as { content: Json[] }).content[0]?.['text'] as string).length).toBe(cap - 4096);
    const over = await host.request('tools/call', { name: 'big', arguments: { bytes: cap + 1 } });
    expect(over['error']).toMatchObject({ code: gateErrorCode, message: expect.stringContaining('byte cap') });
    expect(over['result']).toBeUndefined();
    const echo = await host.request('tools/call', { name: 'echo', arguments: { text: 'still here' } });
    expect((echo['result'] as { content: Json[] }).content).toEqual([{ type: 'text', text: 'still here' }]);
    host.end();
    expect(await host.exit).toBe(0);
  }, 30_000);
});

describe('linkgate proxy --url is checked by the link rules before anything is sent', () => {
  test.each([
    ['another loopback origin', (other: string) => `${other}/mcp`, '`links.denyNonPublicAddresses`'],
    ['userinfo', (other: string) => other.replace('http://', 'http://u:p@'), '`links.userinfo`'],
    ['a cloud metadata address', () => 'http://169.254.169.254/mcp', '`links.denyNonPublicAddresses`'],
  ])(
    '%s: the proxy refuses to start, naming the rule',
    async (_what, url, rule) => {
      const { mcp, other } = await servers('json');
      const policy = await policyAllowing([mcp.origin]);
      const [command, ...args] = cli(['--policy', policy, '--url', url(other.origin)]);
      const run = await promisify(execFile)(command, args, { env: processEnv() }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('is denied by the policy');
      expect(run.stderr).toContain(rule);
      expect(other.log).toEqual([]);
      expect(mcp.log).toEqual([]);
    },
    30_000,
  );
});
