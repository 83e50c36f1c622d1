// One body judged as a read result under every way a red team would send it: each declared type (or none) with
// each uri (odd and uppercase extensions included), through the shipped default profile unless a gate is given.
// The rounds' tables use it to say which sendings an attack got through, or a control was refused in.
import type { Gate } from '../../../src/gate/create-gate.ts';
import { profileGate } from '../consumers/profile-gate.ts';

/** The shipped profile (policies/default.yaml as it is). */
export const shippedGate = profileGate();

/** One way to send a body: its uri and declared type (undefined: no type declared). */
export type Sending = readonly [uri: string, mimeType: string | undefined];

/** A body as text or as bytes (sent as a blob). */
export type Body = { text: string } | { blob: Buffer };

/** The verdict for one sending: effect and `code: message` reasons. */
export interface SendingVerdict {
  readonly sending: string;
  readonly effect: string;
  readonly codes: readonly string[];
  readonly why: string;
}

/** Every sending of `body` judged by `gate`. */
export async function judgeSendings(
  body: Body,
  sendings: readonly Sending[],
  gate: Gate = shippedGate,
): Promise<SendingVerdict[]> {
  const verdicts: SendingVerdict[] = [];
  for (const [uri, mimeType] of sendings) {
    const payload = 'text' in body ? { text: body.text } : { blob: body.blob.toString('base64') };
    const typed = mimeType === undefined ? {} : { mimeType };
    const decision = await gate.decideRead({
      stage: 'read',
      link: { type: 'resource_link', uri, name: 'file', ...typed },
      result: { resultType: 'complete', contents: [{ uri, ...typed, ...payload }] },
    });
    verdicts.push({
      sending: `${uri} as ${mimeType ?? '(no type)'}`,
      effect: decision.effect,
      codes: decision.reasons.map((r) => r.code),
      why: decision.reasons.map((r) => `${r.code}: ${r.message}`).join('; '),
    });
  }
  return verdicts;
}

/** The sendings an attack got through: allowed, or refused without a `content.*` reason. */
export function letThrough(verdicts: readonly SendingVerdict[]): string[] {
  return verdicts
    .filter((v) => v.effect === 'allow' || !v.codes.some((c) => c.startsWith('content.')))
    .map((v) => `${v.sending}: ${v.effect} ${v.why}`);
}

/** The sendings a benign control was refused in. */
export function refused(verdicts: readonly SendingVerdict[]): string[] {
  return verdicts.filter((v) => v.effect !== 'allow').map((v) => `${v.sending}: ${v.effect} ${v.why}`);
}

/** `base` under each extension in `exts` ('' for none), each declared as each of `types`. */
export function sendingsOf(base: string, exts: readonly string[], types: readonly (string | undefined)[]): Sending[] {
  return exts.flatMap((ext) => types.map((t): Sending => [`${base}${ext}`, t]));
}
