import { describe, expect, test } from 'vitest';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { jsonLinesOf, recordsOf, runProbe } from './run-probe.ts';
import { isEmbeddedRecordLine } from '../../src/record/record-kind.ts';

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

  test('get-resource-reference: its embedded resource is a record of its own, then a summary line', async () => {
    const run = await runProbe([
      '--policy',
      'policies/default.yaml',
      '--tool',
      'get-resource-reference',
      '--json',
      '--',
      ...everything,
    ]);
    expect(run.code).toBe(0);
    const lines = jsonLinesOf(run);
    expect(recordsOf(run)).toEqual([]);
    const embedded = lines.filter(isEmbeddedRecordLine);
    expect(embedded).toHaveLength(1);
    expect(embedded[0]).toMatchObject({
      uri: expect.stringMatching(/^demo:\/\/resource\//),
      carrier: 'text',
      verdict: 'embedded-delivered',
      next: null,
      decision: { effect: 'allow' },
    });
    expect(lines.at(-1)).toMatchObject({
      kind: 'summary',
      tool: 'get-resource-reference',
      server: 'probe',
      links: 0,
      embedded: 1,
      verdicts: { 'embedded-delivered': 1 },
    });
  });

  test('a tool with nothing to gate still prints the summary; --server names the server', async () => {
    const run = await runProbe([
      '--policy',
      'policies/default.yaml',
      '--tool',
      'echo',
      '--args',
      '{"message":"hi"}',
      '--server',
      'everything',
      '--json',
      '--',
      ...everything,
    ]);
    expect(run.code).toBe(0);
    expect(jsonLinesOf(run)).toEqual([
      expect.objectContaining({ kind: 'summary', server: 'everything', links: 0, embedded: 0, verdicts: {} }),
    ]);
  });

  test('an unknown tool lists the tools there are and suggests the closest', async () => {
    const run = await runProbe([
      '--policy',
      'policies/default.yaml',
      '--tool',
      'get-resource-refrence',
      '--',
      ...everything,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/the server has no tool `get-resource-refrence`; its tools: .*get-resource-links/);
    expect(run.stderr).toContain('did you mean `get-resource-reference`?');
  });
});
