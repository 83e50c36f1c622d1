import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { makeElf } from '../fixtures/make-bytes.ts';
import { linkRecordLines, runCli } from '../helpers/run-cli.ts';
import { readRequested, readReturned, toolReturned } from './hook-events.ts';

let dir: string;
let savedDir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-failclosed-'));
  savedDir = join(dir, 'session', 'tool-results');
  mkdirSync(savedDir, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const transcript = () => join(dir, 'session.jsonl');
const recordsFile = () => join(dir, 'records.jsonl');
const records = (): LinkRecord[] =>
  existsSync(recordsFile()) ? (linkRecordLines(readFileSync(recordsFile(), 'utf8')) as LinkRecord[]) : [];

async function hook(event: unknown, options: { policy?: string; host?: string; extra?: string[] } = {}) {
  const args = ['hook', options.host ?? 'claude-code', '--policy', options.policy ?? 'policies/default.yaml'];
  args.push('--state', join(dir, 'state'), '--records', recordsFile(), ...(options.extra ?? []));
  return runCli(args, typeof event === 'string' ? event : JSON.stringify(event));
}

function brokenPolicy(): string {
  const policy = join(dir, 'broken.yaml');
  writeFileSync(policy, 'id: [oops');
  return policy;
}

const geminiAfter = (response: unknown) => ({
  session_id: 'g1',
  hook_event_name: 'AfterTool',
  tool_name: 'mcp_docs_get',
  tool_input: {},
  tool_response: response,
});
const cursorAfter = {
  conversation_id: 'c1',
  hook_event_name: 'afterMCPExecution',
  tool_name: 'get',
  tool_input: '{}',
  result_json: JSON.stringify({ content: [{ type: 'text', text: 'SECRET-BODY' }] }),
};

describe('a post-event that fails is answered with the whole result withheld, not exit 2', () => {
  it('claude code: a read result the hook cannot read', async () => {
    const run = await hook({ ...readReturned('docs', 'guide://a', []), tool_response: { text: 'SECRET-BODY' } });
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout).hookSpecificOutput;
    expect(output.hookEventName).toBe('PostToolUse');
    expect(output.updatedToolOutput.contents).toEqual([
      {
        uri: 'guide://a',
        mimeType: 'text/plain',
        text: expect.stringContaining('the hook failed: field `tool_response.contents`'),
      },
    ]);
    expect(run.stdout).not.toContain('SECRET-BODY');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('claude code: a policy that does not load; the saved files of the result are deleted', async () => {
    const saved = join(savedDir, 'mcp-docs-blob-1.bin');
    writeFileSync(saved, makeElf());
    const event = toolReturned(
      'docs',
      'get',
      [
        {
          type: 'text',
          text: `[Resource from docs at guide://x] Binary content (application/octet-stream, 64 bytes) saved to ${saved}`,
        },
      ],
      { transcript: transcript() },
    );
    const run = await hook(event, { policy: brokenPolicy() });
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout).hookSpecificOutput.updatedToolOutput;
    expect(output).toEqual([{ type: 'text', text: expect.stringMatching(/the hook failed: .*broken\.yaml:1:/) }]);
    expect(existsSync(saved)).toBe(false);
  });

  it('claude code: a read whose blobSavedTo file lies in the session folder is deleted when the state is unreadable', async () => {
    const saved = join(savedDir, 'mcp-resource-1.png');
    writeFileSync(saved, makeElf());
    writeFileSync(join(dir, 'state'), 'not a folder');
    const event = readReturned('docs', 'guide://a', [{ uri: 'guide://a', mimeType: 'image/png', blobSavedTo: saved }], {
      transcript: transcript(),
    });
    const run = await hook(event);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).hookSpecificOutput.updatedToolOutput.contents[0].text).toContain('the hook failed');
    expect(existsSync(saved)).toBe(false);
  });

  it('gemini cli: an AfterTool is denied with the failure as the reason', async () => {
    const run = await hook(geminiAfter({ llmContent: 'SECRET-BODY' }), { policy: brokenPolicy(), host: 'gemini-cli' });
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout);
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toContain('the hook failed');
    expect(run.stdout).not.toContain('SECRET-BODY');
  });

  it('cursor: afterMCPExecution gets its output replaced', async () => {
    const run = await hook(cursorAfter, { policy: brokenPolicy(), host: 'cursor' });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).updated_mcp_tool_output).toEqual([
      { type: 'text', text: expect.stringContaining('the hook failed') },
    ]);
  });

  it('pre-events and garbage still exit 2 (every host blocks the call on it)', async () => {
    expect((await hook(readRequested('docs', 'guide://a'), { policy: brokenPolicy() })).code).toBe(2);
    expect((await hook('not json')).code).toBe(2);
    expect(
      (
        await hook(
          { ...geminiAfter({}), hook_event_name: 'BeforeTool' },
          { policy: brokenPolicy(), host: 'gemini-cli' },
        )
      ).code,
    ).toBe(2);
  });
});

