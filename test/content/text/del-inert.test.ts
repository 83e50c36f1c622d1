// Issue 23: DEL (0x7F) is inert; text holding it is allowed whole under policies/default.yaml.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../../src/gate/create-gate.ts';
import { loadPolicy } from '../../../src/policy/load-policy.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));
const LINK = 'guide://data/table.csv';

describe('del (0x7f) is inert', () => {
  // a csv as exported by tools that keep DEL from legacy data; a terminal and a renderer both ignore it
  test.each([
    ['one del', 'id,name\n1,a\u007fb\n'],
    ['a run of them', 'id,name\n1,\u007f\u007f\u007f\n2,x\n'],
    ['at the end', 'id\n1\u007f'],
  ])('a csv with %s is allowed whole', async (_, csv) => {
    for (const body of [{ text: csv }, { blob: Buffer.from(csv, 'utf8').toString('base64') }]) {
      const decision = await gate.decideRead({
        stage: 'read',
        link: { type: 'resource_link', uri: LINK, name: 'data', mimeType: 'text/csv' },
        result: { resultType: 'complete', contents: [{ uri: LINK, mimeType: 'text/csv', ...body }] },
      });
      expect(decision.effect).toBe('allow');
    }
  });
});
