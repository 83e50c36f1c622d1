// Every hook event answers in time, whatever the input (issue 39 item 1). A rendered link line built to split many
// ways, or a tool result padded with links, used to keep the hook judging past the host's timeout (the host then
// passes the result as it is); now a line over the split cap, and every link over the per-event cap, is withheld
// with its notice at once, and work beyond the event's budget ends in the host's fail-closed answer. Each case runs
// the hook as its own process, as the host does, and asserts on the answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { EventBudget } from '../../src/hook/event-budget.ts';
import { hostAdapters } from '../../src/hook/hook-hosts.ts';
import { runHook } from '../../src/hook/run-hook.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { runHookProcess } from './hook-process.ts';
import { readRequested, toolReturned } from './hook-events.ts';

const dir = mkdtempSync(join(tmpdir(), 'linkgate-budget-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const metadata = 'http://169.254.169.254/latest/meta-data';
const args = (host: string, state: string) => [
  'hook',
  host,
  '--policy',
  'policies/default.yaml',
  '--state',
  join(dir, state),
];
const timings: string[] = [];
afterAll(() => console.log(`hook answer times: ${timings.join(', ')}`));

describe('a crafted rendered line is answered at once, withheld', () => {
  it('claude code: a link name followed by 4000 `] guide://a (`, then a metadata link', async () => {
    const crafted = `[Resource link: meta${'] guide://a ('.repeat(4000)}${metadata})`;
    const event = toolReturned('docs', 'get', [
      { type: 'text', text: crafted },
      { type: 'text', text: `[Resource link: metadata] ${metadata}` },
      { type: 'text', text: 'kept text' },
    ]);
    const run = await runHookProcess(args('claude-code', 'cc'), JSON.stringify(event));
    timings.push(`claude code crafted line ${run.elapsedMs} ms`);
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout).hookSpecificOutput.updatedToolOutput as { text: string }[];
    expect(output).toHaveLength(3);
    expect(output[0]?.text).toMatch(/^linkgate withheld .*content\.too-complex/);
    expect(output[1]?.text).toMatch(/^linkgate refused the link .*uri\.non-public-address/);
    expect(output[2]).toEqual({ type: 'text', text: 'kept text' });
  }, 60_000);

  it('claude code: a host note built to backtrack (`[Audio from ` then 50 000 `] Binary content (, 1`)', async () => {
    const event = toolReturned('docs', 'get', [
      { type: 'text', text: `[Audio from ${'] Binary content (, 1'.repeat(50_000)}) saved tx` },
      { type: 'text', text: 'kept text' },
    ]);
    const run = await runHookProcess(args('claude-code', 'note'), JSON.stringify(event));
    timings.push(`claude code crafted note ${run.elapsedMs} ms`);
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout).hookSpecificOutput.updatedToolOutput as { text: string }[];
    expect(output[0]?.text).toMatch(/^linkgate withheld .*content\.shape/);
    expect(output[1]).toEqual({ type: 'text', text: 'kept text' });
  }, 60_000);

  it('gemini cli: a `Resource Link:` part with 20 000 ` at `', async () => {
    const event = {
      session_id: 'g1',
      hook_event_name: 'AfterTool',
      tool_name: 'mcp_docs_get',
      tool_input: {},
      mcp_context: { server_name: 'docs', tool_name: 'get' },
      tool_response: {
        llmContent: [{ text: `Resource Link: x${' at '.repeat(20_000)}${metadata}` }, { text: 'kept' }],
      },
    };
    const run = await runHookProcess(args('gemini-cli', 'gemini'), JSON.stringify(event));
    timings.push(`gemini cli crafted part ${run.elapsedMs} ms`);
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toMatch(/^linkgate withheld .*content\.too-complex[^\n]*\nkept$/);
  }, 60_000);
});

describe('the event budget is checked inside the loops', () => {
  // a clock that moves one millisecond per look: the budget runs out after a known number of checks, whatever the
  // machine's speed, so the test shows the checks are made where the work is, not by a timer
  const steppingBudget = (limitMs: number) => {
    let t = 0;
    return new EventBudget(limitMs, () => t++);
  };
  const links = Array.from({ length: 50 }, (_, i) => ({ type: 'text', text: `[Resource link: l${i}] guide://l/${i}` }));

  it('a tool result whose links outlast the budget fails with READ_TIMEOUT (the command answers it closed)', async () => {
    const gate = createGate(await loadPolicy('policies/default.yaml'));
    const context = { gate, stateDir: join(dir, 'inproc'), record: async () => undefined };
    const event = JSON.stringify(toolReturned('docs', 'get', links));
    const host = hostAdapters['claude-code'];
    await expect(runHook(host, event, { ...context, budget: steppingBudget(20) })).rejects.toMatchObject({
      code: 'READ_TIMEOUT',
    });
    // with room enough, the same event is judged (every link allowed: no answer)
    expect(await runHook(host, event, { ...context, budget: steppingBudget(10_000) })).toBe('');
    // a read's state scan is checked too
    await expect(
      runHook(host, JSON.stringify(readRequested('docs', 'guide://l/49')), { ...context, budget: steppingBudget(5) }),
    ).rejects.toMatchObject({ code: 'READ_TIMEOUT' });
  });
});
