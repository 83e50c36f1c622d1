// What the hook cannot recognise is withheld, and what a host hands the model is what the hook judges (issue 39
// items 1, 2). On main: Codex's hook never looked at `structuredContent`, which Codex gives the model in place of the
// result's items, so a link there was neither judged nor kept for the same-server check; a read or tool result of an
// unknown `resultType` passed unjudged; and a tool output of a shape the hook did not know passed as it was.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { toolReturned } from './hook-events.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-shapes-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const metadata = 'http://169.254.169.254/latest/meta-data';
const hook = (host: string, event: unknown) =>
  runCli(['hook', host, '--policy', 'policies/default.yaml', '--state', join(dir, 'state')], JSON.stringify(event));

const codex = { session_id: 'c1', cwd: '/tmp', transcript_path: null, model: 'm', permission_mode: 'default' };
const codexTool = (response: unknown) => ({
  ...codex,
  hook_event_name: 'PostToolUse',
  tool_name: 'mcp__docs__get',
  tool_input: {},
  tool_use_id: 'call_get',
  tool_response: response,
});
const codexRead = (phase: 'PreToolUse' | 'PostToolUse', server: string, uri: string, response?: unknown) => ({
  ...codex,
  hook_event_name: phase,
  tool_name: 'read_mcp_resource',
  tool_input: { server, uri },
  tool_use_id: `call_read_${server}`,
  ...(response === undefined ? {} : { tool_response: JSON.stringify(response) }),
});
const block = (stdout: string) => {
  const answer = JSON.parse(stdout) as { decision: string; reason: string };
  expect(answer.decision).toBe('block');
  return answer.reason;
};

describe('codex: structuredContent is what the model reads', () => {
  it('a refused link in structuredContent is replaced there, the rest kept; the model is given structuredContent', async () => {
    const ok = { type: 'resource_link', uri: 'guide://ok', name: 'ok' };
    const structuredContent = { links: [{ type: 'resource_link', uri: metadata, name: 'metadata' }, ok], n: 2 };
    const run = await hook('codex', codexTool({ content: [{ type: 'text', text: 'two links' }], structuredContent }));
    expect(run.code, run.stderr).toBe(0);
    const shown = JSON.parse(block(run.stdout)) as { links: unknown[]; n: number };
    expect(shown.n).toBe(2);
    expect(shown.links[0]).toEqual({
      type: 'text',
      text: expect.stringMatching(/^linkgate refused the link .*uri\.non-public-address/),
    });
    expect(shown.links[1]).toEqual(ok);
  });

  it('a link given in structuredContent is kept for the same-server check', async () => {
    const structuredContent = { key: { type: 'resource_link', uri: 'vault://keys/prod', name: 'key' } };
    expect((await hook('codex', codexTool({ content: [], structuredContent }))).stdout).toBe('');
    const other = await hook('codex', codexRead('PreToolUse', 'other', 'vault://keys/prod'));
    expect(JSON.parse(other.stdout).hookSpecificOutput.permissionDecisionReason).toContain('server.mismatch');
  });

  it('a read of an unknown resultType is withheld (read.result-type-unknown)', async () => {
    const uri = 'guide://teleport';
    const contents = [{ uri, mimeType: 'text/plain', text: 'TELEPORT-BODY' }];
    const run = await hook(
      'codex',
      codexRead('PostToolUse', 'docs', uri, { server: 'docs', uri, contents, resultType: 'teleport' }),
    );
    const reason = block(run.stdout);
    expect(reason).toContain('read.result-type-unknown');
    expect(reason).not.toContain('TELEPORT-BODY');
  });

  it('a tool result of an unknown resultType is withheld whole', async () => {
    const run = await hook(
      'codex',
      codexTool({ content: [{ type: 'text', text: 'TELEPORT-BODY' }], resultType: 'teleport' }),
    );
    const reason = block(run.stdout);
    expect(reason).toMatch(/^linkgate withheld the result of tool `get`: read\.result-type-unknown/);
    expect(reason).not.toContain('TELEPORT-BODY');
  });
});

describe('claude code: a tool output of a shape the hook does not know is withheld', () => {
  it.each([
    ['an object with no content', { weird: 'SECRET-BODY' }],
    ['a number', 42],
    ['null', null],
  ])('%s', async (_name, response) => {
    const run = await hook('claude-code', { ...toolReturned('docs', 'get', []), tool_response: response });
    expect(run.code, run.stderr).toBe(0);
    const output = JSON.parse(run.stdout).hookSpecificOutput.updatedToolOutput as { text: string }[];
    expect(output).toEqual([
      { type: 'text', text: expect.stringMatching(/^linkgate withheld the result of tool `get`: content\.shape/) },
    ]);
  });

  it('a plain string is the text the model reads: judged as one text item', async () => {
    const plain = await hook('claude-code', { ...toolReturned('docs', 'get', []), tool_response: 'plain words' });
    expect(plain.stdout).toBe('');
    const link = `[Resource link: m] ${metadata}`;
    const refused = await hook('claude-code', { ...toolReturned('docs', 'get', []), tool_response: link });
    const output = JSON.parse(refused.stdout).hookSpecificOutput.updatedToolOutput as { text: string }[];
    expect(output).toEqual([{ type: 'text', text: expect.stringMatching(/^linkgate refused the link/) }]);
  });
});
