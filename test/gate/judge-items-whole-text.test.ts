// A text item is encoded into the byte classifier's memory and judged in place only when all of it fit (issue 39,
// sdkorder item 4; a minimal edit of speed's src/gate/judge-items.ts): the check compared `Buffer.write`'s count with
// the buffer's length, and that count stops at a character boundary, so a buffer shorter than the text passed as
// full and only its start was judged. The item's byte count is made one short here (today's `Buffer.byteLength` is
// exact, so this stands for any future miscount): the last byte, a NUL that makes the body binary, must still be seen.
import path from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { decideReadDetailed } from '../../src/gate/decide-read.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';

vi.mock('../../src/read/read-item.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/read/read-item.ts')>();
  return {
    ...original,
    inspectItem: (...args: Parameters<typeof original.inspectItem>) => {
      const inspected = original.inspectItem(...args);
      return inspected.ok && inspected.carrier === 'text' ? { ...inspected, bytes: inspected.bytes - 1 } : inspected;
    },
  };
});

const policy = await loadPolicy(path.join(import.meta.dirname, '../../policies/default.yaml'));
const uri = 'guide://manuals/packing';
const readOf = (body: string) => ({
  stage: 'read' as const,
  link: { type: 'resource_link' as const, uri, name: 'packing' },
  result: { contents: [{ uri, mimeType: 'text/plain', text: body }] },
});

describe('a text item judged in place', () => {
  test('a buffer shorter than the text is not judged as the whole text', async () => {
    const plain = await decideReadDetailed(policy, readOf(`${'plain words '.repeat(40)}end`));
    expect(plain.decision.effect).toBe('allow');
    const binaryTail = await decideReadDetailed(policy, readOf(`${'plain words '.repeat(40)}end\u0000`));
    expect(binaryTail.decision.effect).not.toBe('allow');
  });
});
