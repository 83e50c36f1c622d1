// Red team (issue 39, hidden-style round 14), adapters: post events of an MCP tool in shapes the hook's host adapters
// (src/hook/*-host.ts) were not written for, as a host that moved a member or wrapped its result would send them. A
// result the hook cannot read must be withheld, never handed on unjudged: Claude Code's and Codex's `PostToolUse`
// whose result is under another member (`tool_output`) or wrapped as Rust's `{Ok: …}`, Gemini CLI's `llmContent` as
// one string or as a `functionResponse` part, Cursor's and Cline's output under a member they do not read, Cline's
// output as a JSON text, and Windsurf's url arguments nested in a tool's input.
// Each hook as the host runs it. Controls: the same events with an ordinary link, and the shapes the hooks know.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
// key: claude-code tool_output, codex tool_output, cursor no output, cline no output — hook (src/hook/hook-discovery.ts
// answered a post event of an MCP tool without its result with nothing) — mended by redteam17
// key: windsurf nested url — hook (src/hook/windsurf-host.ts read url arguments at the top level only: a batch
// fetch's `requests: [{url}]` was called unjudged) — mended by redteam17
import { describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { codexToolReturned, toolReturned } from '../hook/hook-events.ts';
import { geminiToolReturned } from './round10-hosts.ts';
import { givenOn } from './round12-cases.ts';
import { clineResult, cursorResult, doc, windsurfCall } from './round13-hosts.ts';
import { caseKeys } from './round-cases.ts';
import { refusedHost } from './round12-cases.ts';
import { hostPath, link, metadata } from './scripted-host.ts';

// every key held since redteam17's fixes
const open = new Set<string>([]);
const it = caseKeys(open);
const hooks = hookScratch('linkgate-redteam-r14adapters-');
const items = [link(doc, 'a'), link(metadata, 'creds')];

/** What the host hands the model after the hook ran on `event`: nothing of the metadata address. */
async function handsNothingRefused(host: string, event: unknown) {
  const run = await hooks.hook(host, event);
  expect(givenOn(run.stdout, event)).not.toContain(hostPath);
  return run;
}

describe('red team, adapters (round 14): an MCP result under a member the hook does not read', () => {
  const moved = (event: Record<string, unknown>) => {
    const { tool_response: response, ...rest } = event;
    return { ...rest, tool_output: response };
  };
  it('claude-code tool_output')('claude-code: the result as `tool_output`, no `tool_response`: withheld', async () => {
    await handsNothingRefused('claude-code', moved(toolReturned('fixture', 'links', items)));
  });
  it('codex tool_output')('codex: the result as `tool_output`, no `tool_response`: withheld', async () => {
    await handsNothingRefused('codex', moved(codexToolReturned({ content: items })));
  });
  test('claude-code: the result wrapped as `{Ok: …}`: withheld', async () => {
    await handsNothingRefused('claude-code', {
      ...toolReturned('fixture', 'links', []),
      tool_response: { Ok: { content: items } },
    });
  });
  test('codex: the result wrapped as `{Ok: …}`: withheld', async () => {
    await handsNothingRefused('codex', codexToolReturned({ Ok: { content: items } }));
  });
  test('control: claude-code: the ordinary link as `tool_response`: left alone', async () => {
    expect((await hooks.hook('claude-code', toolReturned('fixture', 'links', [link(doc, 'a')]))).stdout).toBe('');
  });
});

describe("red team, adapters (round 14): Gemini CLI's llmContent in other shapes", () => {
  const base = geminiToolReturned([]);
  const line = `Resource Link: creds at ${metadata}`;
  const shaped = (llmContent: unknown) => ({ ...base, tool_response: { llmContent, returnDisplay: line } });
  test('gemini-cli: llmContent as one string holding the rendered line: withheld', async () => {
    await handsNothingRefused('gemini-cli', shaped(line));
  });
  test('gemini-cli: a functionResponse part holding the link: withheld', async () => {
    await handsNothingRefused(
      'gemini-cli',
      shaped([{ functionResponse: { name: 'links', response: { content: items } } }]),
    );
  });
  test('control: gemini-cli: the ordinary line as a text part: left alone', async () => {
    expect((await hooks.hook('gemini-cli', geminiToolReturned([[doc, 'a']]))).stdout).toBe('');
  });
});

describe('red team, adapters (round 14): Cursor and Cline outputs as text', () => {
  it('cursor no output')(
    'cursor: an afterMCPExecution with none of the output members it reads: withheld',
    async () => {
      const { result_json: _, ...event } = cursorResult({});
      const run = await hooks.hook('cursor', { ...event, mcp_result: JSON.stringify({ content: items }) });
      expect(givenOn(run.stdout, {})).toContain('linkgate withheld');
    },
  );
  test('cline: the output as the JSON text of a result holding the link: withheld', async () => {
    await handsNothingRefused('cline', clineResult(JSON.stringify({ content: items })));
  });
  it('cline no output')('cline: a tool_result with its output under another member: withheld', async () => {
    const event = clineResult(undefined);
    const { output: _, ...result } = event.tool_result as Record<string, unknown>;
    const run = await hooks.hook('cline', { ...event, tool_result: { ...result, result: { content: items } } });
    expect(givenOn(run.stdout, {})).toContain('linkgate withheld');
  });
  test('control: cline: the ordinary link as JSON text: not withheld', async () => {
    const run = await hooks.hook('cline', clineResult(JSON.stringify({ content: [link(doc, 'a')] })));
    expect(givenOn(run.stdout, {})).not.toContain('linkgate withheld');
  });
});

describe("red team, adapters (round 14): Windsurf's url arguments nested in a tool's input", () => {
  const shapes: [string, (url: string) => Record<string, unknown>][] = [
    ['`requests: [{url}]` (a batch fetch)', (url) => ({ requests: [{ url: doc }, { url, prompt: 'read it' }] })],
    ['`request: {uri}`', (url) => ({ request: { uri: url } })],
  ];
  for (const [label, args] of shapes) {
    it('windsurf nested url')(`windsurf: the metadata address as ${label} is refused`, async () => {
      const run = await hooks.hook('windsurf', windsurfCall(args(metadata)));
      expect(run.code).toBe(2);
      expect(run.stderr).not.toContain(refusedHost);
    });
    test(`control: windsurf: the ordinary url as ${label} goes ahead`, async () => {
      expect((await hooks.hook('windsurf', windsurfCall(args(doc)))).code).toBe(0);
    });
  }
});
