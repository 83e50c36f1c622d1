import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { GateError } from '../../src/errors.ts';
import { checkPolicyText } from '../../src/policy/check-policy.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const modeline = '# yaml-language-server: $schema=../schemas/policy.schema.json';

describe.each(['default', 'web-public', 'strict'])('policies/%s.yaml', (name) => {
  const file = path.join(repoRoot, 'policies', `${name}.yaml`);

  test('starts with the yaml-language-server modeline', async () => {
    const text = await readFile(file, 'utf8');
    expect(text.split('\n', 1)[0]).toBe(modeline);
  });

  test('loads with no diagnostic, id matching its file name', async () => {
    const text = await readFile(file, 'utf8');
    expect(checkPolicyText(text, file).diagnostics).toEqual([]);
    const policy = await loadPolicy(file);
    expect(policy.ref.id).toBe(name);
    expect(policy.ref.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(policy.document.review.expires >= policy.document.review.date).toBe(true);
  });
});

describe('loadPolicy', () => {
  test('an unreadable file is POLICY_UNREADABLE naming the file', async () => {
    const missing = path.join(repoRoot, 'policies', 'no-such-policy.yaml');
    await expect(loadPolicy(missing)).rejects.toThrow(GateError);
    await expect(loadPolicy(missing)).rejects.toMatchObject({
      code: 'POLICY_UNREADABLE',
      message: `cannot read policy \`${missing}\`: no such file`,
    });
  });
});
