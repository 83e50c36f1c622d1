// `linkgate hook cline` on the events Cline 3.0.65 hands its hook files (recorded from the real binary:
// test/real-host/observed/cline/), on the file-style events of its VS Code extension, and on failures: every deny or
// withholding is `cancel: true`, since Cline can neither edit a result nor reads an exit code.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clineHost } from '../../src/hook/cline-host.ts';
import { clineToolName } from '../../src/hosts/cline.ts';
import { runCli } from '../helpers/run-cli.ts';

const observed = JSON.parse(
  readFileSync(join(import.meta.dirname, '../real-host/observed/cline/hook-events.json'), 'utf8'),
) as { PreToolUse: Record<string, unknown>; PostToolUse: Record<string, unknown> };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-cline-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function hook(event: unknown, policy = 'policies/default.yaml') {
  return runCli(['hook', 'cline', '--policy', policy, '--state', join(dir, 'state')], JSON.stringify(event));
}

// the observed post event, with `tool_result.output` (and the string `postToolUse.result`) holding `content`
function returned(content: unknown[]) {
  const post = structuredClone(observed.PostToolUse);
  (post['tool_result'] as Record<string, unknown>)['output'] = { content };
  (post['postToolUse'] as Record<string, unknown>)['result'] = JSON.stringify({ content });
  return post;
}

const cancelOf = (stdout: string) => JSON.parse(stdout) as { cancel: boolean; errorMessage: string };

describe('linkgate hook cline', () => {
  it('lets the observed links tool run and says nothing for a result of allowed links only', async () => {
    expect(await hook(observed.PreToolUse)).toMatchObject({ code: 0, stdout: '' });
    const run = await hook(returned([{ type: 'resource_link', uri: 'guide://a', name: 'a' }]));
    expect(run).toMatchObject({ code: 0, stdout: '' });
  });

  it('cancels the task for the observed result, which holds a metadata-address link', async () => {
    const run = await hook(observed.PostToolUse);
    expect(run.code).toBe(0);
    const answer = cancelOf(run.stdout);
    expect(answer.cancel).toBe(true);
    expect(answer.errorMessage).toContain('uri.non-public-address');
    // the notice names the link, never its uri
    expect(answer.errorMessage).not.toContain('169.254.169.254');
  });

  it('cancels the task for an embedded executable', async () => {
    const body = Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1').toString('base64');
    const run = await hook(
      returned([{ type: 'resource', resource: { uri: 'guide://x', mimeType: 'image/png', blob: body } }]),
    );
    expect(cancelOf(run.stdout).cancel).toBe(true);
  });

  it('refuses a fetch_web_content of a metadata address before it runs', async () => {
    const pre = structuredClone(observed.PreToolUse);
    const input = {
      requests: [
        { url: 'https://example.com/', prompt: 'a' },
        { url: 'http://169.254.169.254/', prompt: 'b' },
      ],
    };
    pre['tool_call'] = { id: 'call_fetch', name: 'fetch_web_content', input };
    pre['preToolUse'] = { toolName: 'fetch_web_content', parameters: { requests: JSON.stringify(input.requests) } };
    const answer = cancelOf((await hook(pre)).stdout);
    expect(answer).toMatchObject({ cancel: true });
    expect(answer.errorMessage).toContain('uri.non-public-address');
  });

  it('reads the file-style events of the VS Code extension: access_mcp_resource before the read', async () => {
    const event = {
      clineVersion: '3.20.0',
      hookName: 'PreToolUse',
      timestamp: '1',
      taskId: 't1',
      workspaceRoots: [],
      userId: 'u',
      preToolUse: { toolName: 'access_mcp_resource', parameters: { server_name: 'docs', uri: 'file:///etc/passwd' } },
    };
    expect(clineHost.parse(event)?.call).toEqual({ kind: 'read', server: 'docs', uri: 'file:///etc/passwd' });
    const answer = cancelOf((await hook(event)).stdout);
    expect(answer.cancel).toBe(true);
    expect(answer.errorMessage).toContain('uri.');
  });

  it('answers cancel, not an exit code cline would ignore, when the hook cannot judge the event', async () => {
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'id: [unclosed\n');
    for (const event of [observed.PreToolUse, observed.PostToolUse]) {
      const run = await hook(event, broken);
      expect(run.code).toBe(0);
      expect(cancelOf(run.stdout)).toMatchObject({ cancel: true });
    }
    const garbage = await runCli(['hook', 'cline', '--policy', 'policies/default.yaml'], '{not json');
    expect(cancelOf(garbage.stdout).cancel).toBe(true);
  });

  it('names tools as cline does: `<server>__<tool>`, hashed past 64 characters or with other characters', () => {
    expect(clineToolName('fixture', 'links')).toBe('fixture__links');
    expect(clineToolName('my server', 'get.it')).toMatch(/^my_server__get_it_[0-9a-f]{8}$/);
    expect(clineToolName('s', 'x'.repeat(70))).toHaveLength(64);
    expect(clineHost.parse(observed.PreToolUse)?.call).toEqual({ kind: 'mcp', server: 'fx', tool: 'links' });
  });
});
