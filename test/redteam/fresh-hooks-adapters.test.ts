// Red team (issue 39, fresh session 3), hooks and adapters: the hook command (its own process entry, in process) on
// the event shapes each host sends (test/hook/hook-events.ts, the observed Codex and Gemini CLI shapes), and the
// in-process framework adapters as docs/frameworks.md has a user paste them. Refused links in structuredContent
// strings and keys (Codex hands the model `structuredContent`), a rendered link line named by its uri read back, a
// Claude Code result of many lines each split as often as the cap allows, and a web fetch of the metadata address
// spelled as other parsers read it.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { claudeAgentHooks } from '../../src/frameworks/claude-agent-hooks.ts';
import { copilotSdkHooks } from '../../src/frameworks/copilot-sdk-hooks.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { answerEvent } from '../../src/resident/resident-answer.ts';
import { ResidentStates } from '../../src/resident/resident-states.ts';
import { codexToolReturned, readRequested, readReturned, toolReturned } from '../hook/hook-events.ts';
import { runCli } from '../helpers/run-cli.ts';
import { hookArgs, hookScratch } from '../hook/hook-args.ts';

const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
const hostPath = '169.254.169.254/latest';
const link = (uri: string, name = 'creds') => ({ type: 'resource_link', uri, name });

const scratch = hookScratch('linkgate-redteam-hooks-');
const hook = (host: string, event: unknown) => scratch.hook(host, event);

