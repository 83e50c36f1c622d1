import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { fixtureDescribedLinks, fixtureRenderings } from '../real-host/fixture-resources.ts';
import { linkRecordLines, runCli } from '../helpers/run-cli.ts';

// the hook events a real Claude Code (2.1.332) sent for the fixture server's `described` and `renderings` tools and
// reads of the described links (test/real-host/claude-code-renderings.test.ts records them); placeholders filled here
const observedFile = join(import.meta.dirname, '../real-host/observed/claude-code/renderings-events.json');
const root = mkdtempSync(join(tmpdir(), 'linkgate-renderings-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Event = Record<string, unknown> & { hook_event_name: string; tool_name: string; tool_use_id: string };
let runs = 0;

/** A fresh copy of the recorded run: its own folder, state and records. */
function freshRun() {
  const run = join(root, `run${++runs}`);
  const events = JSON.parse(
    readFileSync(observedFile, 'utf8').replaceAll('<run>', run).replaceAll('<uuid>', 'u1').replaceAll('<stamp>', '1'),
  ) as Event[];
  const records = join(run, 'records.jsonl');
  const find = (name: string, id: string) =>
    structuredClone(events.find((e) => e.hook_event_name === name && e.tool_use_id === id) as Event);
  const hook = (event: Event, policy = 'policies/default.yaml') =>
    runCli(
      ['hook', 'claude-code', '--policy', policy, '--state', join(run, 'state'), '--records', records],
      JSON.stringify(event),
    );
  const records_ = () =>
    existsSync(records) ? (linkRecordLines(readFileSync(records, 'utf8')) as LinkRecord[]) : ([] as LinkRecord[]);
  return { run, find, hook, records: records_ };
}

/** `policies/default.yaml` with `hook.requireDiscovered` on, written into `dir`. */
function requireDiscoveredPolicy(dir: string): string {
  const file = join(dir, 'discovered.yaml');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    file,
    readFileSync('policies/default.yaml', 'utf8').replace('requireDiscovered: false', 'requireDiscovered: true'),
  );
  return file;
}

/** The names of the links a post event's answer replaced by the flow's notice (`linkgate refused the link NAME (scheme …`). */
function refusedNames(answer: { code: number; stdout: string }): string[] {
  expect(answer.code).toBe(0);
  const output = (JSON.parse(answer.stdout) as { hookSpecificOutput: { updatedToolOutput: { text?: string }[] } })
    .hookSpecificOutput.updatedToolOutput;
  return output.flatMap((item) => /^linkgate refused the link `(.*?)` \(scheme /.exec(item.text ?? '')?.[1] ?? []);
}

const read = (server: string, uri: string, id: string, base: Event): Event => ({
  ...base,
  tool_use_id: id,
  tool_input: { server, uri },
});

describe('linkgate hook claude-code on the renderings a real Claude Code sent', () => {
  it('records links with descriptions, titles and odd names or uris as discovered where they stood', async () => {
    const { run, find, hook, records } = freshRun();
    const policy = requireDiscoveredPolicy(run);
    // the denied links (metadata address, no uri) are replaced by notices naming them; the rest stay as rendered
    expect(refusedNames(await hook(find('PostToolUse', 'toolu_described'), policy))).toEqual(['user data', 'nowhere']);
    const [guide, , odd] = fixtureDescribedLinks;
    for (const [id, link] of [
      ['toolu_read_guide', guide],
      ['toolu_read_odd', odd],
    ] as const) {
      expect(await hook(find('PreToolUse', id), policy)).toMatchObject({ code: 0, stdout: '' });
      expect(await hook(find('PostToolUse', id), policy)).toMatchObject({ code: 0, stdout: '' });
      expect(link?.uri).toBeDefined();
    }
    const got = records().filter((r) => r.stages.requested !== null);
    expect(got.map((r) => [r.uri, r.verdict])).toEqual([
      [guide?.uri, 'body-obtained'],
      ['fixture://docs/odd%20name%20(1).txt', 'body-obtained'],
    ]);
    expect(got[0]?.stages.discovered).toMatchObject({ tool: 'described', contentIndex: 1, server: 'fixture' });
    expect(got[1]?.stages.discovered).toMatchObject({ tool: 'described', contentIndex: 3, server: 'fixture' });
  });

  it('refuses a link returned by one server when the read goes to another (requireSameServer)', async () => {
    const { find, hook, records } = freshRun();
    const described = { ...find('PostToolUse', 'toolu_described'), tool_name: 'mcp__evil__described' };
    expect(refusedNames(await hook(described))).toEqual(['user data', 'nowhere']);
    const pre = read(
      'vault',
      fixtureDescribedLinks[0]?.uri ?? '',
      'toolu_cross',
      find('PreToolUse', 'toolu_read_guide'),
    );
    const answer = await hook(pre);
    expect(answer.code).toBe(0);
    expect(JSON.parse(answer.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    expect(answer.stdout).toContain('server.mismatch');
    expect(records().at(-1)?.stages.discovered).toMatchObject({ server: 'evil', tool: 'described', contentIndex: 1 });
  });

  it('judges every embedded rendering: withheld items become notices, withheld saved files are deleted', async () => {
    const { find, hook } = freshRun();
    const event = find('PostToolUse', 'toolu_renderings');
    const items = event['tool_response'] as { type: string; text?: string }[];
    // put the bytes where the host said it saved them
    const saved = new Map<string, string>();
    for (const [index, item] of items.entries()) {
      const path = /(?:saved to |source: )(\/[^\]]+?)\]?$/.exec(item.text ?? '')?.[1];
      if (path === undefined) continue;
      const uri =
        /at (fixture:\/\/\S+)\] /.exec(item.text ?? '')?.[1] ?? (item.text?.startsWith('[Audio') ? '' : 'logo');
      const resource = fixtureRenderings.find((r) => r.uri === uri || (uri === 'logo' && r.name === 'logo'));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, resource?.bytes ?? Buffer.alloc(0));
      saved.set(String(index), path);
    }
    expect([...saved.keys()]).toEqual(['2', '3', '6', '7']);
    const answer = await hook(event);
    expect(answer.code, answer.stderr).toBe(0);
    const output = (JSON.parse(answer.stdout) as { hookSpecificOutput: { updatedToolOutput: { text?: string }[] } })
      .hookSpecificOutput.updatedToolOutput;
    expect(output).toHaveLength(items.length);
    // kept as they came: the spaced-uri text, the csv, the image header, block and source
    for (const index of [0, 3, 4, 5, 6]) expect(output[index]).toEqual(items[index]);
    expect(output[1]?.text).toMatch(/^linkgate withheld the embedded resource .*content\./);
    expect(output[2]?.text).toContain('content.executable');
    expect(output[7]?.text).toMatch(/^linkgate withheld/);
    const everything = JSON.stringify(output);
    for (const r of fixtureRenderings.filter((r) => r.expect === 'deny-body'))
      expect(everything).not.toContain(r.marker);
    expect(existsSync(saved.get('2') ?? '')).toBe(false);
    expect(existsSync(saved.get('7') ?? '')).toBe(false);
    expect(existsSync(saved.get('3') ?? '')).toBe(true);
    expect(existsSync(saved.get('6') ?? '')).toBe(true);
  });

  it('an item it cannot recognise where an item can stand is withheld, not passed as text', async () => {
    const { find, hook } = freshRun();
    const event = find('PostToolUse', 'toolu_renderings');
    event['tool_response'] = [
      { type: 'text', text: 'plain words from the server' },
      { type: 'text', text: '[Resource from fixture at fixture://x.txt' },
      { type: 'text', text: '[Image source: nowhere' },
      { type: 'video', data: 'AAAA' },
      'a bare string',
      { type: 'image', source: { type: 'url', url: 'http://169.254.169.254/' } },
    ];
    const answer = await hook(event);
    const output = (JSON.parse(answer.stdout) as { hookSpecificOutput: { updatedToolOutput: { text?: string }[] } })
      .hookSpecificOutput.updatedToolOutput;
    expect(output[0]).toEqual({ type: 'text', text: 'plain words from the server' });
    for (const index of [1, 2, 3, 4, 5]) expect(output[index]?.text).toMatch(/^linkgate withheld .*content\.shape/);
  });

  it('a server error is unverifiable · read.error, as the proxy records it', async () => {
    const { find, hook, records } = freshRun();
    expect(await hook(find('PreToolUse', 'toolu_read_missing'))).toMatchObject({ code: 0, stdout: '' });
    expect(await hook(find('PostToolUse', 'toolu_read_missing'))).toMatchObject({ code: 0, stdout: '' });
    const [record] = records();
    expect(record?.verdict).toBe('unverifiable');
    expect(record?.decisions.read?.reasons.map((r) => r.code)).toEqual(['read.error']);
  });

  it('withholds a binary read saved to a file and deletes the file', async () => {
    const { find, hook } = freshRun();
    const post = find('PostToolUse', 'toolu_read_tool');
    const item = (post['tool_response'] as { contents: { blobSavedTo: string }[] }).contents[0];
    const path = item?.blobSavedTo ?? '';
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, fixtureDescribedLinks[3]?.bytes ?? Buffer.alloc(0));
    expect(await hook(find('PreToolUse', 'toolu_read_tool'))).toMatchObject({ code: 0, stdout: '' });
    const answer = await hook(post);
    expect(answer.stdout).toContain('content.executable');
    expect(existsSync(path)).toBe(false);
  });

  it('ReadMcpResourceDirTool lists directory children: discovery for hook.requireDiscovered', async () => {
    const { run, find, hook } = freshRun();
    const policy = requireDiscoveredPolicy(run);
    const base = find('PostToolUse', 'toolu_read_guide');
    const listing = {
      ...base,
      tool_name: 'ReadMcpResourceDirTool',
      tool_use_id: 'toolu_dir',
      tool_input: { server: 'fixture', uri: 'fixture://docs' },
      tool_response: { resources: [{ uri: 'fixture://docs/inner.txt', name: 'inner.txt', mimeType: 'text/plain' }] },
    };
    expect(await hook(listing, policy)).toMatchObject({ code: 0, stdout: '' });
    const pre = read('fixture', 'fixture://docs/inner.txt', 'toolu_inner', find('PreToolUse', 'toolu_read_guide'));
    expect(await hook(pre, policy)).toMatchObject({ code: 0, stdout: '' });
    const invented = read('fixture', 'fixture://docs/other.txt', 'toolu_other', pre);
    expect((await hook(invented, policy)).stdout).toContain('link.not-discovered');
  });
});
