// The smoke suite (smoke-suite.ts) with Codex CLI: it reads links with its read_mcp_resource tool, hands the model
// blobs inline, passes hooks the read's result as a JSON string, and a post-read block or exit 2 replaces the whole
// result with its reason.
import { expect } from 'vitest';
import { codexHooks, installCodexCli, runCodexCli } from './codex-cli.ts';
import { type FunctionCallOutput, outputText } from './codex-model-api.ts';
import { smokeSuite } from './smoke-suite.ts';

smokeSuite<FunctionCallOutput>({
  label: 'codex cli',
  observed: 'codex',
  outputEvents: 'exec-json',
  install: () => installCodexCli(),
  run: ({ hookCommand, ...rest }) => runCodexCli({ ...rest, hooks: codexHooks(hookCommand), timeoutMs: 60_000 }),
  callIdPrefix: 'call_',
  tools: {
    links: 'mcp__fixture__links',
    embedded: 'mcp__fixture__embedded',
    read: 'read_mcp_resource',
    list: 'list_mcp_resources',
  },
  readInput: (uri) => ({ server: 'fixture', uri }),
  listInput: { server: 'fixture' },
  events: { pre: 'PreToolUse', post: 'PostToolUse' },
  hooksSeeCallIds: true,
  resultText: outputText,
  turnsShowRead: false,
  embeddedInResult: true,
  async expectReads(run, calls, { readme, logo }) {
    // the logo's bytes reach the model inline; the list names the resources
    expect(outputText(run.toolResults[calls.readBlob])).toContain(logo.marker);
    expect(outputText(run.toolResults[calls.list])).toContain(readme.uri);
  },
  expectHookCalls(events, calls) {
    // a PreToolUse and a PostToolUse for every tool call, in call order, with Codex's tool names
    const seen = events.map(
      (e) => `${String(e['hook_event_name'])} ${String(e['tool_name'])} ${String(e['tool_use_id'])}`,
    );
    expect(seen).toEqual(calls.flatMap((c) => [`PreToolUse ${c.tool} ${c.id}`, `PostToolUse ${c.tool} ${c.id}`]));
  },
  expectReadResponse({ text, blob }, { logo }) {
    // the read's result reaches the hook as a JSON string, blobs inline
    expect(typeof text?.['tool_response']).toBe('string');
    expect(JSON.parse(String(blob?.['tool_response']))).toMatchObject({
      server: 'fixture',
      uri: logo.uri,
      contents: [{ uri: logo.uri, mimeType: 'image/png', blob: logo.bytes?.toString('base64') }],
    });
  },
  denyBeforeRead: (reason) => ({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
  }),
  replaceAfterRead: (_uri, text) => ({ decision: 'block', reason: text }),
  answersTitle:
    'hook answers: a PreToolUse deny and an exit 2 keep the read from the server, a PostToolUse block or exit 2 replaces the result',
  postBlocksWholeResult: true,
});
