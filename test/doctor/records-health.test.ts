// The records file a front end names, judged before any event: every way it cannot take records is named.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { recordsHealth } from '../../src/doctor/records-health.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'linkgate-records-health-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(path.join(dir, 'folder'));
writeFileSync(path.join(dir, 'existing.jsonl'), '');
writeFileSync(path.join(dir, 'plain-file'), '');
mkdirSync(path.join(dir, 'locked'));
chmodSync(path.join(dir, 'locked'), 0o500);
// root writes anywhere: the not-writable case is only checked for other users
const root = process.getuid?.() === 0;

const cases: [string, string | undefined][] = [
  ['existing.jsonl', undefined],
  ['new.jsonl', undefined],
  ['folder', 'records file `DIR/folder` is not a file'],
  ['missing/r.jsonl', 'records folder `DIR/missing` does not exist: no record can be written'],
  ['plain-file/r.jsonl', 'records folder `DIR/plain-file` is not a folder'],
];
if (!root) cases.push(['locked/r.jsonl', 'records folder `DIR/locked` is not writable']);

test.each(cases)('%s: %s', (written, problem) => {
  const health = recordsHealth(written, dir);
  expect(health.file).toBe(path.join(dir, written));
  expect(health.problem).toBe(problem?.replace('DIR', dir));
  expect(health.writable).toBe(problem === undefined);
});
