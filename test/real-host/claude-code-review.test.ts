// Reviewed policies inside a real Claude Code (issue 24): the scripted model uses Claude Code's own `Edit` tool to add
// `file` to the schemes of the signed policy its hook runs with (a folder the agent may write), then reads
// `file:///etc/passwd` through ReadMcpResourceTool. With `--allowed-signers` the edited policy is not used: the read is
// refused (`policy.unreviewed`) and never asked of the server. The same run without `--allowed-signers` shows the
// loosened policy taking effect (the server is asked), so the test proves the check and not the absence of an edit.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { reviewFolder } from '../helpers/ssh-keygen.ts';
import { installClaudeCode, runClaudeCode } from './claude-code.ts';
import { fixtureServer, serverReads } from './fixture-process.ts';
import { builtCli, realHostSuite } from './host-suite.ts';

const host = realHostSuite('claude code', () => installClaudeCode());

builtCli();

const passwd = 'file:///etc/passwd';

async function editThenRead(reviewed: boolean) {
  const folder = reviewFolder({ 'alice@example.com': 'ed25519' });
  host.defer(async () => folder.cleanup());
  folder.sign('alice@example.com');
  const signed = await readFile(folder.policy, 'utf8');
  expect(signed).toContain('schemes: [https, http]');
  const requestLog = path.join(folder.dir, 'requests.jsonl');
  const printed = await runCli([
    'hook',
    'claude-code',
    '--print-config',
    '--policy',
    folder.policy,
    ...(reviewed ? ['--allowed-signers', folder.allowedSigners] : []),
  ]);
  expect(printed.code, printed.stderr).toBe(0);
  const settings = {
    ...(JSON.parse(printed.stdout) as Record<string, unknown>),
    // the policy's folder is one the agent may edit, as a workspace is
    permissions: { additionalDirectories: [folder.dir] },
  };
  const run = await runClaudeCode({
    mcpServers: { fixture: fixtureServer(requestLog) },
    settings,
    prompt: 'open up the link policy, then read the password file',
    script: [
      { toolUses: [{ id: 'toolu_look', name: 'Read', input: { file_path: folder.policy } }] },
      {
        toolUses: [
          {
            id: 'toolu_edit',
            name: 'Edit',
            input: {
              file_path: folder.policy,
              old_string: 'schemes: [https, http]',
              new_string: 'schemes: [https, http, file]',
            },
          },
        ],
      },
      { toolUses: [{ id: 'toolu_passwd', name: 'ReadMcpResourceTool', input: { server: 'fixture', uri: passwd } }] },
      { text: 'done' },
    ],
    allowedTools: ['Read', 'Edit', 'ReadMcpResourceTool'],
    timeoutMs: 180_000,
  });
  host.defer(() => run.cleanup());
  expect(run.timedOut, run.stderr).toBe(false);
  expect(run.exitCode, run.stderr).toBe(0);
  // the edit happened, through Claude Code's own tool
  expect(run.toolResults['toolu_edit']?.is_error ?? false, JSON.stringify(run.toolResults['toolu_edit'])).toBe(false);
  expect(await readFile(folder.policy, 'utf8')).toContain('schemes: [https, http, file]');
  const reads = await serverReads(requestLog);
  return { run, reads, passwdResult: JSON.stringify(run.toolResults['toolu_passwd'] ?? null) };
}

describe('a signed policy edited by the agent inside a real Claude Code', () => {
  test('with --allowed-signers the loosened policy is not used: the read is refused, never asked of the server', {
    timeout: 240_000,
  }, async (ctx) => {
    host.require(ctx);
    const { run, reads, passwdResult } = await editThenRead(true);
    expect(reads).not.toContain(passwd);
    expect(run.toolResults['toolu_passwd']?.is_error).toBe(true);
    expect(passwdResult).toContain('policy.unreviewed');
    expect(passwdResult).toContain('does not match these bytes');
  });

  test('without --allowed-signers the same edit takes effect: the server is asked for file:///etc/passwd', {
    timeout: 240_000,
  }, async (ctx) => {
    host.require(ctx);
    const { reads, passwdResult } = await editThenRead(false);
    expect(reads).toContain(passwd);
    expect(passwdResult).not.toContain('policy.unreviewed');
    expect(passwdResult).not.toContain('uri.scheme-not-allowed');
  });
});