describe('red team, hooks (fresh): Codex hands the model structuredContent', () => {
  test('a refused link in content, its uri inside a JSON string of structuredContent', async () => {
    const run = await hook(
      'codex',
      codexToolReturned({
        content: [link(metadata)],
        structuredContent: { raw: JSON.stringify({ next: { uri: metadata } }) },
      }),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toBe('');
    expect(run.stdout).not.toContain(hostPath);
  });

  test('structuredContent alone, a map keyed by the refused uri beside its link object', async () => {
    const run = await hook(
      'codex',
      codexToolReturned({
        content: [],
        structuredContent: { links: [link(metadata)], byUri: { [metadata]: { role: 'x' } } },
      }),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toBe('');
    expect(run.stdout).not.toContain(hostPath);
  });
});

describe('red team, hooks (fresh): notices and cost of rendered lines', () => {
  test('Gemini CLI: a `Resource Link:` part whose name is the refused uri percent-encoded', async () => {
    const name = encodeURIComponent(metadata);
    // Gemini CLI's observed AfterTool of an MCP tool, its parts replaced
    const events = JSON.parse(
      readFileSync(join(import.meta.dirname, '../real-host/observed/gemini-cli/hook-events.json'), 'utf8'),
    ) as unknown;
    const list = (Array.isArray(events) ? events : Object.values(events as object)) as Record<string, unknown>[];
    const observed = list.find((e) => e['hook_event_name'] === 'AfterTool' && e['tool_name'] === 'mcp_fixture_links');
    expect(observed).toBeDefined();
    const event = structuredClone(observed) as Record<string, unknown>;
    event['tool_response'] = {
      ...(event['tool_response'] as object),
      llmContent: [{ text: `Resource Link: ${name} at ${metadata}` }],
    };
    const run = await hook('gemini-cli', event);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toBe('');
    expect(run.stdout).not.toContain(hostPath);
    expect(run.stdout).not.toMatch(/169\.254\.169\.254%2Flatest/i);
  });

  test('Claude Code: 2 000 rendered lines, each split as often as the cap allows, then a refused one', {
    timeout: 60_000,
  }, async () => {
    // each line may stand for 63 links (`] ` and ` (` splits): under the per-line cap of 64, so each is judged
    const line = (i: number) => `[Resource link: n${i}${'] rt://a ('.repeat(31)}] rt://docs/${i}`;
    const items = Array.from({ length: 2000 }, (_, i) => ({ type: 'text', text: line(i) }));
    items.push({ type: 'text', text: `[Resource link: creds] ${metadata}` });
    const run = await hook('claude-code', toolReturned('fixture', 'links', items));
    console.info(`[measure] 2 000 split lines through the claude-code hook: ${run.elapsedMs} ms`);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toBe('');
    expect(run.stdout).not.toContain(hostPath);
  });
});

describe('red team, adapters (fresh): the in-process hooks as pasted', () => {
  test('Claude Agent SDK hooks: a result whose only refused uri is a structuredContent key', async () => {
    const hooks = claudeAgentHooks({
      policy: 'policies/default.yaml',
      records: callbackSink(() => undefined),
      stateDir: join(scratch.dir, 'state'),
    });
    const event = {
      ...toolReturned('a', 'result', []),
      tool_response: {
        content: [link(metadata)],
        structuredContent: { [metadata]: { role: 'x' } },
      },
    };
    const answer = await hooks.PostToolUse[0]?.hooks[0]?.(event, 'toolu_1', { signal: new AbortController().signal });
    expect(JSON.stringify(answer)).not.toBe('{}');
    expect(JSON.stringify(answer)).not.toContain(hostPath);
  });

  // the metadata address as other parsers spell it: each is 169.254.169.254 to WHATWG URL or to inet_aton
  const spellings = [
    'http://0xa9fea9fe/latest/meta-data/',
    'http://2852039166/latest/meta-data/',
    'http://0251.0376.0251.0376/latest/meta-data/',
    'http://169.254.169.254./latest/meta-data/',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'HTTP://169.254.169.254/latest/meta-data/',
    'http://docs.example.com@169.254.169.254/latest/meta-data/',
    'http:\\\\169.254.169.254\\latest\\meta-data\\',
    'http://169.254.169.254%2F@docs.example.com/',
  ];
  test('Copilot SDK hooks: a web fetch of the metadata address, however spelled, is denied', async () => {
    const hooks = copilotSdkHooks({
      policy: 'policies/default.yaml',
      records: callbackSink(() => undefined),
      stateDir: join(scratch.dir, 'state'),
    });
    const allowed: string[] = [];
    for (const url of spellings) {
      const input = {
        sessionId: 's1',
        timestamp: new Date(),
        workingDirectory: '/tmp',
        toolName: 'web_fetch',
        toolArgs: { url },
      };
      const answer = await hooks.onPreToolUse(input, { sessionId: 's1' });
      if (answer?.permissionDecision !== 'deny') allowed.push(url);
    }
    expect(allowed).toEqual([]);
  });
});

describe('red team, hooks (fresh): order and the state folder', () => {
  test("Claude Code: a read answer whose item is another resource's (the metadata address) is withheld", async () => {
    const safe = 'rt://docs/a.md';
    await hook('claude-code', toolReturned('docs', 'links', [link(safe, 'a')]));
    const swapped = [{ uri: metadata, mimeType: 'text/plain', text: 'SWAPPED-BODY-77' }];
    const run = await hook('claude-code', readReturned('docs', safe, swapped));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('SWAPPED-BODY-77');
  });

  // The command hook's session state is files the gated agent (same user) can remove: once they are gone, a link
  // another server listed reads as one no tool result listed. Where the resident hook runs (docs/resident-hook.md) the
  // state the read is decided on is the server's memory, which the agent cannot reach; with command hooks alone it
  // holds only under `hook.requireDiscovered: true`, and with the default policy it cannot (docs/hooks.md says so).
  const removeState = () => {
    // the agent's shell: `rm -rf ~/.cache/linkgate/hook/*`
    for (const entry of readdirSync(join(scratch.dir, 'state')))
      rmSync(join(scratch.dir, 'state', entry), { recursive: true });
  };
  const uri = 'vault://keys/prod';

  test('Claude Code with the resident hook: removing the state files leaves the server check in place', async () => {
    const gate = createGate(await loadPolicy('policies/default.yaml'));
    const handling = {
      gate: () => gate,
      states: new ResidentStates(),
      deadlineMs: 10_000,
      record: async () => undefined,
    };
    // the printed set-up: a tool result goes to the command hook and to the resident server
    const returned = toolReturned('evil', 'links', [link(uri, 'key')]);
    await hook('claude-code', returned);
    expect(await answerEvent(JSON.stringify(returned), handling)).toEqual({ status: 200, body: '{}' });
    removeState();
    const read = await answerEvent(JSON.stringify(readRequested('vault', uri)), handling);
    expect(JSON.parse(read.body).hookSpecificOutput.permissionDecisionReason).toContain('server.mismatch');
  });

  test('Claude Code, command hooks alone: removed state files lift the server check under the default policy, not under `hook.requireDiscovered: true`', async () => {
    await hook('claude-code', toolReturned('evil', 'links', [link(uri, 'key')]));
    expect((await hook('claude-code', readRequested('vault', uri))).stdout).toContain('server.mismatch');
    removeState();
    // the documented limit: to the hook the session is a new one, and the link one no tool result listed
    expect((await hook('claude-code', readRequested('vault', uri))).stdout).not.toContain('permissionDecision');
    const strict = join(scratch.dir, 'strict.yaml');
    writeFileSync(
      strict,
      readFileSync('policies/default.yaml', 'utf8').replace('requireDiscovered: false', 'requireDiscovered: true'),
    );
    const args = hookArgs('claude-code', scratch.dir).map((a) => (a === 'policies/default.yaml' ? strict : a));
    await runCli(args, JSON.stringify(toolReturned('evil', 'links', [link(uri, 'key')])));
    removeState();
    const after = await runCli(args, JSON.stringify(readRequested('vault', uri)));
    expect(after.stdout).toContain('link.not-discovered');
  });
});
