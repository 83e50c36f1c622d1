// Claude Code hands a PostToolUse hook the result of an MCP tool that has `structuredContent` as that value, a JSON
// string, in place of its items, and the model reads that string (measured through the real Claude Agent SDK, which
// runs the same binary: test/frameworks/claude-agent-structured.test.ts). On main the command hook took a JSON string
// that is no tool result for a shape it does not know and withheld it whole (`content.shape`): every ordinary result
// with `structuredContent` was withheld, and a refused link inside it took the rest of the result with it. Now such a
// string is what the model reads, one text item whose JSON is judged for links; a shape the hook does not know is
// still withheld whole, and a JSON string that is no result is still withheld from a host that never sends one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { toolReturned } from './hook-events.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-structured-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const metadata = 'http://169.254.169.254/latest/meta-data/iam/';
const metadataLink = { type: 'resource_link', uri: metadata, name: 'creds' };
const allowedLink = { type: 'resource_link', uri: 'guide://manuals/packing.md', name: 'packing' };
const marker = 'ORDINARY-7f3a';

const hook = (host: string, event: unknown) =>
  runCli(['hook', host, '--policy', 'policies/default.yaml', '--state', join(dir, 'state')], JSON.stringify(event));
/** Claude Code's post event of `mcp__docs__lookup` whose result's `structuredContent` is `value`. */
const handed = (value: unknown) => ({ ...toolReturned('docs', 'lookup', []), tool_response: JSON.stringify(value) });
/** The text Claude Code's model would be given in place of the result (the hook's `updatedToolOutput`). */
const replaced = (stdout: string) =>
  JSON.stringify((JSON.parse(stdout) as { hookSpecificOutput: Record<string, unknown> }).hookSpecificOutput);

describe('claude code: a result handed as its structuredContent, a JSON string, is what the model reads', () => {
  it.each([
    ['no link', { summary: marker }],
    ['an allowed link', { summary: marker, next: allowedLink }],
    ['an allowed address as a string', { summary: marker, see: allowedLink.uri }],
    ['a list of plain values', { rows: [1, 'two', null, { summary: marker }] }],
  ])('holding %s: passed on unchanged', async (_name, value) => {
    const run = await hook('claude-code', handed(value));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('');
  });

  it('holding a refused link: that link becomes its notice, the rest is kept, its address is not handed on', async () => {
    const run = await hook('claude-code', handed({ summary: marker, next: metadataLink }));
    expect(run.code, run.stderr).toBe(0);
    const shown = replaced(run.stdout);
    expect(shown).toContain('linkgate refused the link');
    expect(shown).toContain(marker);
    expect(shown).not.toContain('169.254.169.254');
  });

  it.each([
    ['at the top', metadataLink],
    ['in a list', { items: [{ summary: marker }, metadataLink] }],
    ['nested deep', { a: { b: { c: [{ d: metadataLink }] } } }],
  ])('a refused link %s: refused the same', async (_name, value) => {
    const run = await hook('claude-code', handed(value));
    expect(run.code, run.stderr).toBe(0);
    const shown = replaced(run.stdout);
    expect(shown).toContain('linkgate refused the link');
    expect(shown).not.toContain('169.254.169.254');
  });

  it('a refused address as a string in it is not handed on', async () => {
    const run = await hook('claude-code', handed({ summary: marker, see: metadata }));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toBe('');
    expect(replaced(run.stdout)).not.toContain('169.254.169.254');
  });

  it.each([
    ['an object with no content', { summary: 'SECRET-BODY' }],
    ['a number', 42],
    ['null', null],
  ])('a tool output that is %s, not a string, is still withheld whole (content.shape)', async (_name, response) => {
    const run = await hook('claude-code', { ...toolReturned('docs', 'lookup', []), tool_response: response });
    expect(run.code, run.stderr).toBe(0);
    const output = (JSON.parse(run.stdout) as { hookSpecificOutput: { updatedToolOutput: unknown } }).hookSpecificOutput
      .updatedToolOutput;
    expect(output).toEqual([
      { type: 'text', text: expect.stringMatching(/^linkgate withheld the result of tool `lookup`: content\.shape/) },
    ]);
  });

  it('the same JSON string from Codex, which hands the hook the call result, is still withheld whole', async () => {
    const event = {
      session_id: 'c1',
      cwd: '/tmp',
      transcript_path: null,
      model: 'm',
      permission_mode: 'default',
      hook_event_name: 'PostToolUse',
      tool_name: 'mcp__docs__lookup',
      tool_input: {},
      tool_use_id: 'call_lookup',
      tool_response: JSON.stringify({ summary: 'SECRET-BODY' }),
    };
    const run = await hook('codex', event);
    expect(run.code, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('block');
    expect(answer.reason).toMatch(/content\.shape/);
    expect(answer.reason).not.toContain('SECRET-BODY');
  });
});

describe('claude code: a JSON string shaped as a tool result with more members is judged whole', () => {
  it.each([
    ['a member of its own', { content: [{ type: 'text', text: marker }], secret: metadataLink }],
    ['_meta', { content: [{ type: 'text', text: marker }], _meta: { next: metadataLink } }],
    ['isError that is no boolean', { content: [{ type: 'text', text: marker }], isError: { next: metadataLink } }],
  ])('a refused link in %s: refused, never handed on', async (_name, value) => {
    const run = await hook('claude-code', handed(value));
    expect(run.code, run.stderr).toBe(0);
    const shown = replaced(run.stdout);
    expect(shown).toContain('linkgate refused the link');
    expect(shown).not.toContain('169.254.169.254');
  });

  it('a result of only its members is still judged as that result, answered in the same shape', async () => {
    const value = {
      content: [{ type: 'text', text: marker }],
      structuredContent: { next: metadataLink },
      isError: false,
    };
    const run = await hook('claude-code', handed(value));
    expect(run.code, run.stderr).toBe(0);
    const output = (JSON.parse(run.stdout) as { hookSpecificOutput: { updatedToolOutput: unknown } }).hookSpecificOutput
      .updatedToolOutput;
    expect(typeof output).toBe('string');
    expect(String(output)).toContain('linkgate refused the link');
    expect(String(output)).not.toContain('169.254.169.254');
  });
});
