// Red team, cost: one crafted tool result must not keep a front end busy. Each JSON text item is judged as structured
// content within its own limits (100 000 values), so a result of many such items once cost the sum of them all (100
// items of 100 000 strings kept the Codex hook busy 38 s, past its own 20 s deadline). The limits hold for all the
// JSON texts of one result together: those past them are withheld whole, unjudged.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { tooLargeNotice } from '../../src/flow/structured-links.ts';
import { runCli } from '../helpers/run-cli.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-redteam-cost-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('withholds the JSON text items past the limits of one result instead of judging each in full', async () => {
  const one = `[${'"a",'.repeat(99_990)}"a"]`;
  const content: unknown[] = Array.from({ length: 20 }, () => ({ type: 'text', text: one }));
  content.push({ type: 'resource_link', uri: 'http://169.254.169.254/latest/meta-data/', name: 'm' });
  const event = {
    session_id: 's1',
    transcript_path: '/tmp/linkgate-no-such-session.jsonl',
    cwd: '/tmp',
    hook_event_name: 'PostToolUse',
    tool_name: 'mcp__fixture__links',
    tool_input: {},
    tool_response: { content },
    tool_use_id: 'call_cost',
  };
  const args = ['hook', 'codex', '--policy', 'policies/default.yaml', '--state', join(dir, 'state')];
  const run = await runCli(args, JSON.stringify(event));
  expect(run.code, run.stderr).toBe(0);
  const answer = JSON.parse(run.stdout) as { decision: string; reason: string };
  expect(answer.decision).toBe('block');
  // the first item is judged (it is within the limits); the rest are withheld whole
  const withheld = answer.reason.split(JSON.stringify(tooLargeNotice)).length - 1;
  expect(withheld).toBe(19);
  expect(answer.reason).not.toContain('169.254.169.254');
});
