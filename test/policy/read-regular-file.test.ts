// The policy cache reads its files without the thread pool (issue 42 item 1): `readRegularFileSync` keeps every check of
// `readRegularFile` (issue 35 item 4), so a FIFO, a device or an oversize file is refused at once, never read.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRegularFile, readRegularFileSync } from '../../src/policy/read-regular-file.ts';

const dir = mkdtempSync(join(tmpdir(), 'linkgate-regular-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, make: (path: string) => void) => {
  const path = join(dir, name);
  make(path);
  return path;
};
const plain = file('plain.yaml', (p) => writeFileSync(p, 'id: x\n'));
const big = file('big.yaml', (p) => writeFileSync(p, 'x'.repeat(101)));
const fifo = file('fifo.yaml', (p) => {
  const made = spawnSync('mkfifo', [p]);
  if (made.status !== 0) throw new Error(`mkfifo failed: ${made.stderr.toString()}`);
});
const zero = file('zero.yaml', (p) => symlinkSync('/dev/zero', p));

describe.each([
  ['readRegularFileSync', async (path: string, max: number) => readRegularFileSync(path, max)],
  ['readRegularFile', readRegularFile],
])('%s', (_, read) => {
  it('reads a regular file within the cap', async () => {
    expect((await read(plain, 100)).toString()).toBe('id: x\n');
  });
  it.each([
    [fifo, /not a regular file \(a fifo\)/],
    [zero, /not a regular file \(a character device\)/],
    [big, /over 100 bytes \(101 bytes\)/],
    [join(dir, 'missing.yaml'), /ENOENT/],
  ])('refuses %s', async (path, message) => {
    await expect(read(path, 100)).rejects.toThrow(message);
  });
});
