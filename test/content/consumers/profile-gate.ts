// A gate over policies/default.yaml with `content.consumers` set, and one body judged through it as a read result:
// the consumer differentials judge attacks under the one adapter they test and controls under the whole profile.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createGate, type Gate } from '../../../src/gate/create-gate.ts';
import { parsePolicy } from '../../../src/policy/load-policy.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const defaultYaml = readFileSync(path.join(repoRoot, 'policies/default.yaml'), 'utf8');

/** A gate over policies/default.yaml whose `content.consumers` is `consumers` (absent: as shipped), with `alsoAllow` added to `content.allow`. */
export function profileGate(consumers?: readonly string[], alsoAllow: readonly string[] = []): Gate {
  let text = defaultYaml.replace(
    /^content:\n {2}allow:\n/m,
    `content:\n  allow:\n${alsoAllow.map((m) => `    - ${m}\n`).join('')}`,
  );
  if (consumers !== undefined)
    text = text.replace(/^content:\n/m, `content:\n  consumers: [${consumers.join(', ')}]\n`);
  return createGate(parsePolicy(text, 'default.yaml'));
}

/** The effect and every reason (`code: message`, joined) of reading `body` at `uri` declared `mimeType`. */
export async function decideBody(
  gate: Gate,
  uri: string,
  mimeType: string,
  body: { text: string } | { blob: string },
): Promise<{ effect: string; why: string }> {
  const decision = await gate.decideRead({
    stage: 'read',
    link: { type: 'resource_link', uri, name: 'file', mimeType },
    result: { resultType: 'complete', contents: [{ uri, mimeType, ...body }] },
  });
  return { effect: decision.effect, why: decision.reasons.map((r) => `${r.code}: ${r.message}`).join('; ') };
}
