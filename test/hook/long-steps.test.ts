// No single step of a hook event outlasts the hook's deadline (issue 39 item 5). The event budget is checked between
// steps, so one step nothing can interrupt (a `JSON.parse`, a walk, a search) must be bounded by itself. Each case is
// the largest event the hook accepts (just under `maxEventBytes`), built so that one step costs the most: millions of
// values or millions of levels for the parse, a refused uri of megabytes searched for in every string, one rendered
// line of 64 MiB. On main (before 9c7404b) these took 24 s (nesting), 18 s (values), 12 s (a JSON text item), and
// minutes (the long uri), past the hook's deadline and near or past the host's timeout, which lets the result through.
//
// What each case comes to does not depend on the machine's load: the command is run in this process on a counted
// clock (counted-clock.ts: the same budget code, ended by a number of clock readings, no deadline timer), where each
// event is answered by the cap that bounds its long step (withheld unparsed, the line withheld, the link refused with
// the rest kept) within the counted budget; with a budget that ends at once it is withheld all the same. The hook is
// then run as its own process, as the host runs it, only to see a fail-closed answer come out, whether the judgement
// or the deadline gave it (how fast is measured by `npm run bench`, never asserted here).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hookDeadlineMs, maxEventBytes } from '../../src/cli/hook-command.ts';
import { runCli } from '../helpers/run-cli.ts';
import { onCountedClock } from './counted-clock.ts';
import { runHookProcess } from './hook-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'linkgate-long-steps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const measures: string[] = [];
afterAll(() => console.log(`[measure] long steps: ${measures.join(', ')}`));

type Host = 'codex' | 'claude-code';
const args = (host: Host) => ['hook', host, '--policy', 'policies/default.yaml', '--state', join(dir, host)];

