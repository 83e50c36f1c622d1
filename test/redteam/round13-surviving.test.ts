// Red team (issue 39, hidden-style round 13), a refused address surviving through the hooks' read and failure paths.
// Once a tool result's link to the metadata address was refused, the decorator and the shared read tool withhold a
// later read body naming that address (round 5's `v2 read body`, round 9's read tool); the hooks searched tool results
// only: a read's body naming it reached the model through Claude Code's, Codex's, Gemini CLI's and Cline's hooks, and
// so did the error text Claude Code hands on for a read the server refused (`{contents: [], error}`). And Cline's
// failed MCP call (`tool_result.error`, or the file-style `success: false` whose `result` the model reads) was never
// judged: a server answering `isError` with a refused link, or with text naming an address refused before, got it to
// the model. Each host's hook as the host runs it, on its event shapes. Controls: the same shapes, nothing refused.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none
// (mended by redteam16: src/hook/hook-post-read.ts searches what a read hands on, src/hook/cline-host.ts judges a
// failed MCP call as its result).
import { describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { readRequested, readReturned, toolReturned } from '../hook/hook-events.ts';
import { givenOn } from './round12-cases.ts';
import { clineFileResult, clineResult, doc, inOrder, readHosts } from './round13-hosts.ts';
import { told } from './round-cases.ts';
import { hostPath, link, metadata } from './scripted-host.ts';

const hooks = hookScratch('linkgate-redteam-r13surviving-');
const plain = 'packing list: fold the shirts';

describe('red team, surviving (round 13): a read body naming an address refused earlier in the session', () => {
  for (const [host, refusal, read] of readHosts) {
    test(`${host}: the body naming the refused address does not reach the model`, async () => {
      expect((await hooks.hook(host, refusal)).stdout).toContain('linkgate');
      const events = read(told);
      const run = await inOrder(hooks, host, events);
      expect(run.code, run.stderr).toBe(0);
      const given = givenOn(run.stdout, events.at(-1));
      expect(given).toContain('linkgate withheld');
      expect(given).not.toContain(hostPath);
    });
    test(`control: ${host}: an ordinary body after the refusal reaches the model`, async () => {
      await hooks.hook(host, refusal);
      const events = read(plain);
      const run = await inOrder(hooks, host, events);
      expect(givenOn(run.stdout, events.at(-1))).toContain(plain);
    });
  }
});

describe("red team, surviving (round 13): Claude Code's read error text", () => {
  const erred = (error: string) => ({ ...readReturned('fixture', doc, []), tool_response: { contents: [], error } });
  const refusal = toolReturned('fixture', 'links', [link(metadata, 'creds'), link(doc, 'a')]);
  test('claude-code: a read error naming the refused address does not reach the model', async () => {
    await inOrder(hooks, 'claude-code', [refusal, readRequested('fixture', doc)]);
    const event = erred(`moved to ${metadata}`);
    const run = await hooks.hook('claude-code', event);
    expect(givenOn(run.stdout, event)).not.toContain(hostPath);
  });
  test('control: claude-code: a read error naming nothing refused is left as it is', async () => {
    await inOrder(hooks, 'claude-code', [refusal, readRequested('fixture', doc)]);
    const run = await hooks.hook('claude-code', erred('resource not found'));
    expect(run.stdout).toBe('');
  });
});

describe("red team, surviving (round 13): Cline's failed MCP call", () => {
  const refusing = { content: [link(metadata, 'creds')] };
  // [case, the failed call's event]
  const failed: [string, () => unknown][] = [
    [
      'an SDK tool_result with an error and an output holding the refused link',
      () => clineResult(refusing, 'tool failed'),
    ],
    [
      'a file-style PostToolUse of success false whose result holds the link',
      () => clineFileResult(JSON.stringify(refusing), false),
    ],
    [
      'an SDK tool_result whose error is the JSON of a result holding the link',
      () => clineResult({ content: [] }, JSON.stringify(refusing)),
    ],
  ];
  for (const [label, event] of failed)
    test(`cline: ${label}: the task is stopped, nothing refused handed on`, async () => {
      const run = await hooks.hook('cline', event());
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ cancel: true });
      expect(run.stdout).not.toContain(hostPath);
    });
  test('cline: an error naming an address refused earlier stops the task', async () => {
    await hooks.hook('cline', clineResult(refusing));
    const run = await hooks.hook('cline', clineResult({ content: [] }, told, 'toolu_2'));
    expect(JSON.parse(run.stdout)).toMatchObject({ cancel: true });
    expect(run.stdout).not.toContain(hostPath);
  });
  test('control: cline: a failed call whose error names nothing refused goes on', async () => {
    await hooks.hook('cline', clineResult(refusing));
    const run = await hooks.hook('cline', clineResult({ content: [] }, 'rate limited, try later', 'toolu_2'));
    expect(run.stdout).toBe('');
  });
});
