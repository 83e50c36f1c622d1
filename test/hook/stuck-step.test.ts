// A hook event whose judgement is one synchronous step that never yields (issue 39 item 1, what was left): a read
// result of 490 000 items was counted in one pass that took 12–14 s at load, past the hook's own 10 s deadline,
// whose timer cannot fire while the step runs. Here the step never ends (test/hook/stuck-step.mjs, preloaded, makes
// `JSON.parse` of the event spin), the strongest form of that case. A large event is judged in a child process the
// hook kills at its deadline, so the hook still answers, fail-closed, in the host's terms. On main the process never
// answered at all (the host's timeout lets the result through). The test waits for the process to end.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childJudgedFromBytes } from '../../src/hook/judge-in-child.ts';
import { savedPathsIn } from '../../src/hook/run-hook.ts';
import { readRequested, toolReturned } from './hook-events.ts';
import { runHookCommand } from './hook-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'linkgate-stuck-step-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const timings: string[] = [];
afterAll(() => console.log(`[measure] hook answer times, a step that never ends: ${timings.join(', ')}`));

const refused = 'http://169.254.169.254/latest/meta-data';
// past the size from which an event is judged in a child process, with the marker the preload spins on
const padding = 'linkgate-test-stuck-step '.repeat(Math.ceil((childJudgedFromBytes + 1024) / 25));

const stuckHook = (event: unknown) =>
  runHookCommand(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      './test/hook/stuck-step.mjs',
      'src/cli/main.ts',
      'hook',
      'claude-code',
      '--policy',
      'policies/default.yaml',
      '--state',
      dir,
    ],
    JSON.stringify(event),
  );

describe('a hook event whose judgement never yields', () => {
  it('post: the result is withheld whole by the answer of the deadline, the refused link with it', async () => {
    const event = toolReturned('docs', 'get', [
      { type: 'text', text: `[Resource link: meta] ${refused}` },
      { type: 'text', text: padding },
    ]);
    const run = await stuckHook(event);
    timings.push(`post ${run.elapsedMs} ms`);
    expect(run.code, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout) as { hookSpecificOutput: { updatedToolOutput: { text: string }[] } };
    const output = answer.hookSpecificOutput.updatedToolOutput;
    expect(output).toHaveLength(1);
    expect(output[0]?.text).toMatch(/^linkgate withheld this tool result: the hook failed: the hook did not answer/);
    expect(run.stdout).not.toContain(refused);
  }, 120_000);

  // the answer of the deadline came from the event's small members, which hold no result: the files the host saved
  // for the event stayed on disk, where a shell or file tool could still read them (issue 39, second reading)
  it('post: the files the host saved for the result are deleted, and only those', async () => {
    const transcript = join(dir, 'saved-session.jsonl');
    const folder = join(dir, 'saved-session', 'tool-results');
    mkdirSync(folder, { recursive: true });
    const [binary, image, outside] = [
      join(folder, 'toolu_1-0.png'),
      join(folder, 'toolu_1 [1].png'),
      join(dir, 'x.png'),
    ];
    for (const file of [binary, image, outside]) writeFileSync(file, 'bytes');
    const event = toolReturned(
      'docs',
      'get',
      [
        {
          type: 'text',
          text: `[Resource from docs at guide://a] Binary content (image/png, 5 bytes) saved to ${binary}`,
        },
        { type: 'text', text: `[Image source: ${image}]` },
        {
          type: 'text',
          text: `[Resource from docs at guide://b] Binary content (image/png, 5 bytes) saved to ${outside}`,
        },
        { type: 'text', text: padding },
      ],
      { transcript },
    );
    const run = await stuckHook(event);
    timings.push(`post with saved files ${run.elapsedMs} ms`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/linkgate withheld this tool result: the hook failed: the hook did not answer/);
    expect([binary, image, outside].map((file) => existsSync(file))).toEqual([false, false, true]);
  }, 120_000);

  it('the saved paths are read from the text as JSON wrote them, line by line', () => {
    const folder = '/s/tool-results';
    const text = JSON.stringify([
      `Binary content (image/png, 5 bytes) saved to ${folder}/a "q".png\nmore`,
      `[Image source: ${folder}/b.png]`,
      `${folder}/c.png`,
      '/elsewhere/d.png',
    ]);
    expect(savedPathsIn(text, folder)).toEqual([
      `${folder}/a "q".png`,
      `${folder}/b.png]`,
      `${folder}/b.png`,
      `${folder}/c.png`,
    ]);
  });

  it('pre: the read is blocked (exit 2), the reason on stderr', async () => {
    const event = { ...readRequested('docs', refused), tool_input: { server: 'docs', uri: refused, note: padding } };
    const run = await stuckHook(event);
    timings.push(`pre ${run.elapsedMs} ms`);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/the hook did not answer within/);
  }, 120_000);
});
