// `replaceableBy`: whether a user could change a file the gate trusts, judged on real files and folders. The user
// asked about is another uid than the test's own, so every case runs without privileges: files the test makes are
// that user's "someone else's" files.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type FileUser, replaceableBy } from '../../src/policy/replaceable-file.ts';

const other: FileUser = { uid: (process.geteuid?.() ?? 0) + 4242, gids: [4242_000] };
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// a folder of the test's own (0755) with a policy (0644) in it
function folder(): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkgate-replaceable-'));
  made.push(dir);
  chmodSync(dir, 0o755);
  const file = path.join(dir, 'policy.yaml');
  writeFileSync(file, 'id: x\n');
  chmodSync(file, 0o644);
  return { dir, file };
}

describe('replaceableBy', () => {
  test('a file and folders only their owner may write: safe for another user', () => {
    expect(replaceableBy(folder().file, other)).toBeUndefined();
  });

  test('a file others may write', () => {
    const { file } = folder();
    chmodSync(file, 0o646);
    expect(replaceableBy(file, other)).toBe(`\`${file}\` is writable by uid ${other.uid}`);
  });

  test('a file its group may write, for a member of the group and for a user outside it', () => {
    const { file } = folder();
    chmodSync(file, 0o664);
    expect(replaceableBy(file, other)).toBeUndefined();
    const member = { uid: other.uid, gids: [process.getegid?.() ?? 0] };
    expect(replaceableBy(file, member)).toContain('is writable by uid');
  });

  test('a folder on the path others may write: the file can be renamed away and replaced', () => {
    const { dir, file } = folder();
    const inner = path.join(dir, 'etc');
    mkdirSync(inner, { mode: 0o755 });
    const deep = path.join(inner, 'policy.yaml');
    writeFileSync(deep, 'id: x\n', { mode: 0o644 });
    chmodSync(dir, 0o757);
    expect(replaceableBy(deep, other)).toBe(`the folder \`${dir}\` is writable by uid ${other.uid}`);
    expect(replaceableBy(file, other)).toBe(`the folder \`${dir}\` is writable by uid ${other.uid}`);
  });

  test('a sticky folder others may write keeps entries to their owners, as /tmp does', () => {
    const { dir, file } = folder();
    chmodSync(dir, 0o1777);
    expect(replaceableBy(file, other)).toBeUndefined();
    // the folder's owner may still rename anything in it
    expect(replaceableBy(file, { uid: process.geteuid?.() ?? 0, gids: [] })).toBeDefined();
  });

  test('a safe link to a file in a folder others may write, and a link in such a folder to a safe file', () => {
    const safe = folder();
    const open = folder();
    chmodSync(open.dir, 0o777);
    const link = path.join(safe.dir, 'to-open.yaml');
    symlinkSync(open.file, link);
    expect(replaceableBy(link, other)).toBe(`the folder \`${open.dir}\` is writable by uid ${other.uid}`);
    const planted = path.join(open.dir, 'to-safe.yaml');
    symlinkSync(safe.file, planted);
    expect(replaceableBy(planted, other)).toBe(`the folder \`${open.dir}\` is writable by uid ${other.uid}`);
  });

  test('a file that is not there: whoever may create it in its folder may plant it', () => {
    const { dir } = folder();
    const missing = path.join(dir, 'policy.yaml.sig');
    expect(replaceableBy(missing, other)).toBeUndefined();
    chmodSync(dir, 0o777);
    expect(replaceableBy(missing, other)).toBe(`the folder \`${dir}\` is writable by uid ${other.uid}`);
  });

  test('root can change any file', () => {
    expect(replaceableBy(folder().file, { uid: 0, gids: [0] })).toBe(
      'root can change any file (run the gated agent as another user)',
    );
  });
});
