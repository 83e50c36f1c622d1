// A handler option that makes a hook no gate, checked against the real binaries: a pre-tool hook that denies a read,
// with and without `async: true`. The read reaches the server exactly when the host's description
// (`handlerNotGating`) says the handler is no gate.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { claudeCode } from '../../src/hosts/claude-code.ts';
import { codex } from '../../src/hosts/codex.ts';
import { answeringCommand, installClaudeCode, runClaudeCode } from '../real-host/claude-code.ts';
import { installCodexCli, runCodexCli } from '../real-host/codex-cli.ts';
import { fixtureServer, serverReads } from '../real-host/fixture-process.ts';
import { fixtureNamed } from '../real-host/fixture-resources.ts';
import { realHostSuite } from '../real-host/host-suite.ts';

const { readme } = fixtureNamed;
const deny = {
  stdout: {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: 'refused by the test',
    },
  },
};

describe('`async: true` makes a pre-tool hook no gate, as the descriptions say', () => {
  const claude = realHostSuite('claude code', () => installClaudeCode());
  const codexSuite = realHostSuite('codex cli', () => installCodexCli());

  test.for([false, true])('claude code, async %s', { timeout: 240_000 }, async (async, ctx) => {
    claude.require(ctx);
    const dir = await claude.scratch('linkgate-hosts-async-claude-');
    const requests = path.join(dir, 'requests.jsonl');
    const command = await answeringCommand(
      path.join(dir, 'answers.json'),
      { 'PreToolUse ReadMcpResourceTool': deny },
      path.join(dir, 'events.jsonl'),
    );
    const handler = { type: 'command', command, timeout: 30, ...(async ? { async: true } : {}) };
    const run = await runClaudeCode({
      mcpServers: { fixture: fixtureServer(requests) },
      settings: { hooks: { PreToolUse: [{ matcher: 'ReadMcpResourceTool', hooks: [handler] }] } },
      prompt: 'read the readme',
      allowedTools: ['ReadMcpResourceTool'],
      script: [
        { toolUses: [{ name: 'ReadMcpResourceTool', input: { server: 'fixture', uri: readme.uri } }] },
        { text: 'done' },
      ],
    });
    claude.defer(() => run.cleanup());
    expect(run.exitCode, run.stderr).toBe(0);
    const read = (await serverReads(requests)).includes(readme.uri);
    console.log(`claude code async ${async}: the denied read reached the server: ${read}`);
    expect(read).toBe(claudeCode.handlerNotGating(handler) !== undefined);
  });

  test.for([false, true])('codex, async %s', { timeout: 240_000 }, async (async, ctx) => {
    codexSuite.require(ctx);
    const dir = await codexSuite.scratch('linkgate-hosts-async-codex-');
    const requests = path.join(dir, 'requests.jsonl');
    const command = await answeringCommand(
      path.join(dir, 'answers.json'),
      { 'PreToolUse read_mcp_resource': deny },
      path.join(dir, 'events.jsonl'),
    );
    const handler = { type: 'command', command, timeout: 30, ...(async ? { async: true } : {}) };
    const run = await runCodexCli({
      mcpServers: { fixture: fixtureServer(requests) },
      hooks: { hooks: { PreToolUse: [{ matcher: 'read_mcp_resource', hooks: [handler] }] } },
      prompt: 'read the readme',
      script: [
        { toolUses: [{ id: 'call_read', name: 'read_mcp_resource', input: { server: 'fixture', uri: readme.uri } }] },
        { text: 'done' },
      ],
      timeoutMs: 120_000,
    });
    codexSuite.defer(() => run.cleanup());
    expect(run.exitCode, run.stderr).toBe(0);
    const read = (await serverReads(requests)).includes(readme.uri);
    console.log(`codex async ${async}: the denied read reached the server: ${read}`);
    expect(read).toBe(codex.handlerNotGating(handler) !== undefined);
  });
});
