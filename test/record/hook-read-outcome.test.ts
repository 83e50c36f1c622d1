// A read the hook let through leaves a record even when no post event follows (Codex reads that fail get none), and a
// read the host refused itself is recorded as the host's doing, not the server's (Gemini CLI reads only listed
// resources) (issue 40 item 3). The hook command as the host runs it, then `linkgate report` over its records.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { reportCommand } from '../../src/cli/report-command.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import type { ReportCounts } from '../../src/report/report-counts.ts';
import { jsonLines, linkRecordLines, runCli, runCommand } from '../helpers/run-cli.ts';
import { shippedPolicy } from '../proxy/proxy-helpers.ts';

const uri = 'fixture://docs/readme.txt';

async function hook(dir: string, host: string, event: Record<string, unknown>) {
  const records = path.join(dir, 'records.jsonl');
  const args = ['hook', host, '--policy', shippedPolicy('default'), '--records', records, '--state', dir];
  const run = await runCli(args, JSON.stringify(event));
  // (stderr may name the policy settings this host's hooks cannot enforce; no failure)
  expect([run.code, run.stderr]).toEqual([0, expect.not.stringMatching(/fail|cannot write|error/i)]);
  return records;
}

async function report(records: string): Promise<ReportCounts> {
  return JSON.parse((await runCommand(reportCommand, ['--format', 'json', records])).stdout) as ReportCounts;
}

const gemini = (phase: 'BeforeTool' | 'AfterTool', response?: unknown) => ({
  session_id: 'g1',
  transcript_path: '/dev/null',
  cwd: '/',
  hook_event_name: phase,
  tool_name: 'read_mcp_resource',
  tool_input: { uri },
  ...(response === undefined ? {} : { tool_response: response }),
});

describe('a read the hook let through', () => {
  test('leaves a record at once; with no post event the report counts it as a failure not the policy’s', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-hook-outcome-'));
    const records = await hook(dir, 'gemini-cli', gemini('BeforeTool'));
    const lines = jsonLines(await readFile(records, 'utf8')) as (LinkRecord & { kind?: string })[];
    expect(lines.map((l) => [l.kind, l.uri, l.verdict, l.stages.requested !== null])).toEqual([
      ['requested', uri, 'unverifiable', true],
    ]);
    expect(lines[0]?.next?.hint).toContain('no outcome of the read reached the hook');
    const counts = await report(records);
    expect([counts.links, counts.enforce.outcomes.failed, counts.enforce.outcomes.refused]).toEqual([1, 1, 0]);
  });

  test('the post event supersedes it: one link, delivered', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-hook-outcome-'));
    await hook(dir, 'gemini-cli', gemini('BeforeTool'));
    const records = await hook(
      dir,
      'gemini-cli',
      gemini('AfterTool', { llmContent: 'plain text\n', returnDisplay: 'ok' }),
    );
    expect(linkRecordLines(await readFile(records, 'utf8'))).toHaveLength(1);
    const counts = await report(records);
    expect([counts.records, counts.links, counts.enforce.outcomes.delivered]).toEqual([2, 1, 1]);
  });

  test("Gemini CLI's own refusal is the host's, not the server's", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-hook-outcome-'));
    await hook(dir, 'gemini-cli', gemini('BeforeTool'));
    const message = `Resource not found for URI: ${uri}`;
    const refused = {
      llmContent: `Error: ${message}`,
      returnDisplay: `Error: ${message}`,
      error: { message, type: 'mcp_resource_not_found' },
    };
    const records = await hook(dir, 'gemini-cli', gemini('AfterTool', refused));
    const [record] = linkRecordLines(await readFile(records, 'utf8')) as LinkRecord[];
    expect(record?.next).toEqual({
      boundary: 'host-link-handling',
      hint: 'the host refused the read itself; no request reached a server',
    });
    expect(JSON.stringify(record)).not.toContain('the server answered an error');
    // the server's own error stays the server's
    const dir2 = await mkdtemp(path.join(tmpdir(), 'linkgate-hook-outcome-'));
    await hook(dir2, 'gemini-cli', gemini('BeforeTool'));
    const failed = {
      llmContent: 'Error: x',
      returnDisplay: 'Error: x',
      error: { message: 'Failed to read resource: gone', type: 'mcp_tool_error' },
    };
    const [server] = linkRecordLines(
      await readFile(await hook(dir2, 'gemini-cli', gemini('AfterTool', failed)), 'utf8'),
    ) as LinkRecord[];
    expect(server?.next?.boundary).toBe('origin-server');
    expect(JSON.stringify(server)).toContain('the server answered an error');
  });
});