/** A post event of `host` whose `tool_response` is the JSON text `response`, as the host writes it. */
function postEvent(host: Host, response: string): string {
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

const longUri = `file:///${'a'.repeat(4 * 1024 * 1024)}`;
const strings = Array.from({ length: 20_000 }, (_, i) => `s${i}`);
const metadata = '169.254.169.254';

interface LongStep {
  name: string;
  host: Host;
  event: () => string;
  /** the answer the cap bounding the long step gives (the counted budget does not end first) */
  judged: (answer: Json) => void;
}

const codexReason = (answer: Json) => {
  expect(answer['decision']).toBe('block');
  return String(answer['reason']);
};
const claudeOutput = (answer: Json) =>
  (answer as { hookSpecificOutput: { updatedToolOutput: { text: string }[] } }).hookSpecificOutput.updatedToolOutput;

const cases: LongStep[] = [
  {
    name: 'codex: structuredContent nested to the byte cap is withheld unparsed',
    host: 'codex',
    event: () => {
      const n = fits(2, 2048);
      return postEvent(
        'codex',
        `{"content":[{"type":"text","text":"x"}],"structuredContent":${'['.repeat(n)}${']'.repeat(n)}}`,
      );
    },
    // the scan of the event as it arrives stops at the first cap passed: depth when it comes in pieces (a pipe), the
    // value count first when it is read whole; either way it is never parsed
    judged: (answer) =>
      expect(codexReason(answer)).toMatch(
        /^linkgate withheld this tool result: .*(nests deeper than|holds over \d+ json values)/,
      ),
  },
  {
    name: 'codex: structuredContent of millions of small values is withheld unparsed',
    host: 'codex',
    event: () => {
      const n = fits(8, 2048);
      const values = `[${'{"k":1},'.repeat(n - 1)}{"k":1}]`;
      return postEvent('codex', `{"content":[{"type":"text","text":"x"}],"structuredContent":${values}}`);
    },
    judged: (answer) => expect(codexReason(answer)).toMatch(/^linkgate withheld this tool result: .*json values/),
  },
  {
    name: 'claude code: a JSON text item nested to the byte cap is withheld unparsed',
    host: 'claude-code',
    event: () => postEvent('claude-code', `[{"type":"text","text":"${'['.repeat(fits(1))}"}]`),
    judged: (answer) => {
      const output = claudeOutput(answer);
      expect(output).toHaveLength(1);
      expect(output[0]?.text).toMatch(/linkgate withheld the structured content/);
    },
  },
  {
    name: 'claude code: one rendered line of 64 MiB is withheld',
    host: 'claude-code',
    event: () => {
      const repeat = '] guide://a (';
      const line = `[Resource link: meta${repeat.repeat(fits(repeat.length))}] http://${metadata}/latest/meta-data`;
      return postEvent('claude-code', `[{"type":"text","text":"${line}"}]`);
    },
    judged: (answer) =>
      expect(claudeOutput(answer)[0]?.text).toMatch(/^linkgate withheld the link .*content\.too-complex/),
  },
  {
    name: 'codex: a refused link with a uri of megabytes, searched for in 20 000 strings, is refused',
    host: 'codex',
    event: () =>
      JSON.stringify({
        session_id: 's1',
        cwd: '/tmp',
        transcript_path: null,
        model: 'm',
        permission_mode: 'default',
        hook_event_name: 'PostToolUse',
        tool_name: 'mcp__docs__get',
        tool_input: {},
        tool_use_id: 'call_get',
        tool_response: {
          content: [{ type: 'text', text: 'x' }],
          structuredContent: { link: { type: 'resource_link', uri: longUri, name: 'long' }, strings },
        },
      }),
    judged: (answer) => {
      const shown = JSON.parse(codexReason(answer)) as { link: { text: string }; strings: string[] };
      expect(shown.link.text).toMatch(/^linkgate refused the link `long`/);
      expect(shown.strings).toEqual(strings);
    },
  },
];

/** What the model would be given instead of the result: a fail-closed answer of `host`, holding nothing refused. */
function failedClosed(host: Host, stdout: string): void {
  const answer = JSON.parse(stdout) as Json;
  const shown = host === 'codex' ? codexReason(answer) : JSON.stringify(claudeOutput(answer));
  expect(shown).toMatch(/linkgate (withheld|refused)/);
  expect(shown).not.toContain(metadata);
  expect(shown).not.toContain('a'.repeat(1024));
}

// a counted budget the judgement of every case ends within: a millionth of a millisecond per reading, so
// `hookDeadlineMs` millions of readings (asserted not reached: the answer is the judgement's, not the budget's)
const perReading = 1e-6;

describe('the largest events the hook accepts are answered by the cap that bounds their long step', () => {
  it.each(cases.map((c) => [c.name, c] as const))(
    '%s',
    async (_name, c) => {
      const event = c.event();
      const { value: run, readings } = await onCountedClock(perReading, () => runCli(args(c.host), event));
      measures.push(`${c.name.split(':')[0]} ${readings} clock readings`);
      expect(run.code, run.stderr).toBe(0);
      expect(readings * perReading).toBeLessThan(hookDeadlineMs);
      expect(run.stdout).not.toContain('did not answer within');
      c.judged(JSON.parse(run.stdout) as Json);
    },
    300_000,
  );

  it.each(cases.map((c) => [c.name, c] as const))(
    'with a budget that ends at once, still withheld: %s',
    async (_name, c) => {
      const event = c.event();
      // every reading past the first spends the whole budget: the first check inside the judgement ends it
      const { value: run } = await onCountedClock(hookDeadlineMs, () => runCli(args(c.host), event));
      expect(run.code, run.stderr).toBe(0);
      failedClosed(c.host, run.stdout);
    },
    300_000,
  );
});

describe('the hook as its own process answers each of them fail-closed', () => {
  it.each(cases.map((c) => [c.name, c] as const))(
    '%s',
    async (_name, c) => {
      const run = await runHookProcess(args(c.host), c.event());
      measures.push(`${c.name.split(':')[0]} process ${run.elapsedMs} ms`);
      expect(run.code, run.stderr).toBe(0);
      failedClosed(c.host, run.stdout);
    },
    300_000,
  );
});

type Json = Record<string, unknown>;
