// A post event over the hook's 64 MiB cap (issue 39 item 1): on main it exited 2, which Claude Code does not honour
// after the tool ran (the result reached the model). Now the event's small members are read from the stream and the
// failure is answered in the host's terms: the whole result withheld. Each case runs the hook as its own process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { maxEventBytes } from '../../src/cli/hook-command.ts';
import { EventSkeleton } from '../../src/hook/event-skeleton.ts';
import { readRequested, readReturned, toolReturned } from './hook-events.ts';
import { runHookProcess } from './hook-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'linkgate-oversize-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const args = (host: string) => ['hook', host, '--policy', 'policies/default.yaml', '--state', join(dir, 'state')];
const padding = 'x'.repeat(maxEventBytes);
const overCap = /the hook failed: the hook event is over 67108864 bytes/;

describe('an event over 64 MiB', () => {
  it('claude code: a tool result is withheld whole, exit 0', async () => {
    const event = toolReturned('docs', 'get', [
      { type: 'text', text: '[Resource link: m] http://169.254.169.254/latest/meta-data' },
      { type: 'text', text: padding },
    ]);
    const run = await runHookProcess(args('claude-code'), JSON.stringify(event));
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout).hookSpecificOutput;
    expect(output.hookEventName).toBe('PostToolUse');
    expect(output.updatedToolOutput).toEqual([{ type: 'text', text: expect.stringMatching(overCap) }]);
  }, 90_000);

  it('claude code: a read result is withheld, its uri kept', async () => {
    const event = readReturned('docs', 'guide://big', [{ uri: 'guide://big', mimeType: 'text/plain', text: padding }]);
    const run = await runHookProcess(args('claude-code'), JSON.stringify(event));
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.updatedToolOutput.contents).toEqual([
      { uri: 'guide://big', mimeType: 'text/plain', text: expect.stringMatching(overCap) },
    ]);
  }, 90_000);

  it('gemini cli: an AfterTool is denied', async () => {
    const event = {
      session_id: 'g1',
      hook_event_name: 'AfterTool',
      tool_name: 'mcp_docs_get',
      tool_input: {},
      mcp_context: { server_name: 'docs', tool_name: 'get' },
      tool_response: { llmContent: [{ text: padding }] },
    };
    const run = await runHookProcess(args('gemini-cli'), JSON.stringify(event));
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ decision: 'deny', reason: expect.stringMatching(overCap) });
  }, 90_000);

  it('a pre event exits 2 (every host blocks the call on it)', async () => {
    const event = { ...readRequested('docs', 'guide://a'), padding };
    const run = await runHookProcess(args('claude-code'), JSON.stringify(event));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
  }, 90_000);
});

it('the members are read as JSON, so text inside the skipped output is never taken for one', () => {
  const event = {
    hook_event_name: 'PostToolUse',
    tool_response: [{ type: 'text', text: `", "hook_event_name": "PreToolUse", "x": "\\"} ${'y'.repeat(100_000)}` }],
    tool_input: { server: 'docs', uri: 'guide://a,}' },
    n: -1.5e3,
  };
  const bytes = Buffer.from(JSON.stringify(event, null, 2));
  const skeleton = new EventSkeleton();
  for (let at = 0; at < bytes.length; at += 4096) skeleton.feed(bytes.subarray(at, at + 4096));
  expect(skeleton.members()).toEqual({ hook_event_name: 'PostToolUse', tool_input: event.tool_input, n: -1500 });
});
