import { beforeAll, describe, expect, test } from 'vitest';
import { demoLinks } from '../../src/demo/demo-server.ts';
import { maskUri } from '../../src/link/mask-uri.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { policyFile, recordsOf, runProbe, tsServer, type ProbeRun } from './run-probe.ts';

/** Test policy: 1 s deadline (the demo's slow read takes 4 s) and a 64 KiB cap (its oversize blob is 100 KiB). */
const readTimeoutMs = 1000;
const demo = tsServer('src/demo/demo-server.ts', '--slow-ms', '4000', '--oversize-bytes', String(100 * 1024));
const expected = demoLinks.map((l) => (l.uri.endsWith('slow.txt') ? 'unverifiable' : l.expect));

let policy: string;
let json: ProbeRun;
beforeAll(async () => {
  policy = await policyFile({ readTimeoutMs, maxBytes: 64 * 1024 });
  json = await runProbe(['--policy', policy, '--tool', 'show-links', '--json', '--', ...demo]);
}, 60_000);

describe('linkgate probe against the demo server', () => {
  test('it ran: exit 0, one record per link in content order', () => {
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    expect(recordsOf(json).map((r) => r.uri)).toEqual(demoLinks.map((l) => maskUri(l.uri)));
  });

  test.each(demoLinks.map((l, i) => ({ uri: l.uri, name: l.name, i, verdict: expected[i] })))(
    '$name → $verdict',
    ({ i, verdict }) => {
      const record = recordsOf(json)[i];
      expect(record?.verdict).toBe(verdict);
    },
  );

  test('every verdict appears', () => {
    expect(new Set(recordsOf(json).map((r) => r.verdict))).toEqual(
      new Set(['body-obtained', 'partially-interpreted', 'link-only', 'unverifiable']),
    );
  });

  test('every record holds the §4c invariants and has the §4c shape', () => {
    for (const record of recordsOf(json)) {
      expect(recordViolations(record), record.uri).toEqual([]);
      expect(Object.keys(record)).toEqual(['uri', 'verdict', 'next', 'stages', 'decisions']);
      expect(Object.keys(record.stages)).toEqual(['discovered', 'requested', 'received', 'delivered']);
      if (record.decisions.link.effect === 'deny') expect(record.stages.requested).toBeNull();
      if (record.verdict === 'body-obtained') expect(record.decisions.read?.effect).toBe('allow');
      if (record.verdict === 'partially-interpreted') expect(record.decisions.read?.effect).toBe('partial');
      if (record.verdict === 'link-only' || record.verdict === 'unverifiable')
        expect(record.stages.delivered).toBeNull();
      if (record.verdict !== 'body-obtained') expect(record.next).not.toBeNull();
    }
  });

  test('records carry no credentials, query values, requestState or body text', () => {
    for (const secret of [
      's3cr3t-pass',
      'demo-user',
      'abc123',
      'c2VydmVyLXNpZGUtc3RhdGU',
      'fold, then roll',
      'plain notes',
      'owned',
      'confirm you want',
    ]) {
      expect(json.stdout).not.toContain(secret);
    }
  });

  test('reasons name the boundary: timeout, error, input_required, executable, oversize', () => {
    const byUri = new Map(recordsOf(json).map((r) => [r.uri, r]));
    const codes = (uri: string) =>
      [...(byUri.get(uri)?.decisions.link.reasons ?? []), ...(byUri.get(uri)?.decisions.read?.reasons ?? [])].map(
        (r) => r.code,
      );
    expect(codes('demo://linkgate/slow.txt')).toContain('read.timeout');
    expect(codes('demo://linkgate/missing.txt')).toContain('read.error');
    expect(codes('demo://linkgate/needs-input')).toContain('read.input-required');
    expect(
      codes('demo://linkgate/holiday.png').some((c) => c === 'content.executable' || c === 'content.mime-mismatch'),
    ).toBe(true);
    expect(codes('demo://linkgate/oversize.png')).toContain('content.too-large');
    expect(codes('http://169.254.169.254/latest/meta-data/iam/security-credentials/')).toContain(
      'uri.non-public-address',
    );
    expect(byUri.get('demo://linkgate/mixed')?.stages.delivered?.items).toEqual([0]);
    expect(byUri.get('demo://linkgate/pixel.png')?.stages.received?.items[0]).toMatchObject({
      carrier: 'blob',
      kind: 'png',
    });
    expect(byUri.get('demo://linkgate/guide.md')?.stages.received?.items[0]?.sha256).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  test.each([
    { name: 'not a terminal', tty: false, env: {}, colour: false },
    { name: 'a terminal', tty: true, env: { NO_COLOR: '', FORCE_COLOR: '' }, colour: true },
    { name: 'a terminal with NO_COLOR', tty: true, env: { NO_COLOR: '1' }, colour: false },
  ])('the table on $name: colour $colour', async ({ tty, env, colour }) => {
    const fast = tsServer('src/demo/demo-server.ts', '--slow-ms', '10', '--oversize-bytes', String(100 * 1024));
    const run = await runProbe(['--policy', policy, '--tool', 'show-links', '--', ...fast], {
      tty,
      env: { FORCE_COLOR: '', ...env },
    });
    expect(run.code).toBe(0);
    expect(run.stdout.includes('\u001b[')).toBe(colour);
    const plain = run.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    // a link that carried userinfo shows `***@` where it was
    const shown = (uri: string) =>
      uri.includes('@') ? maskUri(uri).replace('https://', 'https://***@') : maskUri(uri);
    for (const l of demoLinks) expect(plain).toContain(shown(l.uri).slice(0, 40));
    expect(plain).toMatch(/14 links: .*body-obtained/);
    expect(plain).toMatch(/^#\s+uri\s+declared type\s+link\s+requested\s+received\s+detected type\s/m);
    expect(plain).toMatch(/\ndeadline \d+ ms|\sdeadline \d+ ms\s/);
    expect(plain).toContain('\nverdicts:\n');
    for (const v of ['body-obtained', 'partially-interpreted', 'link-only', 'unverifiable'])
      expect(plain).toMatch(new RegExp(`\\n {2}${v} +\\S`));
  });
});
