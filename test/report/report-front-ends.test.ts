// Records written by the real front ends (the proxy and the hook as processes with --records, the probe's --json)
// against the hostile fixture server and server-everything, fed to `linkgate report`: its json counts equal counts
// this test makes itself from the same records.
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { reportCommand } from '../../src/cli/report-command.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import type { ReportCounts } from '../../src/report/report-counts.ts';
import { recordsOf, runProbe, tsServer } from '../e2e/run-probe.ts';
import { hostileLinks } from '../fixtures/servers/hostile-server.ts';
import { runCommand } from '../helpers/run-cli.ts';
import { everythingServer } from '../proxy/proxy-helpers.ts';
import { countRecords, oneRecordPerLink, reportedCounts } from './count-records.ts';
import { hookSession, proxySession } from './report-sessions.ts';

const hostileServer = tsServer('test/fixtures/servers/hostile-server.ts');

const linesOf = (text: string): LinkRecord[] =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as LinkRecord);

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
      await proxySession(dir, {
        server: hostileServer,
        label: 'hostile',
        tool: 'links',
        clientName: 'report-test-host',
      }),
      await proxySession(dir, {
        server: everythingServer,
        label: 'everything',
        tool: 'get-resource-links',
        args: { count: 3 },
        clientName: 'report-test-host',
      }),
      await hookSession(dir),
    ];
    const records = oneRecordPerLink([
      ...recordsOf(probeHostile),
      ...recordsOf(probeEverything),
      ...linesOf(await readFile(files[1] as string, 'utf8')),
      ...linesOf(await readFile(files[2] as string, 'utf8')),
      ...linesOf(await readFile(files[3] as string, 'utf8')),
    ]);
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
    const written = (file: string) => oneRecordPerLink(linesOf(readFileSync(file, 'utf8'))).length;
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
