// One item judged under policies/default.yaml as a read result, for content tables that compare the gate with a
// real consumer.
import path from 'node:path';
import type { Effect } from '../../src/decision/decision.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));
const LINK = 'guide://manuals/packing';

/** The effect and reason codes default.yaml gives `bytes` read back as a blob under `mimeType`. */
export async function decideItem(
  bytes: Buffer,
  mimeType: string,
): Promise<{ effect: Effect; codes: string[]; messages: string }> {
  const decision = await gate.decideRead({
    stage: 'read',
    link: { type: 'resource_link', uri: LINK, name: 'packing' },
    result: {
      resultType: 'complete',
      contents: [{ uri: LINK, mimeType, blob: bytes.toString('base64') }],
    },
  });
  return {
    effect: decision.effect,
    codes: decision.reasons.map((r) => r.code),
    messages: decision.reasons.map((r) => `${r.code}: ${r.message}`).join('\n'),
  };
}