describe('--mode observe', () => {
  it('answers nothing, deletes nothing, and records wouldDeny for a denied read and a withheld body', async () => {
    const observe = { extra: ['--mode', 'observe'] };
    const metadata = 'http://169.254.169.254/latest/meta-data/';
    const pre = await hook(readRequested('docs', metadata, { toolUseId: 'toolu_m' }), observe);
    expect(pre).toMatchObject({ code: 0, stdout: '' });
    const body = [{ uri: metadata, mimeType: 'text/plain', text: 'key' }];
    expect(await hook(readReturned('docs', metadata, body, { toolUseId: 'toolu_m' }), observe)).toMatchObject({
      code: 0,
      stdout: '',
    });
    const uri = 'guide://tool';
    const saved = join(savedDir, 'mcp-resource-2.png');
    writeFileSync(saved, makeElf());
    await hook(readRequested('docs', uri, { toolUseId: 'toolu_t' }), observe);
    const post = await hook(
      readReturned('docs', uri, [{ uri, mimeType: 'image/png', blobSavedTo: saved }], {
        toolUseId: 'toolu_t',
        transcript: transcript(),
      }),
      observe,
    );
    expect(post).toMatchObject({ code: 0, stdout: '' });
    expect(existsSync(saved)).toBe(true);
    const got = records();
    expect(got.map((r) => [r.mode, r.wouldDeny, r.decisions.link.effect])).toEqual([
      ['observe', true, 'deny'],
      ['observe', true, 'allow'],
    ]);
    expect(got[1]?.decisions.read?.effect).toBe('deny');
    for (const r of got) expect(recordViolations(r)).toEqual([]);
  });

  it('a failure answers nothing either', async () => {
    const run = await hook(readReturned('docs', 'guide://a', []), {
      policy: brokenPolicy(),
      extra: ['--mode', 'observe'],
    });
    expect(run).toMatchObject({ code: 0, stdout: '' });
  });
});

describe('hook records carry the host, its session and tool-use ids', () => {
  it('names the call that returned the link and the read', async () => {
    const uri = 'guide://manuals/packing';
    await hook(
      toolReturned('docs', 'find', [{ type: 'resource_link', uri, name: 'p' }], {
        session: 's9',
        toolUseId: 'toolu_find',
      }),
    );
    await hook(readRequested('docs', uri, { session: 's9', toolUseId: 'toolu_read' }));
    await hook(
      readReturned('docs', uri, [{ uri, mimeType: 'text/plain', text: 'fold' }], {
        session: 's9',
        toolUseId: 'toolu_read',
      }),
    );
    expect(records()[0]?.host).toEqual({
      name: 'claude-code',
      session: 's9',
      toolUseIds: { discovered: 'toolu_find', requested: 'toolu_read' },
    });
  });
});

describe('--print-config for every host', () => {
  const print = (host: string, ...extra: string[]) => runCli(['hook', host, '--print-config', ...extra]);

  it.each([
    ['claude-code', ['hooks', 'PreToolUse']],
    ['codex', ['hooks', 'PreToolUse']],
    ['gemini-cli', ['hooks', 'BeforeTool']],
    ['cursor', ['hooks', 'beforeMCPExecution']],
  ])('%s: a block whose command runs the installed bundle by its absolute path', async (host, path) => {
    const run = await print(host, '--policy', 'policies/strict.yaml', '--records', 'r.jsonl', '--mode', 'observe');
    expect(run.code, run.stderr).toBe(0);
    const config = JSON.parse(run.stdout) as Record<string, Record<string, unknown[]>>;
    const entries = config[path[0] as string]?.[path[1] as string] as Record<string, unknown>[];
    const command = String(
      (entries[0]?.['hooks'] as { command: string }[] | undefined)?.[0]?.command ?? entries[0]?.['command'],
    );
    expect(command).toMatch(
      new RegExp(
        `^node /\\S+/dist/bin/linkgate-cached\\.cjs hook ${host} --policy /\\S+/policies/strict\\.yaml --records /\\S+/r\\.jsonl --mode observe$`,
      ),
    );
    expect(run.stdout).not.toContain('npx');
  });

  it('refuses a policy that does not load (file:line:col) or does not exist, with exit 2', async () => {
    const broken = await print('gemini-cli', '--policy', brokenPolicy());
    expect(broken.code).toBe(2);
    expect(broken.stdout).toBe('');
    expect(broken.stderr).toMatch(/broken\.yaml:1:\d+: /);
    const missing = await print('claude-code', '--policy', join(dir, 'nowhere.yaml'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nowhere.yaml');
  });
});
