import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-cursor-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function hook(event: unknown) {
  return runCli(
    ['hook', 'cursor', '--policy', 'policies/default.yaml', '--state', join(dir, 'state')],
    JSON.stringify(event),
  );
}

// field names from the research note §1.4 (secondary sources: conversation_id, generation_id, tool_input as a JSON
// string in some versions, result_json after an MCP call, `MCP:<server>:<tool>` in the generic tool events)
const common = { conversation_id: 'c1', generation_id: 'g1', workspace_roots: ['/tmp'], cursor_version: '1.7.0' };

describe('linkgate hook cursor', () => {
  it('withholds a denied embedded resource of an MCP call with updated_mcp_tool_output', async () => {
    const content = [
      { type: 'text', text: 'kept' },
      { type: 'resource', resource: { uri: 'guide://x', mimeType: 'text/plain', text: '#!/bin/sh\nid' } },
    ];
    const run = await hook({
      ...common,
      hook_event_name: 'afterMCPExecution',
      tool_name: 'get',
      tool_input: '{}',
      command: 'npx docs-server',
      result_json: JSON.stringify({ content }),
    });
    const answer = JSON.parse(run.stdout) as { updated_mcp_tool_output: string };
    const replaced = JSON.parse(answer.updated_mcp_tool_output) as { content: { text: string }[] };
    expect(replaced.content[0]?.text).toBe('kept');
    expect(replaced.content[1]?.text).toContain('content.executable');
  });

  it('denies a read of a refused link with permission deny', async () => {
    const run = await hook({
      ...common,
      hook_event_name: 'preToolUse',
      tool_name: 'ReadMcpResourceTool',
      tool_input: JSON.stringify({ server: 'docs', uri: 'http://169.254.169.254/' }),
    });
    const answer = JSON.parse(run.stdout) as { permission: string; agent_message: string };
    expect(answer.permission).toBe('deny');
    expect(answer.agent_message).toContain('uri.non-public-address');
  });

  it('keeps links from a generic postToolUse of `MCP:<server>:<tool>`', async () => {
    const run = await hook({
      ...common,
      hook_event_name: 'postToolUse',
      tool_name: 'MCP:docs:find',
      tool_input: {},
      tool_output: { content: [{ type: 'resource_link', uri: 'guide://a', name: 'a' }] },
    });
    expect(run).toMatchObject({ code: 0, stdout: '' });
  });

  it('exits 2 for an event without conversation_id', async () => {
    expect((await hook({ hook_event_name: 'preToolUse', tool_name: 'x' })).code).toBe(2);
  });
});
