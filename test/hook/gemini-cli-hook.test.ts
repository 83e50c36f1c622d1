import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { linkRecordLines, runCli } from '../helpers/run-cli.ts';

// BeforeTool/AfterTool events a real Gemini CLI (0.61.0) sent for the fixture server, recorded by the real-host
// harness; placeholders filled in here
const observedFile = join(import.meta.dirname, '../real-host/observed/gemini-cli/hook-events.json');
const run = mkdtempSync(join(tmpdir(), 'linkgate-gemini-'));
afterAll(() => rmSync(run, { recursive: true, force: true }));
type Event = Record<string, unknown> & {
  hook_event_name: string;
  tool_name: string;
  tool_input: Record<string, unknown>;
};
const events = JSON.parse(
  readFileSync(observedFile, 'utf8').replaceAll('<run>', run).replaceAll('<uuid>', 'g1').replaceAll('<stamp>', '1'),
) as Event[];
const recordsFile = join(run, 'records.jsonl');

async function hook(event: Event, policy = 'policies/default.yaml') {
  const args = ['hook', 'gemini-cli', '--policy', policy, '--state', join(run, 'state'), '--records', recordsFile];
  return runCli(args, JSON.stringify(event));
}
const find = (name: string, tool: string, uri?: string) =>
  events.find(
    (e) => e.hook_event_name === name && e.tool_name === tool && (uri === undefined || e.tool_input['uri'] === uri),
  ) as Event;

describe('linkgate hook gemini-cli on the events a real Gemini CLI sent', () => {
  it('keeps the rendered links and lets an allowed text read through', async () => {
    // the denied metadata link is replaced by the notice naming it; the other rendered links stay
    const links = JSON.parse((await hook(find('AfterTool', 'mcp_fixture_links'))).stdout) as { reason: string };
    expect(links.reason).toContain(
      '\nResource Link: readme at fixture://docs/readme.txt\nlinkgate refused the link `metadata` (scheme `http`): uri.non-public-address',
    );
    expect(links.reason).not.toContain('Resource Link: metadata');
    const readme = 'fixture://docs/readme.txt';
    expect(await hook(find('BeforeTool', 'read_mcp_resource', readme))).toMatchObject({ code: 0, stdout: '' });
    expect(await hook(find('AfterTool', 'read_mcp_resource', readme))).toMatchObject({ code: 0, stdout: '' });
    const record = (linkRecordLines(readFileSync(recordsFile, 'utf8')) as LinkRecord[]).find((r) => r.uri === readme);
    // the read names no server: it goes to the server that returned the link
    expect(record).toMatchObject({
      uri: readme,
      verdict: 'body-obtained',
      stages: { requested: { server: 'fixture' } },
    });
    expect(record?.stages.discovered).toMatchObject({ tool: 'links', server: 'fixture', contentIndex: 1 });
  });

  it('denies a refused link before the read with decision deny', async () => {
    const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
    const before = { ...find('BeforeTool', 'read_mcp_resource'), tool_input: { uri: metadata } };
    const answer = JSON.parse((await hook(before)).stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toContain('uri.non-public-address');
  });

  it('withholds a binary body the host passes no bytes of', async () => {
    const answer = JSON.parse(
      (await hook(find('AfterTool', 'read_mcp_resource', 'fixture://images/logo.png'))).stdout,
    ) as {
      decision: string;
      reason: string;
    };
    expect(answer).toMatchObject({ decision: 'deny' });
    expect(answer.reason).toContain('content.shape');
  });

  it('withholds the executable inline part and keeps the text', async () => {
    const event = find('AfterTool', 'mcp_fixture_embedded');
    const answer = JSON.parse((await hook(event)).stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toContain('EMBEDDED-OK-22b8');
    expect(answer.reason).toContain('content.executable');
    expect(answer.reason).not.toContain('TVoA');
  });

  it('keeps what list_mcp_resources listed, by server', async () => {
    // handed on without a refused entry (issue 39): the rest, as the reason that replaces the listing
    const listing = await hook(find('AfterTool', 'list_mcp_resources'));
    expect(listing.code).toBe(0);
    expect(listing.stdout).not.toContain('169.254.169.254');
    const policy = join(run, 'discovered.yaml');
    const text = readFileSync('policies/default.yaml', 'utf8').replace(
      'requireDiscovered: false',
      'requireDiscovered: true',
    );
    await import('node:fs').then((fs) => fs.writeFileSync(policy, text));
    const listed = { ...find('BeforeTool', 'read_mcp_resource'), tool_input: { uri: 'fixture://embedded/note.txt' } };
    expect(await hook(listed, policy)).toMatchObject({ code: 0, stdout: '' });
    const invented = { ...listed, tool_input: { uri: 'internal://keys' } };
    expect((await hook(invented, policy)).stdout).toContain('link.not-discovered');
  });

  it('refuses a web_fetch whose prompt holds a metadata url', async () => {
    const fetch = {
      ...find('BeforeTool', 'read_mcp_resource'),
      tool_name: 'web_fetch',
      tool_input: { prompt: 'summarise http://169.254.169.254/latest and https://example.com' },
    };
    const answer = JSON.parse((await hook(fetch)).stdout) as { decision: string; reason: string };
    expect(answer).toMatchObject({ decision: 'deny' });
  });
});
