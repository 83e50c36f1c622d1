// The real Codex CLI, offline, with `linkgate proxy -- <fixture server>` as its MCP server: what the server is asked
// (its request log) and what reaches the model (the scripted Responses API's requests) show the gate working in a
// real Codex, with no hook.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { installCodexCli, runCodexCli } from './codex-cli.ts';
import { outputText } from './codex-model-api.ts';
import { linkRecordsOnceWritten, proxiedFixtureServer, serverReads } from './fixture-process.ts';
import { fixtureLinks, fixtureNamed } from './fixture-resources.ts';
import { realHostSuite } from './host-suite.ts';

const host = realHostSuite('codex cli', () => installCodexCli());

describe('codex cli with linkgate proxy in front of the fixture server', () => {
  test('denied links are never read, denied bodies never reach the model, allowed ones do, the model is told why', async (ctx) => {
    host.require(ctx);
    const { readme, metadata, photo, banner, logo, note, tool } = fixtureNamed;
    const logs = await host.scratch('linkgate-codex-proxy-');
    const requestLog = path.join(logs, 'requests.jsonl');
    const recordsFile = path.join(logs, 'records.jsonl');
    const read = (id: string, uri: string) => ({
      toolUses: [{ id, name: 'read_mcp_resource', input: { server: 'fixture', uri } }],
    });
    const run = await runCodexCli({
      mcpServers: { fixture: proxiedFixtureServer(requestLog, recordsFile) },
      prompt: 'list the links of the fixture server and read them',
      script: [
        { toolUses: [{ id: 'call_links', name: 'mcp__fixture__links', input: {} }] },
        read('call_read_readme', readme.uri),
        read('call_read_metadata', metadata.uri),
        read('call_read_passwd', 'file:///etc/passwd'),
        read('call_read_photo', photo.uri),
        read('call_read_banner', banner.uri),
        read('call_read_logo', logo.uri),
        { toolUses: [{ id: 'call_embedded', name: 'mcp__fixture__embedded', input: {} }] },
        { text: 'all read' },
      ],
      timeoutMs: 90_000,
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    const why = (id: string) => outputText(run.toolResults[id]);
    if (process.env['LINKGATE_SHOW_MODEL_TEXT'] === '1') {
      for (const id of ['call_links', 'call_read_metadata', 'call_read_photo', 'call_read_readme', 'call_embedded'])
        console.log(id, JSON.stringify(why(id)));
    }

    // the link rules stopped the metadata and file reads in the proxy: the server never saw them
    expect(await serverReads(requestLog)).toEqual([readme.uri, photo.uri, banner.uri, logo.uri]);

    // nothing of a denied body reached any request to the model; the allowed bodies did, whole
    const toModel = JSON.stringify(run.modelRequests.map((r) => r.body));
    for (const denied of [metadata, photo, banner, tool]) expect(toModel).not.toContain(denied.marker);
    expect(why('call_read_readme')).toContain(JSON.stringify(readme.text));
    expect(why('call_read_logo')).toContain(logo.bytes?.toString('base64'));
    expect(why('call_embedded')).toContain(note.marker);

    // the model is told why, in the words of the proxy's -32080 error
    expect(why('call_read_metadata')).toContain('(scheme `http`): uri.non-public-address [record `');
    // named by its scheme and record, never by its uri (issue 39 item 3); Codex itself puts the uri the model asked
    // for before the server's error ("resources/read failed for `fixture` (URI): …"), so the gate's words are checked
    const refusal = why('call_read_metadata');
    expect(refusal.slice(refusal.indexOf('linkgate refused'))).not.toContain(metadata.uri);
    expect(refusal.slice(refusal.indexOf('linkgate refused'))).not.toContain('169.254.169.254/latest');
    expect(why('call_read_passwd')).toContain('uri.scheme-not-allowed');
    expect(why('call_read_photo')).toMatch(/refused to read .*content\.(executable|mime-mismatch)/);
    expect(why('call_read_banner')).toMatch(/refused to read .*content\.unsafe-text/);
    expect(why('call_embedded')).toMatch(
      /linkgate withheld the embedded resource \(scheme `fixture`\): content\.executable/,
    );

    // one record per link of the tool result, written by the time the proxy has closed
    const records = await linkRecordsOnceWritten(recordsFile, fixtureLinks.length);
    const verdicts = Object.fromEntries(records.map((r) => [r.uri, r.verdict]));
    expect(verdicts).toMatchObject({
      [readme.uri]: 'body-obtained',
      [metadata.uri]: 'link-only',
      [photo.uri]: 'link-only',
      [banner.uri]: 'link-only',
      [logo.uri]: 'body-obtained',
    });
    const readmeRecord = records.find((r) => r.uri === readme.uri);
    expect(readmeRecord?.stages.discovered).toMatchObject({ tool: 'links', server: 'fixture', contentIndex: 1 });
  });
});
