import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { makeElf } from '../fixtures/make-bytes.ts';
import { linkRecordLines, runCli } from '../helpers/run-cli.ts';

// the hook events a real Codex CLI (0.171.0) sent for the fixture server, recorded by the real-host harness
// (test/real-host/codex-cli-smoke.test.ts); run folders and uuids are placeholders there
type Event = Record<string, unknown> & { hook_event_name: string; tool_name: string; tool_use_id: string };
const observed = JSON.parse(
  readFileSync(join(import.meta.dirname, '../real-host/observed/codex/hook-events.json'), 'utf8')
    .replaceAll('<run>', '/tmp/linkgate-codex-run')
    .replaceAll('<uuid>', 'u1'),
) as Event[];
const recorded = (name: string, id: string): Event => {
  const event = observed.find((e) => e.hook_event_name === name && e.tool_use_id === id);
  if (event === undefined) throw new Error(`no recorded ${name} ${id}`);
  return structuredClone(event);
};

/** The recorded read of `call_read_text`, with another uri (and, after the read, Codex's string result for it). */
function readEvent(phase: 'PreToolUse' | 'PostToolUse', uri: string, contents?: unknown[]): Event {
  const event = recorded(phase, 'call_read_text');
  event.tool_input = { server: 'fixture', uri };
  event.tool_use_id = `call_${uri}`;
  if (contents !== undefined) event['tool_response'] = JSON.stringify({ server: 'fixture', uri, contents });
  return event;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-codex-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function hook(event: unknown, policy = 'policies/default.yaml') {
  const args = ['hook', 'codex', '--policy', policy, '--state', join(dir, 'state'), '--records', join(dir, 'r.jsonl')];
  return runCli(args, typeof event === 'string' ? event : JSON.stringify(event));
}
const records = () => linkRecordLines(readFileSync(join(dir, 'r.jsonl'), 'utf8')) as LinkRecord[];
const answerOf = (stdout: string) => JSON.parse(stdout) as Record<string, unknown>;

describe('linkgate hook codex on the events a real Codex CLI sent', () => {
  it('refuses read_mcp_resource of a denied link before the read, with a deny Codex honours', async () => {
    for (const [uri, code] of [
      ['http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'uri.non-public-address'],
      ['file:///etc/passwd', 'uri.scheme-not-allowed'],
    ] as const) {
      const run = await hook(readEvent('PreToolUse', uri));
      expect(run.code, run.stderr).toBe(0);
      const answer = answerOf(run.stdout) as { hookSpecificOutput: Record<string, unknown> };
      expect(answer.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' });
      expect(answer.hookSpecificOutput['permissionDecisionReason']).toContain(code);
    }
    expect(records().map((r) => [r.verdict, r.stages.requested])).toEqual([
      ['link-only', null],
      ['link-only', null],
    ]);
  });

  it('says nothing for an allowed read and its text body, and records it with where it was discovered', async () => {
    // the links tool's result holds a denied link (the metadata address): the result is replaced, that link named
    // in a notice and never handed on as a link; the allowed links stay as they were
    const links = answerOf((await hook(recorded('PostToolUse', 'call_links'))).stdout) as { reason: string };
    const lines = links.reason.split('\n');
    expect(lines[2]).toMatch(/^linkgate refused the link `metadata` \(scheme `http`\): uri\.non-public-address/);
    expect(JSON.parse(lines[1] ?? '')).toMatchObject({ type: 'resource_link', uri: 'fixture://docs/readme.txt' });
    expect(links.reason).not.toContain('"uri":"http://169.254.169.254');
    expect(await hook(recorded('PreToolUse', 'call_read_text'))).toMatchObject({ code: 0, stdout: '' });
    expect(await hook(recorded('PostToolUse', 'call_read_text'))).toMatchObject({ code: 0, stdout: '' });
    const record = records().find((r) => r.uri === 'fixture://docs/readme.txt');
    expect(record).toMatchObject({ uri: 'fixture://docs/readme.txt', verdict: 'body-obtained' });
    expect(record?.stages.discovered).toMatchObject({ server: 'fixture', tool: 'links', contentIndex: 1 });
  });

  it('judges a blob inline in the string tool_response: a valid PNG passes whole', async () => {
    expect(await hook(recorded('PreToolUse', 'call_read_blob'))).toMatchObject({ code: 0, stdout: '' });
    expect(await hook(recorded('PostToolUse', 'call_read_blob'))).toMatchObject({ code: 0, stdout: '' });
    const [record] = records();
    expect(record?.verdict).toBe('body-obtained');
    expect(record?.stages.received?.items[0]).toMatchObject({ carrier: 'blob', kind: 'png' });
  });

  it('blocks a read whose inline blob is an ELF declared as PNG; the reason replaces the whole result', async () => {
    const elf = makeElf().toString('base64');
    const uri = 'fixture://images/photo.png';
    const run = await hook(readEvent('PostToolUse', uri, [{ uri, mimeType: 'image/png', blob: elf }]));
    expect(run.code, run.stderr).toBe(0);
    const answer = answerOf(run.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('block');
    expect(answer.reason).not.toContain(elf.slice(0, 24));
    // what the model reads instead: Codex's own read shape, the withheld item swapped for the notice
    const shown = JSON.parse(answer.reason) as { server: string; uri: string; contents: { text: string }[] };
    expect(shown).toMatchObject({ server: 'fixture', uri });
    expect(shown.contents[0]?.text).toMatch(/^linkgate withheld the body of (?:`[^`]*` )?\(scheme `fixture`\): /);
    expect(shown.contents[0]?.text).toContain('content.executable');
    expect(records()[0]?.verdict).toBe('link-only');
  });

  it('blocks a read of HTML with script', async () => {
    const uri = 'fixture://docs/page';
    const contents = [{ uri, mimeType: 'text/html', text: '<p>hi</p><script>fetch("//evil.example")</script>' }];
    const answer = answerOf((await hook(readEvent('PostToolUse', uri, contents))).stdout) as { reason: string };
    const shown = JSON.parse(answer.reason) as { contents: { text: string }[] };
    expect(shown.contents[0]?.text).toContain('content.executable');
    expect(answer.reason).not.toContain('evil.example');
  });

  it('fails closed on a read result that is not Codex JSON: the result is blocked with the failure as the reason', async () => {
    const event = recorded('PostToolUse', 'call_read_text');
    event['tool_response'] = 'fixture readme: not json';
    const run = await hook(event);
    expect(run.code).toBe(0);
    const answer = answerOf(run.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('block');
    expect(answer.reason).toContain('the hook failed');
    expect(answer.reason).not.toContain('fixture readme');
  });

  it('blocks an MCP tool result with an executable embedded resource; the reason keeps the allowed items', async () => {
    const run = await hook(recorded('PostToolUse', 'call_embedded'));
    const answer = answerOf(run.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('block');
    const [kept, notice] = answer.reason.split('\n');
    expect(JSON.parse(kept ?? '')).toMatchObject({ resource: { uri: 'fixture://embedded/note.txt' } });
    expect(notice).toMatch(/^linkgate withheld the embedded resource \(scheme `fixture`\): /);
    expect(answer.reason).not.toContain('TVqQ');
  });

  it('withholds an MCP tool result item it does not recognise', async () => {
    const event = recorded('PostToolUse', 'call_links');
    event['tool_response'] = {
      content: [
        { type: 'text', text: 'kept' },
        { type: 'widget', payload: '#!/bin/sh' },
      ],
    };
    const answer = answerOf((await hook(event)).stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('block');
    expect(answer.reason).toMatch(/^kept\nlinkgate withheld the embedded resource \(scheme ``\): content\.shape/);
    expect(answer.reason).not.toContain('#!/bin/sh');
  });

  it('applies the declared type of a link Codex passed on before the read (Codex keeps mimeType)', async () => {
    const links = recorded('PostToolUse', 'call_links');
    const uri = 'fixture://bin/setup';
    links['tool_response'] = {
      content: [{ type: 'resource_link', uri, name: 'setup', mimeType: 'application/x-msdownload' }],
    };
    // refused by its declared type when the tool returns it: the model gets the notice, not the link
    const returned = answerOf((await hook(links)).stdout) as { decision: string; reason: string };
    expect(returned.decision).toBe('block');
    expect(returned.reason).toMatch(
      /^linkgate refused the link `setup` \(scheme `fixture`\): type\.declared-not-allowed/,
    );
    const answer = answerOf((await hook(readEvent('PreToolUse', uri))).stdout) as {
      hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string };
    };
    expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
    // the reason by its code; the message quoting the server's declared type is in the record only
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('type.declared-not-allowed');
    expect(answer.hookSpecificOutput.permissionDecisionReason).not.toContain('application/x-msdownload');
    const read = records().find((r) => r.uri === uri && r.stages.requested === null);
    expect(JSON.stringify(read?.decisions.link)).toContain('application/x-msdownload');
  });

  it('takes what list_mcp_resources listed as discovered, with its server (requireDiscovered)', async () => {
    const strict = join(dir, 'discovered.yaml');
    writeFileSync(
      strict,
      readFileSync('policies/default.yaml', 'utf8').replace('requireDiscovered: false', 'requireDiscovered: true'),
    );
    const note = readEvent('PreToolUse', 'fixture://embedded/note.txt');
    expect(answerOf((await hook(note, strict)).stdout)).toMatchObject({
      hookSpecificOutput: { permissionDecision: 'deny' },
    });
    // the listing is handed on without its metadata entry (issue 39): the rest, as the reason that replaces it
    const listed = await hook(recorded('PostToolUse', 'call_list'), strict);
    expect(answerOf(listed.stdout)).toMatchObject({ decision: 'block' });
    expect(listed.stdout).toContain('fixture://docs/readme.txt');
    expect(listed.stdout).not.toContain('169.254.169.254');
    expect(await hook(note, strict)).toMatchObject({ code: 0, stdout: '' });
  });

  it('prints the hooks.json that runs it on read_mcp_resource, list_mcp_resources and MCP tools', async () => {
    const run = await runCli(['hook', 'codex', '--print-config', '--records', 'r.jsonl']);
    expect(run.code, run.stderr).toBe(0);
    const config = JSON.parse(run.stdout) as {
      hooks: Record<string, { matcher: string; hooks: { command: string }[] }[]>;
    };
    const pre = new RegExp(config.hooks['PreToolUse']?.[0]?.matcher ?? '$^');
    const post = new RegExp(config.hooks['PostToolUse']?.[0]?.matcher ?? '$^');
    expect(['read_mcp_resource', 'mcp__fixture__links'].map((t) => pre.test(t))).toEqual([true, false]);
    expect(
      ['read_mcp_resource', 'list_mcp_resources', 'mcp__fixture__get_links', 'exec_command'].map((t) => post.test(t)),
    ).toEqual([true, true, true, false]);
    expect(config.hooks['PreToolUse']?.[0]?.hooks[0]?.command).toMatch(
      /^node \S+linkgate(?:\.js|-cached\.cjs) hook codex --policy /,
    );
  });
});
