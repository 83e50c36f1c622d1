// The validated-policy cache (issue 42 item 1) also keeps the lines a command prints at start (eval's lint errors),
// so a cached start loads no yaml parser for them either; they are made again when what they depend on changes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadPolicyWithNotes, policyBuildKey, policyCacheDir } from '../../src/policy/policy-cache.ts';

let dir: string;
let policyFile: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-policy-notes-'));
  policyFile = join(dir, 'policy.yaml');
  writeFileSync(policyFile, readFileSync('policies/default.yaml'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('loadPolicyWithNotes', () => {
  it('keeps the notes under their tag and makes them again for another tag or other bytes', async () => {
    const made: string[] = [];
    const load = (tag: string) =>
      loadPolicyWithNotes(policyFile, 'policy.yaml', {
        dir: join(dir, 'cache'),
        buildKey: 'v1 schema-a',
        notes: {
          tag,
          make: async (text) => {
            made.push(tag);
            return [`${tag}: ${text.length} chars\n`];
          },
        },
      });
    const first = await load('day-1');
    expect(first.notes).toEqual([`day-1: ${readFileSync(policyFile).length} chars\n`]);
    expect((await load('day-1')).notes).toEqual(first.notes);
    expect(made).toEqual(['day-1']);
    expect((await load('day-2')).notes[0]).toMatch(/^day-2: /);
    writeFileSync(policyFile, `${readFileSync(policyFile, 'utf8')}\n# edited\n`);
    expect((await load('day-2')).notes[0]).toBe(`day-2: ${readFileSync(policyFile).length} chars\n`);
    expect(made).toEqual(['day-1', 'day-2', 'day-2']);
  });

  it('running from source there is no cache folder; the build key comes from the package', () => {
    expect(policyCacheDir()).toBeUndefined();
    expect(policyBuildKey()).toMatch(/^\d+\.\d+\.\d+\S* [0-9a-f]{64}$/);
  });
});
