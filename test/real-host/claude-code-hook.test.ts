// linkgate as Claude Code's hook: the real binary, offline, with the settings block `linkgate hook claude-code
// --print-config` prints (unchanged), the hostile fixture server, and a scripted model. What the server was asked,
// what the model received next, which saved files remain and what the records say are all checked.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { linkRecordLines, runCli } from '../helpers/run-cli.ts';
import { installClaudeCode, runClaudeCode } from './claude-code.ts';
import { fixtureServer, serverReads } from './fixture-process.ts';
import { type FixtureResource, fixtureDescribedLinks, fixtureRenderings, fixtureNamed } from './fixture-resources.ts';
import { builtCli, realHostSuite } from './host-suite.ts';

const host = realHostSuite('claude code', () => installClaudeCode());

builtCli();

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('linkgate hook claude-code inside a real Claude Code', () => {
  test('refused links are never read, withheld bodies never reach the model, allowed ones do', {
    timeout: 240_000,
  }, async (ctx) => {
    host.require(ctx);
    const logs = await host.scratch('linkgate-hook-e2e-');
    const requestLog = path.join(logs, 'requests.jsonl');
    const recordsFile = path.join(logs, 'records.jsonl');
    const printed = await runCli(['hook', 'claude-code', '--print-config', '--records', recordsFile]);
    expect(printed.code, printed.stderr).toBe(0);
    const settings = JSON.parse(printed.stdout) as Record<string, unknown>;

    const { readme, metadata, photo, banner, logo, note, tool } = fixtureNamed;
    const read = (id: string, r: FixtureResource) => ({
      toolUses: [{ id, name: 'ReadMcpResourceTool', input: { server: 'fixture', uri: r.uri } }],
    });
    const run = await runClaudeCode({
      mcpServers: { fixture: fixtureServer(requestLog) },
      settings,
      prompt: 'read every link of the fixture server',
      script: [
        { toolUses: [{ id: 'toolu_links', name: 'mcp__fixture__links', input: {} }] },
        read('toolu_metadata', metadata),
        read('toolu_readme', readme),
        read('toolu_photo', photo),
        read('toolu_banner', banner),
        read('toolu_logo', logo),
        { toolUses: [{ id: 'toolu_embedded', name: 'mcp__fixture__embedded', input: {} }] },
        { text: 'all read' },
      ],
      allowedTools: ['mcp__fixture__links', 'mcp__fixture__embedded', 'ReadMcpResourceTool'],
      timeoutMs: 180_000,
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    const text = (id: string) => JSON.stringify(run.toolResults[id] ?? null);
    if (process.env['LINKGATE_SHOW_MODEL_TEXT'] === '1') {
      for (const id of ['toolu_metadata', 'toolu_photo', 'toolu_readme', 'toolu_embedded']) console.log(id, text(id));
    }

    // refused before the read: the server was never asked, the model got the reason as a tool error
    const reads = await serverReads(requestLog);
    expect(reads).not.toContain(metadata?.uri);
    expect(reads).toEqual([readme, photo, banner, logo].map((r) => r?.uri));
    expect(run.toolResults['toolu_metadata']?.is_error).toBe(true);
    expect(text('toolu_metadata')).toContain('uri.non-public-address');

    // what the model received next: allowed bodies in, withheld bodies out of every later request
    const everything = JSON.stringify(run.modelRequests.map((r) => r.body));
    expect(everything).toContain(readme?.marker);
    expect(everything).toContain(note?.marker);
    for (const withheld of [metadata, photo, banner, tool]) expect(everything).not.toContain(withheld.marker);
    expect(text('toolu_photo')).toContain('content.executable');
    expect(text('toolu_banner')).toMatch(/linkgate withheld/);
    expect(text('toolu_embedded')).toContain('content.executable');
    expect(text('toolu_embedded')).not.toContain('[Image source:');

    // executables the host saved are gone; the allowed image is still there, where the model was told
    const saved = await Promise.all(
      (await filesUnder(path.join(run.dir, 'home'))).map(async (f) => [f, await readFile(f)] as const),
    );
    for (const exe of [photo, tool])
      expect(saved.filter(([, bytes]) => bytes.equals(exe?.bytes as Buffer))).toEqual([]);
    const logoFile = saved.find(([, bytes]) => bytes.equals(logo?.bytes as Buffer))?.[0];
    expect(logoFile).toBeDefined();
    expect(text('toolu_logo')).toContain(String(logoFile));

    // the link refused where the tool result listed it is recorded there (the model got the notice in its place);
    // then one record per read, with the verdict of what reached the model: the scripted model's attempt to read
    // the refused link anyway is refused again, and recorded as that attempt
    const records = linkRecordLines(await readFile(recordsFile, 'utf8')) as LinkRecord[];
    expect(records.map((r) => [r.uri, r.verdict])).toEqual([
      [metadata?.uri, 'link-only'],
      [metadata?.uri, 'link-only'],
      [readme?.uri, 'body-obtained'],
      [photo?.uri, 'link-only'],
      [banner?.uri, expect.stringMatching(/^(link-only|partially-interpreted)$/)],
      [logo?.uri, 'body-obtained'],
    ]);
    expect(records[0]?.stages.requested).toBeNull();
    expect(records[0]?.host).toMatchObject({ toolUseIds: { discovered: 'toolu_links' } });
    expect(records[1]?.stages.requested).toBeNull();
    expect(records[2]?.stages.discovered).toMatchObject({ tool: 'links', server: 'fixture' });
  });
});

describe('linkgate hook claude-code inside a real Claude Code: links with descriptions and every embedded rendering', () => {
  test('described links are discovered where they stood; withheld renderings never reach the model', {
    timeout: 240_000,
  }, async (ctx) => {
    host.require(ctx);
    const logs = await host.scratch('linkgate-hook-e2e-');
    const requestLog = path.join(logs, 'requests.jsonl');
    const recordsFile = path.join(logs, 'records.jsonl');
    const policy = path.join(logs, 'discovered.yaml');
    await writeFile(
      policy,
      (await readFile('policies/default.yaml', 'utf8')).replace('requireDiscovered: false', 'requireDiscovered: true'),
    );
    const printed = await runCli([
      'hook',
      'claude-code',
      '--print-config',
      '--policy',
      policy,
      '--records',
      recordsFile,
    ]);
    expect(printed.code, printed.stderr).toBe(0);
    const [guide, userData, odd, tool] = fixtureDescribedLinks as [
      FixtureResource,
      FixtureResource,
      FixtureResource,
      FixtureResource,
    ];
    const read = (id: string, r: FixtureResource) => ({
      toolUses: [{ id, name: 'ReadMcpResourceTool', input: { server: 'fixture', uri: r.uri } }],
    });
    const run = await runClaudeCode({
      mcpServers: { fixture: fixtureServer(requestLog) },
      settings: JSON.parse(printed.stdout) as Record<string, unknown>,
      prompt: 'read the described links and the inline documents',
      script: [
        { toolUses: [{ id: 'toolu_described', name: 'mcp__fixture__described', input: {} }] },
        read('toolu_guide', guide),
        read('toolu_user_data', userData),
        read('toolu_odd', odd),
        read('toolu_tool', tool),
        { toolUses: [{ id: 'toolu_renderings', name: 'mcp__fixture__renderings', input: {} }] },
        { text: 'all read' },
      ],
      allowedTools: ['mcp__fixture__described', 'mcp__fixture__renderings', 'ReadMcpResourceTool'],
      timeoutMs: 180_000,
    });
    host.defer(() => run.cleanup());
    expect(run.exitCode, run.stderr).toBe(0);
    const text = (id: string) => JSON.stringify(run.toolResults[id] ?? null);

    // the metadata address was refused before the read; the others were read
    const reads = await serverReads(requestLog);
    expect(reads).toEqual([guide.uri, odd.uri, tool.uri]);
    expect(text('toolu_user_data')).toContain('uri.non-public-address');

    // what the model received: allowed bodies in, withheld ones out, executables' saved files gone
    const everything = JSON.stringify(run.modelRequests.map((r) => r.body));
    for (const r of [guide, odd, ...fixtureRenderings.filter((r) => r.expect === 'allow' && r.text !== undefined)])
      expect(everything).toContain(r.marker);
    for (const r of [userData, ...fixtureRenderings.filter((r) => r.expect === 'deny-body')])
      expect(everything).not.toContain(r.marker);
    expect(text('toolu_tool')).toContain('content.executable');
    expect(text('toolu_renderings')).toContain('linkgate withheld the embedded resource');
    const saved = await Promise.all(
      (await filesUnder(path.join(run.dir, 'home'))).map(async (f) => [f, await readFile(f)] as const),
    );
    for (const exe of [tool, ...fixtureRenderings.filter((r) => r.expect === 'deny-body' && r.bytes !== undefined)])
      expect(saved.filter(([, bytes]) => bytes.equals(exe.bytes as Buffer))).toEqual([]);

    // every record shows where its link was discovered, and the host's session and tool calls
    const records = linkRecordLines(await readFile(recordsFile, 'utf8')) as LinkRecord[];
    // the links refused where the tool result listed them first (2 and 5, which the model never tried), then the reads
    expect(records.map((r) => [r.verdict, r.stages.discovered.tool, r.stages.discovered.contentIndex])).toEqual([
      ['link-only', 'described', 2],
      ['link-only', 'described', 5],
      ['body-obtained', 'described', 1],
      ['link-only', 'described', 2],
      ['body-obtained', 'described', 3],
      ['link-only', 'described', 4],
    ]);
    for (const r of records)
      expect(r.host).toMatchObject({ name: 'claude-code', toolUseIds: { discovered: 'toolu_described' } });
  });
});
