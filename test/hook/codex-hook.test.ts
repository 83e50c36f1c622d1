import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { readRequested, readReturned, toolReturned } from './hook-events.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-codex-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// Codex sends Claude-shaped events (plus `model`, `turn_id`); research note §1.2
const codexEvent = <T extends object>(event: T) => ({ ...event, model: 'gpt-5-codex', turn_id: 'turn-1' });

async function hook(event: unknown) {
  const args = ['hook', 'codex', '--policy', 'policies/default.yaml', '--state', join(dir, 'state')];
  return runCli(args, JSON.stringify(event));
}

describe('linkgate hook codex', () => {
  it('denies a read before it runs with permissionDecision', async () => {
    const run = await hook(codexEvent(readRequested('docs', 'http://169.254.169.254/')));
    const answer = JSON.parse(run.stdout) as { hookSpecificOutput: Record<string, unknown> };
    expect(answer.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' });
  });

  it('withholds a denied body by blocking, which replaces the whole result with the reason', async () => {
    const run = await hook(
      codexEvent(readReturned('docs', 'guide://a', [{ uri: 'guide://a', text: '#!/bin/sh\nrm -rf ~' }])),
    );
    const answer = JSON.parse(run.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('block');
    expect(answer.reason).toContain('content.executable');
    expect(answer.reason).not.toContain('rm -rf');
  });

  it('blocks an MCP tool result with a denied embedded resource; the reason carries the allowed items', async () => {
    const content = [
      { type: 'text', text: 'kept text' },
      { type: 'resource', resource: { uri: 'guide://x', mimeType: 'text/plain', text: '#!/bin/sh\nid' } },
    ];
    const run = await hook(codexEvent({ ...toolReturned('docs', 'get', []), tool_response: { content } }));
    const answer = JSON.parse(run.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('block');
    expect(answer.reason).toContain('kept text');
    expect(answer.reason).not.toContain('#!/bin/sh');
  });

  it('says nothing when the read is allowed', async () => {
    expect(await hook(codexEvent(readRequested('docs', 'guide://fine')))).toMatchObject({ code: 0, stdout: '' });
  });
});
