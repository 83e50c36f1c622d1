// An event still arriving when the hook's deadline comes is answered in the host's fail-closed terms (issue 39
// item 1). On main the deadline's failure path started a second read of stdin, which never ended, so a post event
// whose text had not all arrived got no answer and exit 2, which Claude Code does not honour after the tool ran (the
// result went to the model). Now it is answered from the members read so far (its name, tool, ids): the result is
// withheld. The host's side of stdin stays open here, as a host that stalls would keep it; the test waits for the
// hook to end (no timed assertion).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRequested, toolReturned } from './hook-events.ts';
import { type HookRun, runHookProcess } from './hook-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'linkgate-unfinished-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the hook with `head` written to its stdin, which is then held open until the hook exits. */
function hookWithOpenStdin(head: string, policy = 'policies/default.yaml'): Promise<HookRun> {
  return runHookProcess(['hook', 'claude-code', '--policy', policy, '--state', dir], head, { holdOpen: true });
}

/** The event's text up to the start of its tool output's content: the rest never arrives. */
function unfinished(event: Record<string, unknown>): string {
  const text = JSON.stringify(event);
  const cut = text.indexOf('"tool_response"');
  expect(cut).toBeGreaterThan(0);
  return `${text.slice(0, cut)}"tool_response":[{"type":"text","text":"[Resource link: meta] http://169.254.169.254/`;
}

describe('an event whose text never finishes arriving', () => {
  it('after the tool ran: the result is withheld', async () => {
    const run = await hookWithOpenStdin(unfinished(toolReturned('docs', 'get', [{ type: 'text', text: 'x' }])));
    expect(run.stderr).toContain('did not answer within');
    expect(run.code, run.stderr).toBe(0);
    const output = JSON.parse(run.stdout).hookSpecificOutput.updatedToolOutput as { text: string }[];
    expect(output).toHaveLength(1);
    expect(output[0]?.text).toMatch(/^linkgate withheld this tool result: the hook failed: the hook did not answer/);
  }, 60_000);

  it('a policy that does not load, after the tool ran: the result is withheld, stdin not waited for', async () => {
    const head = unfinished(toolReturned('docs', 'get', [{ type: 'text', text: 'x' }]));
    const run = await hookWithOpenStdin(head, join(dir, 'no-such-policy.yaml'));
    expect(run.code, run.stderr).toBe(0);
    const output = JSON.parse(run.stdout).hookSpecificOutput.updatedToolOutput as { text: string }[];
    expect(output[0]?.text).toMatch(/^linkgate withheld this tool result: the hook failed: .*no-such-policy\.yaml/);
  }, 60_000);

  it('before the tool ran: exit 2 (the host blocks the call)', async () => {
    const event = readRequested('docs', 'guide://x') as Record<string, unknown>;
    const text = JSON.stringify(event);
    const run = await hookWithOpenStdin(text.slice(0, text.length - 5));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
  }, 60_000);
});
