// The real Claude Code binary, offline, with `linkgate proxy -- <fixture server>` as its MCP server: what the
// server is asked (its request log) and what reaches the model (the scripted model API's requests) show the gate
// working in a real host, with no hook and no SDK on the host side.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { installClaudeCode, runClaudeCode } from './claude-code.ts';
import { linkRecordsOnceWritten, proxiedFixtureServer, serverReads } from './fixture-process.ts';
import { fixtureLinks, fixtureNamed } from './fixture-resources.ts';
import { realHostSuite } from './host-suite.ts';

const host = realHostSuite('claude code', () => installClaudeCode());

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

describe('claude code with linkgate proxy in front of the fixture server', () => {
  test('denied links are never read, denied bodies never reach the model, allowed ones do, the model is told why', async (ctx) => {
    host.require(ctx);
    const { readme, metadata, photo, banner, logo, note, tool } = fixtureNamed;
    const logs = await host.scratch('linkgate-cc-proxy-');
    const requestLog = path.join(logs, 'requests.jsonl');
    const recordsFile = path.join(logs, 'records.jsonl');
    const read = (id: string, uri: string) => ({
      toolUses: [{ id, name: 'ReadMcpResourceTool', input: { server: 'fixture', uri } }],
    });
    const run = await runClaudeCode({
      mcpServers: { fixture: proxiedFixtureServer(requestLog, recordsFile) },
      prompt: 'list the links of the fixture server and read them',
      script: [
        { toolUses: [{ id: 'toolu_links', name: 'mcp__fixture__links', input: {} }] },
        read('toolu_read_readme', readme.uri),
        read('toolu_read_metadata', metadata.uri),
        read('toolu_read_photo', photo.uri),
        read('toolu_read_banner', banner.uri),
        { toolUses: [{ id: 'toolu_embedded', name: 'mcp__fixture__embedded', input: {} }] },
        { text: 'all read' },
      ],
      allowedTools: ['mcp__fixture__links', 'mcp__fixture__embedded', 'ReadMcpResourceTool'],
      timeoutMs: 150_000,
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);

    // the link rules stopped the metadata read in the proxy: the server never saw it; the others were read
    expect(await serverReads(requestLog)).toEqual([readme.uri, photo.uri, banner.uri]);

    // nothing of a denied body reached any request to the model; the allowed bodies did
    const toModel = JSON.stringify(run.modelRequests.map((r) => r.body));
    for (const denied of [metadata, photo, banner, tool]) expect(toModel).not.toContain(denied.marker);
    expect(toModel).toContain(readme.marker);
    expect(toModel).toContain(note.marker);

    // the model is told why, in the words of the proxy's -32080 error
    const results = run.toolResults;
    const why = (id: string) => text(results[id]?.content);
    expect(why('toolu_read_readme')).toContain(readme.marker);
    expect(why('toolu_read_metadata')).toContain('(scheme `http`): uri.non-public-address [record `');
    // named by its scheme and record, never by its uri (issue 39 item 3)
    expect(why('toolu_read_metadata')).not.toContain(metadata.uri);
    expect(why('toolu_read_metadata')).toContain('next boundary: policy');
    expect(why('toolu_read_photo')).toMatch(/refused to read .*content\.(executable|mime-mismatch)/);
    expect(why('toolu_read_banner')).toMatch(/refused to read .*content\.unsafe-text/);
    expect(why('toolu_embedded')).toMatch(/linkgate withheld the embedded resource \(scheme `fixture`\)/);
    for (const id of ['toolu_read_metadata', 'toolu_read_photo', 'toolu_read_banner'])
      expect(results[id]?.is_error, id).toBe(true);
    // kept for the record: what the model received for one allowed and one denied read
    console.log(`model received (allowed read): ${why('toolu_read_readme')}`);
    console.log(`model received (denied read): ${why('toolu_read_metadata')}`);

    // one record per link, written by the time the proxy has closed
    const records = await linkRecordsOnceWritten(recordsFile, fixtureLinks.length);
    const verdicts = Object.fromEntries(records.map((r) => [r.uri, r.verdict]));
    expect(verdicts).toEqual({
      [readme.uri]: 'body-obtained',
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/': 'link-only',
      [photo.uri]: 'link-only',
      [banner.uri]: 'link-only',
      [logo.uri]: 'link-only',
    });
  }, 200_000);
});
