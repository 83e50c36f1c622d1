// Red team, surviving links beside the refused one: a server that answers a refused link with its uri repeated
// elsewhere in the same result. Held before through the proxy and the decorator for JSON strings; open were
// `gateToolResult` (a JSON text's string, a prose text item and an embedded resource named by the uri all reached
// `content`), an embedded resource whose `uri` is the refused link's (proxy and decorator), and a prose text item in
// the hooks (Codex, Claude Code). Each now becomes the refused link's notice; what names an allowed link is left alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { gateToolResult } from '../../src/sdk/gate-tool-result.ts';
import { runCli } from '../helpers/run-cli.ts';
import { tsServerCommand } from '../real-host/fixture-process.ts';
import {
  call,
  closeAll,
  decorated,
  hostPath,
  link,
  metadata,
  onClose,
  policyFile,
  proxied,
  serverFile,
} from './scripted-host.ts';

afterEach(closeAll);

const safe = 'rt://docs/Guide.md';
const jsonProse = { type: 'text', text: JSON.stringify({ note: `see ${metadata} now` }) };
const prose = { type: 'text', text: `the credentials are at ${metadata} today` };
const named = { type: 'resource', resource: { uri: metadata, mimeType: 'text/plain', text: 'hello' } };
const allowedEmbedded = { type: 'resource', resource: { uri: safe, mimeType: 'text/plain', text: 'EMBEDDED-OK' } };

describe('red team, surviving beside the refused link: gateToolResult', () => {
  test('JSON text, prose and an embedded resource named by the uri become the notice; the rest is delivered', async () => {
    const [command, ...args] = tsServerCommand(serverFile) as [string, ...string[]];
    const client = new Client({ name: 'helper', version: '1' });
    await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
    onClose(() => client.close());
    const result = {
      content: [link(metadata), jsonProse, prose, named, allowedEmbedded, { type: 'text', text: `see ${safe}` }],
    };
    const raw = await client.callTool({ name: 'result', arguments: { result } });
    const gated = await gateToolResult(client, raw, { gate: createGate(await loadPolicy(policyFile)), server: 'a' });
    const got = JSON.stringify(gated.content);
    expect(got).not.toContain(hostPath);
    expect(got).toContain('EMBEDDED-OK');
    expect(got).toContain(`see ${safe}`);
  });
});

for (const [front, answer] of [
  ['proxy', async (result: unknown) => call((await proxied()).host, { result })],
  [
    'decorator',
    async (result: unknown) => (await decorated()).client.callTool({ name: 'result', arguments: { result } }),
  ],
] as const)
  test(`red team, surviving beside the refused link: an embedded resource named by its uri (${front})`, async () => {
    const got = JSON.stringify(await answer({ content: [link(metadata), named, allowedEmbedded] }));
    expect(got).not.toContain(hostPath);
    expect(got).toContain('EMBEDDED-OK');
  });

describe('red team, surviving beside the refused link: hooks', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const post = (response: unknown) => ({
    session_id: 's1',
    transcript_path: '/tmp/linkgate-no-such-session.jsonl',
    cwd: '/tmp',
    hook_event_name: 'PostToolUse',
    tool_name: 'mcp__fixture__links',
    tool_input: {},
    tool_response: response,
    tool_use_id: 'toolu_beside',
  });
  const cases: [string, unknown][] = [
    ['codex', { content: [link(metadata), prose, { type: 'text', text: `see ${safe}` }] }],
    [
      'claude-code',
      [{ type: 'text', text: `[Resource link: m] ${metadata}` }, prose, { type: 'text', text: `see ${safe}` }],
    ],
  ];
  for (const [host, response] of cases)
    test(`${host}: a prose text item naming the refused uri`, async () => {
      dir = mkdtempSync(join(tmpdir(), 'linkgate-redteam-beside-'));
      const args = ['hook', host, '--policy', 'policies/default.yaml', '--state', join(dir, 'state')];
      const run = await runCli(args, JSON.stringify(post(response)));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toBe('');
      expect(run.stdout).not.toContain(hostPath);
      expect(run.stdout).toContain(`see ${safe}`);
    });
});
