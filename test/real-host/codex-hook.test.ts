// linkgate as Codex CLI's hook: the real binary, offline, with the hooks.json `linkgate hook codex --print-config`
// prints (unchanged), the hostile fixture server, and a scripted model. What the server was asked, what the model
// received next and what the records say are all checked.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { recordKindOf } from '../../src/record/record-kind.ts';
import { jsonLines, runCli } from '../helpers/run-cli.ts';
import { installCodexCli, runCodexCli } from './codex-cli.ts';
import { outputText } from './codex-model-api.ts';
import { fixtureServer, serverReads } from './fixture-process.ts';
import { fixtureNamed, fixtureOverCap } from './fixture-resources.ts';
import { builtCli, realHostSuite } from './host-suite.ts';

// the records that stay: without the provisional ones a later record of the same link supersedes (`requested`, written
// before the host reads; `discovered`, written as a tool result is passed on)
const finalRecords = (text: string) =>
  jsonLines(text).filter((r) => !['requested', 'discovered'].includes(recordKindOf(r))) as LinkRecord[];

const host = realHostSuite('codex cli', () => installCodexCli());

builtCli();

describe('linkgate hook codex inside a real Codex CLI', () => {
  test('refused links are never read, withheld bodies never reach the model, allowed ones do', async (ctx) => {
    host.require(ctx);
    const logs = await host.scratch('linkgate-hook-e2e-');
    const requestLog = path.join(logs, 'requests.jsonl');
    const recordsFile = path.join(logs, 'records.jsonl');
    const printed = await runCli(['hook', 'codex', '--print-config', '--records', recordsFile]);
    expect(printed.code, printed.stderr).toBe(0);
    const hooks = JSON.parse(printed.stdout) as Record<string, unknown>;

    const { readme, metadata, photo, banner, logo, note, tool } = fixtureNamed;
    const passwd = 'file:///etc/passwd';
    const read = (id: string, uri: string) => ({
      toolUses: [{ id, name: 'read_mcp_resource', input: { server: 'fixture', uri } }],
    });
    const run = await runCodexCli({
      mcpServers: { fixture: fixtureServer(requestLog) },
      hooks,
      prompt: 'read every link of the fixture server',
      script: [
        { toolUses: [{ id: 'call_links', name: 'mcp__fixture__links', input: {} }] },
        read('call_metadata', metadata.uri),
        read('call_passwd', passwd),
        read('call_readme', readme.uri),
        read('call_photo', photo.uri),
        read('call_banner', banner.uri),
        read('call_logo', logo.uri),
        { toolUses: [{ id: 'call_embedded', name: 'mcp__fixture__embedded', input: {} }] },
        { toolUses: [{ id: 'call_list', name: 'list_mcp_resources', input: { server: 'fixture' } }] },
        { text: 'all read' },
      ],
      timeoutMs: 90_000,
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    const text = (id: string) => outputText(run.toolResults[id]);
    if (process.env['LINKGATE_SHOW_MODEL_TEXT'] === '1') {
      for (const id of ['call_metadata', 'call_photo', 'call_readme', 'call_logo', 'call_embedded'])
        console.log(id, JSON.stringify(text(id)));
    }

    // refused before the read: the server was never asked, the model got the reason
    const reads = await serverReads(requestLog);
    expect(reads).toEqual([readme, photo, banner, logo].map((r) => r.uri));
    expect(text('call_metadata')).toContain('Tool call blocked by PreToolUse hook: linkgate refused to read');
    expect(text('call_metadata')).toContain('uri.non-public-address');
    expect(text('call_passwd')).toContain('uri.scheme-not-allowed');

    // what the model received next: allowed bodies whole, withheld bodies out of every later request
    expect(JSON.parse(text('call_readme'))).toEqual({
      server: 'fixture',
      uri: readme.uri,
      contents: [{ uri: readme.uri, mimeType: 'text/plain', text: readme.text }],
    });
    expect(JSON.parse(text('call_logo'))).toMatchObject({
      contents: [{ uri: logo.uri, blob: logo.bytes?.toString('base64') }],
    });
    const everything = JSON.stringify(run.modelRequests.map((r) => r.body));
    expect(everything).toContain(note.marker);
    for (const withheld of [metadata, photo, banner, tool]) expect(everything).not.toContain(withheld.marker);
    expect(text('call_photo')).toMatch(
      /linkgate withheld the body of (?:`[^`]*` )?\(scheme `fixture`\): .*content\.executable/,
    );
    expect(text('call_banner')).toMatch(/linkgate withheld the body of/);
    expect(text('call_embedded')).toContain('content.executable');
    expect(text('call_embedded')).toContain(note.marker);

    // the link refused where the tool result listed it is recorded there (the model got the notice in its place);
    // then one record per read, with the verdict of what reached the model, and where each link was found (the
    // scripted model's attempt to read the refused link anyway is refused again, and recorded as that attempt)
    const records = finalRecords(await readFile(recordsFile, 'utf8'));
    expect(records.map((r) => [r.uri, r.verdict])).toEqual([
      [metadata.uri, 'link-only'],
      [metadata.uri, 'link-only'],
      [passwd, 'link-only'],
      [readme.uri, 'body-obtained'],
      [photo.uri, 'link-only'],
      [banner.uri, expect.stringMatching(/^(link-only|partially-interpreted)$/)],
      [logo.uri, 'body-obtained'],
      // embedded resources of the MCP tool result are recorded too
      [note.uri, 'embedded-delivered'],
      [tool.uri, 'embedded-withheld'],
    ]);
    expect(records[0]?.stages.requested).toBeNull();
    expect(records[0]?.stages.discovered).toMatchObject({ tool: 'links', server: 'fixture', contentIndex: 2 });
    expect(records[1]?.stages.requested).toBeNull();
    expect(records[1]?.stages.discovered).toMatchObject({ tool: 'links', server: 'fixture', contentIndex: 2 });
    expect(records[2]?.stages.discovered).toMatchObject({ tool: null });
    expect(records[3]?.stages.discovered).toMatchObject({ tool: 'links', server: 'fixture', contentIndex: 1 });
    expect(records[6]?.stages.received?.items[0]).toMatchObject({ carrier: 'blob', kind: 'png' });
  });

  // Codex cuts a read's output before its hooks see it (issue 32, item 3): an 11 MiB body under the default policy's
  // 10 MiB cap arrives at the hook as about 12 000 characters with `…N chars truncated…` in the middle
  test.for(['enforce', 'observe'] as const)(
    'a read over the cap that Codex cut (%s): never judged as the whole body',
    async (mode, ctx) => {
      host.require(ctx);
      const logs = await host.scratch('linkgate-hook-cut-');
      const recordsFile = path.join(logs, 'records.jsonl');
      const printed = await runCli(['hook', 'codex', '--print-config', '--records', recordsFile, '--mode', mode]);
      expect(printed.code, printed.stderr).toBe(0);
      const run = await runCodexCli({
        mcpServers: { fixture: fixtureServer(path.join(logs, 'requests.jsonl')) },
        hooks: JSON.parse(printed.stdout) as Record<string, unknown>,
        prompt: 'read the big document',
        script: [
          {
            toolUses: [
              { id: 'call_over_cap', name: 'read_mcp_resource', input: { server: 'fixture', uri: fixtureOverCap.uri } },
            ],
          },
          { text: 'read' },
        ],
        timeoutMs: 90_000,
      });
      host.defer(() => run.cleanup());
      expect(run.timedOut, run.stderr).toBe(false);
      expect(run.exitCode, run.stderr).toBe(0);
      const [record, ...more] = finalRecords(await readFile(recordsFile, 'utf8'));
      expect(more).toEqual([]);
      expect(record?.uri).toBe(fixtureOverCap.uri);
      expect(record?.verdict).not.toBe('body-obtained');
      expect(record?.stages.received?.truncated).toBe(true);
      expect(record?.decisions.read?.reasons.map((r) => r.code)).toContain('content.too-large');
      const everything = JSON.stringify(run.modelRequests.map((r) => r.body));
      if (mode === 'enforce') {
        // the model never receives any of it: only the notice
        expect(record?.verdict).toBe('link-only');
        expect(everything).not.toContain(fixtureOverCap.marker);
        expect(outputText(run.toolResults['call_over_cap'])).toContain('content.too-large');
      } else {
        // observe mode passes Codex's slice on, and records what enforcing would have done
        expect(record).toMatchObject({ mode: 'observe', wouldDeny: true });
        expect(everything).toContain(fixtureOverCap.marker);
      }
    },
  );
});
