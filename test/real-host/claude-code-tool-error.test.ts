// Claude Code and an MCP tool that answers `isError: true` (issue 39 item 5): the real binary, offline, a scripted
// model calling the tool of failing-tool-server.ts, whose error text names the cloud metadata address and holds a
// `resource_link` to it. Claude Code runs no `PostToolUse` for it but `PostToolUseFailure`, its `error` the result's
// text with the link written `[Resource link: NAME] URI`, and hands the model that text. A `PostToolUseFailure` answer
// can only add `additionalContext` (the 2.1.332 binary's own answer schema): `continue: false` with it does not keep
// the error from the model, so no hook can withhold a refused link there. With `linkgate proxy` in front of the server
// (the printed `--server` set-up) the refused link and the text naming its address never reach the model.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { answeringCommand, claudeCodeHooks, installClaudeCode, recordedEvents, runClaudeCode } from './claude-code.ts';
import { failingAddress } from './failing-tool-server.ts';
import { repoRoot } from '../sdk/fake-gate.ts';
import { tsServerCommand } from './fixture-process.ts';
import { realHostSuite } from './host-suite.ts';

const host = realHostSuite('claude code', () => installClaudeCode());
const serverFile = path.join(import.meta.dirname, 'failing-tool-server.ts');
const address = '169.254.169.254';
const script = [{ toolUses: [{ id: 'toolu_fail', name: 'mcp__failing__fail', input: {} }] }, { text: 'done' }];
const events = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'];

describe('claude code: an MCP tool answering isError', () => {
  test('runs PostToolUseFailure with the error text, and its answer cannot keep that text from the model', {
    timeout: 240_000,
  }, async (ctx) => {
    host.require(ctx);
    const logs = await host.scratch('linkgate-tool-error-');
    const log = path.join(logs, 'events.jsonl');
    // the strongest answer the event takes: stop, and a context for the model
    const answer = {
      continue: false,
      stopReason: 'linkgate withheld the error',
      hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'CONTEXT-7f3a' },
    };
    const command = await answeringCommand(
      path.join(logs, 'answers.json'),
      { 'PostToolUseFailure toolu_fail': { stdout: answer } },
      log,
    );
    const [node, ...args] = tsServerCommand(serverFile) as [string, ...string[]];
    const run = await runClaudeCode({
      mcpServers: { failing: { command: node, args } },
      settings: claudeCodeHooks(command, events),
      prompt: 'call the failing tool',
      script,
      allowedTools: ['mcp__failing__fail'],
      timeoutMs: 180_000,
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    const seen = (await recordedEvents(log)).filter((e) => e['tool_use_id'] === 'toolu_fail');
    expect(seen.map((e) => e['hook_event_name'])).toEqual(['PreToolUse', 'PostToolUseFailure']);
    expect(seen[1]?.['error']).toContain(`[Resource link: creds] ${failingAddress}`);
    // the model was asked again, with the error as the tool's result and the hook's context beside it
    const asked = JSON.stringify(run.modelRequests.at(-1)?.body ?? null);
    expect(run.toolResults['toolu_fail']?.is_error).toBe(true);
    expect(asked).toContain('CONTEXT-7f3a');
    expect(asked).toContain(`[Resource link: creds] ${failingAddress}`);
  });

  test('with linkgate proxy in front of the server, the refused link never reaches the model', {
    timeout: 240_000,
  }, async (ctx) => {
    host.require(ctx);
    const logs = await host.scratch('linkgate-tool-error-proxy-');
    // this checkout's `linkgate proxy` (its source, under tsx) before the failing server
    const [node, ...proxy] = tsServerCommand(path.join(repoRoot, 'src/cli/main.ts')) as [string, ...string[]];
    proxy.push('proxy', '--policy', path.join(repoRoot, 'policies/default.yaml'), '--server', 'failing');
    proxy.push('--records', path.join(logs, 'records.jsonl'), '--', ...tsServerCommand(serverFile));
    const run = await runClaudeCode({
      mcpServers: { failing: { command: node, args: proxy } },
      prompt: 'call the failing tool',
      script,
      allowedTools: ['mcp__failing__fail'],
      timeoutMs: 180_000,
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    const result = JSON.stringify(run.toolResults['toolu_fail'] ?? null);
    expect(result).toContain('linkgate refused the link');
    expect(JSON.stringify(run.modelRequests.map((r) => r.body))).not.toContain(address);
  });
});
