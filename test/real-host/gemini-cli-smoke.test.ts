// The smoke suite (smoke-suite.ts) with Gemini CLI: it reads links with its read_mcp_resource tool (no server
// argument), names MCP tools `mcp_<server>_<tool>`, fires BeforeTool and AfterTool hooks without a call id, and an
// AfterTool deny replaces the body.
import { expect } from 'vitest';
import { geminiCliHooks, installGeminiCli, runGeminiCli } from './gemini-cli.ts';
import type { FunctionResponsePart } from './gemini-model-api.ts';
import { smokeSuite } from './smoke-suite.ts';

smokeSuite<FunctionResponsePart>({
  label: 'gemini cli',
  observed: 'gemini-cli',
  outputEvents: 'stream-json',
  install: () => installGeminiCli(),
  run: ({ hookCommand, ...rest }) =>
    runGeminiCli({ ...rest, settings: geminiCliHooks(hookCommand), timeoutMs: 120_000 }),
  callIdPrefix: 'call_',
  tools: {
    links: 'mcp_fixture_links',
    embedded: 'mcp_fixture_embedded',
    read: 'read_mcp_resource',
    list: 'list_mcp_resources',
  },
  readInput: (uri) => ({ uri }),
  listInput: { serverName: 'fixture' },
  events: { pre: 'BeforeTool', post: 'AfterTool' },
  hooksSeeCallIds: false,
  resultText: (result) => JSON.stringify(result?.response),
  turnsShowRead: true,
  embeddedInResult: true,
  async expectReads() {
    // nothing more than the suite's checks: Gemini CLI hands the model no blob path or list text worth pinning
  },
  expectHookCalls(events, calls) {
    // a BeforeTool and an AfterTool for every tool call but the list, in call order
    const seen = events.map((e) => `${String(e['hook_event_name'])} ${String(e['tool_name'])}`);
    const tools = calls.slice(0, 4).map((c) => c.tool);
    expect(seen.slice(0, 8)).toEqual(tools.flatMap((t) => [`BeforeTool ${t}`, `AfterTool ${t}`]));
  },
  expectReadResponse({ text }, { readme }) {
    expect(JSON.stringify(text?.['tool_response'])).toContain(readme.marker);
  },
  denyBeforeRead: (reason) => ({ decision: 'deny', reason }),
  replaceAfterRead: (_uri, text) => ({ decision: 'deny', reason: text }),
  answersTitle:
    'hook answers: a BeforeTool deny and an exit 2 keep the read from the server, an AfterTool deny replaces the body',
  postBlocksWholeResult: false,
});
