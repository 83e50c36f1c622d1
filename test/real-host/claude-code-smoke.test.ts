// The smoke suite (smoke-suite.ts) with the real Claude Code binary: it reads links with ReadMcpResourceTool, saves
// a blob to a file and hands the model its path, and answers hooks with hookSpecificOutput.
import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import { claudeCodeHooks, installClaudeCode, runClaudeCode } from './claude-code.ts';
import type { ToolResultBlock } from './model-api.ts';
import { smokeSuite } from './smoke-suite.ts';

smokeSuite<ToolResultBlock>({
  label: 'claude code',
  observed: 'claude-code',
  outputEvents: 'stream-json',
  install: () => installClaudeCode(),
  run: ({ hookCommand, script, ...rest }) =>
    runClaudeCode({
      ...rest,
      script,
      settings: claudeCodeHooks(hookCommand),
      // the tools the script calls, allowed without asking
      allowedTools: [
        ...new Set(script.flatMap((s) => (typeof s === 'function' ? [] : (s.toolUses ?? [])).map((t) => t.name))),
      ],
      timeoutMs: 120_000,
    }),
  callIdPrefix: 'toolu_',
  tools: {
    links: 'mcp__fixture__links',
    embedded: 'mcp__fixture__embedded',
    read: 'ReadMcpResourceTool',
    list: 'ListMcpResourcesTool',
  },
  readInput: (uri) => ({ server: 'fixture', uri }),
  listInput: { server: 'fixture' },
  events: { pre: 'PreToolUse', post: 'PostToolUse' },
  hooksSeeCallIds: true,
  resultText: (result) => JSON.stringify(result?.content),
  turnsShowRead: true,
  embeddedInResult: false,
  async expectReads(run, calls, { logo }) {
    // the binary body was saved by the host, and the model got the path, not the bytes
    const blob = JSON.parse(String(run.toolResults[calls.readBlob]?.content)) as {
      contents: { uri: string; blobSavedTo?: string }[];
    };
    const saved = blob.contents[0]?.blobSavedTo;
    expect(saved).toBeDefined();
    expect(await readFile(String(saved))).toEqual(logo.bytes);
    expect(JSON.stringify(run.toolResults[calls.readBlob])).not.toContain(logo.marker);
  },
  expectHookCalls(events, calls) {
    // a PreToolUse and a PostToolUse for every tool call
    const seen = events.map((e) => `${String(e['hook_event_name'])} ${String(e['tool_use_id'])}`);
    for (const { id } of calls) expect(seen).toEqual(expect.arrayContaining([`PreToolUse ${id}`, `PostToolUse ${id}`]));
  },
  expectReadResponse({ text }, { readme }) {
    expect(JSON.stringify(text?.['tool_response'])).toContain(readme.marker);
  },
  denyBeforeRead: (reason) => ({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
  }),
  replaceAfterRead: (uri, text) => ({
    hookSpecificOutput: {
      hookEventName: 'PostToolUse',
      updatedToolOutput: { contents: [{ uri, mimeType: 'text/plain', text }] },
    },
  }),
  answersTitle:
    'hook answers: a PreToolUse deny and an exit 2 keep the read from the server, updatedToolOutput replaces the body',
  postBlocksWholeResult: false,
  isError: (result) => result?.is_error,
});
