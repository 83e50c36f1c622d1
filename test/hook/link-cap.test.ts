// The per-event link cap fails closed (issue 39 item 1): the hook state keeps at most `maxLinksPerEvent` links of one
// tool result or resource list. On main, 1024 padding links before `vault://keys/prod` made the state forget it, and
// a later read of it from another server was allowed (without the padding: `server.mismatch`). Now a link over the
// cap is withheld from the result, and the state keeps that it could not keep links of that server: a read of a uri
// it never kept, from another server, is judged as that server's link.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maxLinksPerEvent } from '../../src/hook/session-state.ts';
import { runCli } from '../helpers/run-cli.ts';
import { readRequested, resourcesListed, toolReturned } from './hook-events.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-linkcap-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const vault = 'vault://keys/prod';
const hook = (host: string, event: unknown) =>
  runCli(['hook', host, '--policy', 'policies/default.yaml', '--state', join(dir, 'state')], JSON.stringify(event));
const padding = (count: number) => Array.from({ length: count }, (_, i) => `guide://pad/${i}`);
const denyReason = (stdout: string): string => {
  const output = JSON.parse(stdout).hookSpecificOutput as Record<string, string>;
  expect(output['permissionDecision']).toBe('deny');
  return output['permissionDecisionReason'] ?? '';
};

describe('claude code: rendered links', () => {
  const returned = (pad: number) =>
    toolReturned('docs', 'get', [
      ...padding(pad).map((uri, i) => ({ type: 'text', text: `[Resource link: pad ${i}] ${uri}` })),
      { type: 'text', text: `[Resource link: key] ${vault}` },
    ]);

  it.each([0, maxLinksPerEvent])(
    'with %i padding links, a read from another server is server.mismatch',
    async (pad) => {
      const post = await hook('claude-code', returned(pad));
      expect(post.code, post.stderr).toBe(0);
      if (pad > 0) {
        // the link over the cap is withheld, the padding passes
        const output = JSON.parse(post.stdout).hookSpecificOutput.updatedToolOutput as { text: string }[];
        expect(output).toHaveLength(pad + 1);
        expect(output[pad]?.text).toMatch(/^linkgate withheld .*content\.too-many-items/);
        expect(output[0]?.text).toBe('[Resource link: pad 0] guide://pad/0');
      } else expect(post.stdout).toBe('');
      const read = await hook('claude-code', readRequested('other', vault));
      expect(denyReason(read.stdout)).toContain('server.mismatch');
      // the server that returned it still reads it
      expect((await hook('claude-code', readRequested('docs', vault, { toolUseId: 'toolu_2' }))).stdout).toBe('');
    },
  );

  it('a resource list over the cap: an entry it could not keep is not readable from another server', async () => {
    const entries = [...padding(maxLinksPerEvent), vault].map((uri) => ({ server: 'docs', uri, name: uri }));
    expect((await hook('claude-code', resourcesListed(entries))).code).toBe(0);
    expect(denyReason((await hook('claude-code', readRequested('other', vault))).stdout)).toContain('server.mismatch');
  });
});

describe('codex: native links', () => {
  const common = { session_id: 'c1', cwd: '/tmp', transcript_path: null, model: 'm', permission_mode: 'default' };
  const returned = (pad: number) => ({
    ...common,
    hook_event_name: 'PostToolUse',
    tool_name: 'mcp__docs__get',
    tool_input: {},
    tool_use_id: 'call_get',
    tool_response: {
      content: [...padding(pad), vault].map((uri) => ({ type: 'resource_link', uri, name: uri })),
    },
  });
  const read = (server: string) => ({
    ...common,
    hook_event_name: 'PreToolUse',
    tool_name: 'read_mcp_resource',
    tool_input: { server, uri: vault },
    tool_use_id: `call_read_${server}`,
  });

  it.each([0, maxLinksPerEvent])(
    'with %i padding links, a read from another server is server.mismatch',
    async (pad) => {
      const post = await hook('codex', returned(pad));
      expect(post.code, post.stderr).toBe(0);
      if (pad > 0) {
        const answer = JSON.parse(post.stdout) as { decision: string; reason: string };
        expect(answer.decision).toBe('block');
        expect(answer.reason.split('\n').at(-1)).toMatch(/^linkgate withheld .*content\.too-many-items/);
      }
      expect(denyReason((await hook('codex', read('other'))).stdout)).toContain('server.mismatch');
      expect((await hook('codex', read('docs'))).stdout).toBe('');
    },
  );
});
