import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { fixtureResources } from '../real-host/fixture-resources.ts';
import { linkRecordLines, runCli } from '../helpers/run-cli.ts';

// the hook events a real Claude Code (2.1.332) sent for the fixture server, recorded by the real-host harness;
// run folders, uuids and file stamps are placeholders there, filled in here
const observedFile = join(import.meta.dirname, '../real-host/observed/claude-code/hook-events.json');
const run = mkdtempSync(join(tmpdir(), 'linkgate-observed-'));
afterAll(() => rmSync(run, { recursive: true, force: true }));

type Event = Record<string, unknown> & { hook_event_name: string; tool_name: string; tool_use_id: string };
const events = JSON.parse(
  readFileSync(observedFile, 'utf8').replaceAll('<run>', run).replaceAll('<uuid>', 'u1').replaceAll('<stamp>', '1'),
) as Event[];
const recordsFile = join(run, 'records.jsonl');

async function hook(event: Event) {
  const args = [
    'hook',
    'claude-code',
    '--policy',
    'policies/default.yaml',
    '--state',
    join(run, 'state'),
    '--records',
    recordsFile,
  ];
  return runCli(args, JSON.stringify(event));
}

/** Writes the bytes the host saved for `uri` where the event says it saved them. */
function saveBody(path: string, uri: string): void {
  const bytes = fixtureResources.get(uri)?.bytes;
  if (bytes === undefined) throw new Error(`no fixture bytes for ${uri}`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes);
}

const find = (name: string, tool: string, id: string) =>
  events.find((e) => e.hook_event_name === name && e.tool_name === tool && e.tool_use_id === id) as Event;

describe('linkgate hook claude-code on the events a real Claude Code sent', () => {
  it('has the recorded events', () => {
    expect(events.length).toBeGreaterThanOrEqual(10);
  });

  it('keeps the links of the links tool, lets the allowed reads through and records them', async () => {
    expect(await hook(find('PreToolUse', 'mcp__fixture__links', 'toolu_links'))).toMatchObject({ code: 0, stdout: '' });
    // the denied metadata link is replaced by the notice naming it (and recorded); the other links stay
    const links = await hook(find('PostToolUse', 'mcp__fixture__links', 'toolu_links'));
    const output = (JSON.parse(links.stdout) as { hookSpecificOutput: { updatedToolOutput: { text: string }[] } })
      .hookSpecificOutput.updatedToolOutput;
    expect(output.map((i) => i.text.slice(0, 34))).toEqual([
      '5 links follow',
      '[Resource link: readme] fixture://',
      'linkgate refused the link `metadat',
      '[Resource link: photo] fixture://i',
      '[Resource link: banner] fixture://',
      '[Resource link: logo] fixture://im',
    ]);
    expect(await hook(find('PreToolUse', 'ReadMcpResourceTool', 'toolu_read_text'))).toMatchObject({
      code: 0,
      stdout: '',
    });
    expect(await hook(find('PostToolUse', 'ReadMcpResourceTool', 'toolu_read_text'))).toMatchObject({
      code: 0,
      stdout: '',
    });

    const blob = find('PostToolUse', 'ReadMcpResourceTool', 'toolu_read_blob');
    const item = (blob['tool_response'] as { contents: { blobSavedTo: string; uri: string }[] }).contents[0];
    saveBody(item?.blobSavedTo ?? '', item?.uri ?? '');
    expect(await hook(find('PreToolUse', 'ReadMcpResourceTool', 'toolu_read_blob'))).toMatchObject({
      code: 0,
      stdout: '',
    });
    expect(await hook(blob)).toMatchObject({ code: 0, stdout: '' });
    expect(existsSync(item?.blobSavedTo ?? '')).toBe(true);

    const records = linkRecordLines(readFileSync(recordsFile, 'utf8')) as LinkRecord[];
    expect(records.map((r) => [r.uri, r.verdict])).toEqual([
      ['http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'link-only'],
      ['fixture://docs/readme.txt', 'body-obtained'],
      ['fixture://images/logo.png', 'body-obtained'],
    ]);
    // discovered from the rendered `[Resource link: …]` text, at its place in the result
    expect(records[1]?.stages.discovered).toMatchObject({ tool: 'links', contentIndex: 1, server: 'fixture' });
    expect(records[2]?.stages.received?.items[0]).toMatchObject({ carrier: 'blob', kind: 'png' });
  });

  it('withholds the executable embedded resource and removes the file the host saved', async () => {
    const event = find('PostToolUse', 'mcp__fixture__embedded', 'toolu_embedded');
    const content = event['tool_response'] as { text: string }[];
    const path = /^\[Image source: (.+)\]$/.exec(content[3]?.text ?? '')?.[1] ?? '';
    saveBody(path, 'fixture://embedded/tool.png');
    const result = await hook(event);
    const output = (JSON.parse(result.stdout) as { hookSpecificOutput: { updatedToolOutput: { text: string }[] } })
      .hookSpecificOutput.updatedToolOutput;
    expect(output[0]).toEqual(content[0]);
    expect(output[3]?.text).toContain('content.executable');
    expect(JSON.stringify(output)).not.toContain(path);
    expect(existsSync(path)).toBe(false);
  });

  it('keeps what ListMcpResourcesTool listed, with the server of each entry', async () => {
    // handed on without its metadata entry (issue 39), the rest as listed
    const listed = await hook(find('PostToolUse', 'ListMcpResourcesTool', 'toolu_list'));
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain('169.254.169.254');
    const strictish = join(run, 'discovered.yaml');
    writeFileSync(
      strictish,
      readFileSync('policies/default.yaml', 'utf8').replace('requireDiscovered: false', 'requireDiscovered: true'),
    );
    const read = {
      ...find('PreToolUse', 'ReadMcpResourceTool', 'toolu_read_text'),
      tool_use_id: 'toolu_again',
      tool_input: { server: 'fixture', uri: 'fixture://embedded/note.txt' },
    };
    const args = ['hook', 'claude-code', '--policy', strictish, '--state', join(run, 'state')];
    expect(await runCli(args, JSON.stringify(read))).toMatchObject({ code: 0, stdout: '' });
  });
});
