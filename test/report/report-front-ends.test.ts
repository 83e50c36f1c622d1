// Records written by the real front ends (the proxy and the hook as processes with --records, the probe's --json)
// against the hostile fixture server and server-everything, fed to `linkgate report`: its json counts equal counts
// this test makes itself from the same records.
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';
import { reportCommand } from '../../src/cli/report-command.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import type { ReportCounts } from '../../src/report/report-counts.ts';
import { recordsOf, runProbe, tsServer } from '../e2e/run-probe.ts';
import { hostileLinks } from '../fixtures/servers/hostile-server.ts';
import { runCli, runCommand } from '../helpers/run-cli.ts';
import { readRequested, readReturned, toolReturned } from '../hook/hook-events.ts';
import { everythingServer, processEnv, proxyCommandLine, shippedPolicy } from '../proxy/proxy-helpers.ts';
import { countRecords, reportedCounts } from './count-records.ts';

const hostileServer = tsServer('test/fixtures/servers/hostile-server.ts');

const linesOf = (text: string): LinkRecord[] =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as LinkRecord);

// the proxy as a process: a real SDK Client calls `tool` and reads every link it returned through the proxy
async function proxyRecords(dir: string, server: string[], tool: string, args: Record<string, unknown>) {
  const file = path.join(dir, `proxy-${tool}.jsonl`);
  const [command, ...rest] = proxyCommandLine(
    ['--policy', shippedPolicy('default'), '--server', tool === 'links' ? 'hostile' : 'everything', '--records', file],
    server,
  );
  const client = new Client({ name: 'report-test-host', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: command as string, args: rest, env: processEnv(), stderr: 'ignore' }),
  );
  const result = (await client.callTool({ name: tool, arguments: args })) as {
    content: { type: string; uri?: string }[];
  };
  for (const item of result.content)
    if (item.type === 'resource_link') await client.readResource({ uri: String(item.uri) }).catch(() => undefined);
  await client.close();
  return file;
}

// the Claude Code hook as the CLI: a tool result with the hostile links, then the host's reads of each
async function hookRecords(dir: string) {
  const file = path.join(dir, 'hook.jsonl');
  const hook = (event: unknown) =>
    runCli(
      [
        'hook',
        'claude-code',
        '--policy',
        shippedPolicy('default'),
        '--state',
        path.join(dir, 'hook-state'),
        '--records',
        file,
      ],
      JSON.stringify(event),
    );
  await hook(toolReturned('hostile', 'links', [...hostileLinks]));
  for (const link of hostileLinks) {
    const pre = await hook(readRequested('hostile', link.uri));
    // a read the hook denied before it went out never comes back; the others return the server's body
    if (pre.stdout.includes('deny')) continue;
    await hook(
      readReturned('hostile', link.uri, [{ uri: link.uri, mimeType: 'text/plain', text: `contents of ${link.uri}\n` }]),
    );
  }
  return file;
}

describe('report over records written by the real front ends', () => {
  test('proxy, hook and probe records against the hostile and everything servers: json counts equal counts made here', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-report-front-ends-'));
    const probeHostile = await runProbe([
      '--json',
      '--policy',
      'policies/default.yaml',
      '--tool',
      'links',
      '--',
      ...hostileServer,
    ]);
    const probeEverything = await runProbe([
      '--json',
      '--policy',
      'policies/default.yaml',
      '--tool',
      'get-resource-links',
      '--args',
      '{"count":4}',
      '--',
      ...everythingServer,
    ]);
    expect([probeHostile.code, probeEverything.code]).toEqual([0, 0]);
    const probeFile = path.join(dir, 'probe.jsonl');
    // the probe's whole --json output, summary lines included: the report passes over them
    await writeFile(probeFile, `${probeHostile.stdout}${probeEverything.stdout}`);
    const files = [
      probeFile,
      await proxyRecords(dir, hostileServer, 'links', {}),
      await proxyRecords(dir, everythingServer, 'get-resource-links', { count: 3 }),
      await hookRecords(dir),
    ];
    const records = [
      ...recordsOf(probeHostile),
      ...recordsOf(probeEverything),
      ...linesOf(await readFile(files[1] as string, 'utf8')),
      ...linesOf(await readFile(files[2] as string, 'utf8')),
      ...linesOf(await readFile(files[3] as string, 'utf8')),
    ];
    // every front end wrote records, and they differ in verdict
    expect(linesOf(await readFile(files[3] as string, 'utf8')).length).toBeGreaterThanOrEqual(hostileLinks.length);
    expect(new Set(records.map((r) => r.verdict)).size).toBeGreaterThan(1);

    const run = await runCommand(reportCommand, ['--format', 'json', ...files]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const counts = JSON.parse(run.stdout) as ReportCounts;
    expect(reportedCounts(counts)).toEqual(countRecords(records));
    expect(counts.skipped).toBe(0);
    // the host: the proxy's records name the host's client, the probe names itself, the hook its host; the front end
    // is the one that wrote the record
    const keys = (list: { keys: { key: string; links: number }[] }) =>
      Object.fromEntries(list.keys.map((k) => [k.key, k.links]));
    const written = (file: string) => linesOf(readFileSync(file, 'utf8')).length;
    const probeCount = recordsOf(probeHostile).length + recordsOf(probeEverything).length;
    const proxyCount = written(files[1] as string) + written(files[2] as string);
    expect(keys(counts.enforce.byHost)).toEqual({
      'linkgate-probe': probeCount,
      'report-test-host': proxyCount,
      'claude-code': written(files[3] as string),
    });
    expect(keys(counts.enforce.byFrontEnd)).toEqual({
      probe: probeCount,
      proxy: proxyCount,
      hook: written(files[3] as string),
    });
    // the not-delivered table says where each link was seen
    expect(new Set(counts.enforce.notDelivered.listed.map((l) => `${l.host} ${l.frontEnd}`))).toEqual(
      new Set(['linkgate-probe probe', 'report-test-host proxy', 'claude-code hook']),
    );
  }, 120_000);
});
