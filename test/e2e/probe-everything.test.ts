import { describe, expect, test } from 'vitest';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { recordsOf, runProbe } from './run-probe.ts';

const everything = [process.execPath, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio'];

describe('linkgate probe against @modelcontextprotocol/server-everything', () => {
  test('get-resource-links with count 4 gives four records, all body-obtained', async () => {
    const run = await runProbe([
      '--policy',
      'policies/default.yaml',
      '--tool',
      'get-resource-links',
      '--args',
      '{"count":4}',
      '--json',
      '--',
      ...everything,
    ]);
    expect(run.code).toBe(0);
    const records = recordsOf(run);
    expect(records).toHaveLength(4);
    expect(records.map((r) => r.verdict)).toEqual(['body-obtained', 'body-obtained', 'body-obtained', 'body-obtained']);
    for (const r of records) expect(recordViolations(r)).toEqual([]);
  });

  test('the gzip-file-as-resource link (declared application/gzip) is denied before reading: link-only', async () => {
    // a data: url keeps the tool off the network
    const args = JSON.stringify({
      name: 'hello.txt.gz',
      data: 'data:text/plain;base64,aGVsbG8gd29ybGQK',
      outputType: 'resourceLink',
    });
    const run = await runProbe([
      '--policy',
      'policies/default.yaml',
      '--tool',
      'gzip-file-as-resource',
      '--args',
      args,
      '--json',
      '--',
      ...everything,
    ]);
    expect(run.code).toBe(0);
    const [record, ...rest] = recordsOf(run);
    expect(rest).toEqual([]);
    expect(record).toMatchObject({
      verdict: 'link-only',
      stages: { requested: null, received: null, delivered: null },
      decisions: { link: { effect: 'deny' }, read: null },
    });
    expect(record?.stages.discovered.mimeType).toBe('application/gzip');
    expect(record?.decisions.link.reasons.map((r) => r.code)).toEqual(['type.declared-not-allowed']);
  });
});
