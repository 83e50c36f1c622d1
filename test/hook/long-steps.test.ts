// No single step of a hook event outlasts the hook's deadline (issue 39 item 5). The event budget is checked between
// steps, so one step nothing can interrupt (a `JSON.parse`, a walk, a search) must be bounded by itself. Each case is
// the largest event the hook accepts (just under `maxEventBytes`), built so that one step costs the most: millions of
// values or millions of levels for the parse, a refused uri of megabytes searched for in every string, one rendered
// line of 64 MiB. On main these took 24 s (nesting), 18 s (values), 12 s (a JSON text item), and minutes (the long
// uri), past the hook's deadline and near or past the host's timeout, which lets the result through. Each runs the
// hook as its own process, as the host does, waits for it to end, and asserts the fail-closed answer came in time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { maxEventBytes } from '../../src/cli/hook-command.ts';
import { runHookProcess } from './hook-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'linkgate-long-steps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const timings: string[] = [];
afterAll(() => console.log(`[measure] hook answer times, largest events: ${timings.join(', ')}`));

const hook = (host: string, event: string) =>
  runHookProcess(['hook', host, '--policy', 'policies/default.yaml', '--state', join(dir, host)], event);

/** A post event of `host` whose `tool_response` is the JSON text `response`, as the host writes it. */
function postEvent(host: 'codex' | 'claude-code', response: string): string {
  const fields =
    host === 'codex'
      ? { session_id: 's1', cwd: '/tmp', transcript_path: null, model: 'm', permission_mode: 'default' }
      : { session_id: 's1', cwd: '/tmp', transcript_path: '/tmp/linkgate-none.jsonl', permission_mode: 'default' };
  const event = JSON.stringify({
    ...fields,
    hook_event_name: 'PostToolUse',
    tool_name: 'mcp__docs__get',
    tool_input: {},
    tool_use_id: 'call_get',
    tool_response: '@',
  });
  const text = event.replace('"@"', response);
  expect(text.length).toBeLessThan(maxEventBytes);
  expect(text.length).toBeGreaterThan(maxEventBytes - 64 * 1024);
  return text;
}

// how many times `unit` fits in the event beside `fixed` characters of everything else
const fits = (unit: number, fixed = 1024) => Math.floor((maxEventBytes - fixed) / unit);

/** The answer's text (what the model would be given), after checking the hook answered by itself within its deadline. */
async function answeredInTime(name: string, host: 'codex' | 'claude-code', event: string): Promise<string> {
  const run = await hook(host, event);
  timings.push(`${name} ${run.elapsedMs} ms`);
  expect(run.code, run.stderr).toBe(0);
  // the answer of the judgement, not of the deadline's timer (speed itself is measured, not asserted)
  expect(run.stdout).not.toContain('did not answer within');
  return run.stdout;
}

describe('the largest events the hook accepts are answered fail-closed in time', () => {
  it('codex: structuredContent nested to the byte cap is withheld unparsed', async () => {
    const n = fits(2, 2048);
    const response = `{"content":[{"type":"text","text":"x"}],"structuredContent":${'['.repeat(n)}${']'.repeat(n)}}`;
    const answer = JSON.parse(await answeredInTime('nesting', 'codex', postEvent('codex', response))) as Json;
    expect(answer['decision']).toBe('block');
    expect(answer['reason']).toMatch(/^linkgate withheld this tool result: .*nests deeper than/);
  }, 120_000);

  it('codex: structuredContent of millions of small values is withheld unparsed', async () => {
    const n = fits(8, 2048);
    const values = `[${'{"k":1},'.repeat(n - 1)}{"k":1}]`;
    const response = `{"content":[{"type":"text","text":"x"}],"structuredContent":${values}}`;
    const answer = JSON.parse(await answeredInTime('values', 'codex', postEvent('codex', response))) as Json;
    expect(answer['decision']).toBe('block');
    expect(answer['reason']).toMatch(/^linkgate withheld this tool result: .*json values/);
  }, 120_000);

  it('claude code: a JSON text item nested to the byte cap is withheld unparsed', async () => {
    const response = `[{"type":"text","text":"${'['.repeat(fits(1))}"}]`;
    const answer = JSON.parse(await answeredInTime('json text', 'claude-code', postEvent('claude-code', response)));
    const output = (answer as { hookSpecificOutput: { updatedToolOutput: { text: string }[] } }).hookSpecificOutput
      .updatedToolOutput;
    expect(output).toHaveLength(1);
    expect(output[0]?.text).toMatch(/linkgate withheld the structured content/);
  }, 120_000);

  it('claude code: one rendered line of 64 MiB is withheld', async () => {
    const repeat = '] guide://a (';
    const line = `[Resource link: meta${repeat.repeat(fits(repeat.length))}] http://169.254.169.254/latest/meta-data`;
    const response = `[{"type":"text","text":"${line}"}]`;
    const answer = JSON.parse(await answeredInTime('line', 'claude-code', postEvent('claude-code', response)));
    const output = (answer as { hookSpecificOutput: { updatedToolOutput: { text: string }[] } }).hookSpecificOutput
      .updatedToolOutput;
    expect(output[0]?.text).toMatch(/^linkgate withheld the link .*content\.too-complex/);
    expect(JSON.stringify(answer)).not.toContain('169.254.169.254');
  }, 120_000);

  it('codex: a refused link with a uri of megabytes, searched for in 20 000 strings, is refused in time', async () => {
    const uri = `file:///${'a'.repeat(4 * 1024 * 1024)}`;
    const strings = Array.from({ length: 20_000 }, (_, i) => `s${i}`);
    const structured = { link: { type: 'resource_link', uri, name: 'long' }, strings };
    const response = JSON.stringify({ content: [{ type: 'text', text: 'x' }], structuredContent: structured });
    const event = JSON.stringify({
      session_id: 's1',
      cwd: '/tmp',
      transcript_path: null,
      model: 'm',
      permission_mode: 'default',
      hook_event_name: 'PostToolUse',
      tool_name: 'mcp__docs__get',
      tool_input: {},
      tool_use_id: 'call_get',
      tool_response: JSON.parse(response) as unknown,
    });
    const answer = JSON.parse(await answeredInTime('long uri', 'codex', event)) as Json;
    expect(answer['decision']).toBe('block');
    const shown = JSON.parse(String(answer['reason'])) as { link: { text: string }; strings: string[] };
    expect(shown.link.text).toMatch(/^linkgate refused the link `long`/);
    expect(shown.strings).toEqual(strings);
  }, 120_000);
});

type Json = Record<string, unknown>;
