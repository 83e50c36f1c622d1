import type { IncomingMessage } from 'node:http';
import { strongerEffect, type Decision, type Reason } from '../decision/decision.ts';
import type { Gate } from '../gate/create-gate.ts';
import { readCappedBody, trimCutText } from './body-limit.ts';
import { brokeOff, type FetchDeadlines } from './fetch-failure.ts';
import { failedWith } from './fetch-ending.ts';
import type { FetchResult } from './fetch-result.ts';
import { denied, type FetchTrace, finish } from './fetch-trace.ts';

/** The `rule` of the reason a body cut at `read.maxBytes` carries (`content.too-large`); the only reason a cut body may still be delivered with. */
export const overCapRule = 'fetch.overCap';

/** What the final response is read for: the request's method, the link it is judged as, and the fetch's deadlines. */
export interface FinalContext extends FetchDeadlines {
  method: string;
  server: string;
  name: string;
  /** the link's uri as the caller gave it */
  uri: string;
  /** the fetch's deadline and the caller's abort together */
  signal: AbortSignal;
}

/**
 * Reads the final response: a non-2xx status ends as an http error, the body is read under `read.maxBytes` (cut or
 * refused whole as `overCap` says) and checked like a `resources/read` blob; the body is kept only when delivered.
 */
export async function readFinal(
  gate: Gate,
  trace: FetchTrace,
  response: IncomingMessage,
  context: FinalContext,
): Promise<FetchResult> {
  const { policy } = trace;
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 299) {
    response.destroy();
    const decision = denied(policy, 'read.error', 'fetch', 'read', `server answered http status \`${status}\``);
    return finish(trace, { decision, ending: { kind: 'http-error', status } });
  }
  if (context.method === 'HEAD') {
    response.destroy();
    return finish(trace, { decision: { effect: 'allow', reasons: [], policy: { ...policy.ref } }, ending: complete });
  }
  const maxBytes = policy.document.read.maxBytes;
  const overCap = policy.document.fetch?.overCap ?? policy.document.read.overCap ?? 'deny';
  // content-length only refuses early; the byte counter decides what is accepted
  const declared = Number(response.headers['content-length']);
  if (overCap === 'deny' && Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    const message = `declared \`content-length\` ${declared} bytes is over the cap of ${maxBytes} bytes`;
    // refused whole for its size: received and denied, the decision names the cap
    return finish(trace, {
      decision: denied(policy, 'content.too-large', 'read.maxBytes', 'content', message),
      ending: complete,
    });
  }
  const body = await readCappedBody(response, maxBytes, context.signal);
  // a cut inside a character would make cut text fail the encoding checks; end it on a character boundary
  if (body.truncated) body.bytes = trimCutText(body.bytes);
  const received = { bytes: body.bytes.length, truncated: body.truncated };
  if (body.end === 'aborted')
    return finish(trace, brokeOff(policy, 'aborted', 'the fetch was aborted', context), received);
  if (body.end === 'error')
    return finish(
      trace,
      failedWith(denied(policy, 'fetch.failed', 'fetch', 'read', body.error ?? 'body read failed')),
      received,
    );
  if (body.truncated && overCap === 'deny') {
    const message = `body is over the cap of ${maxBytes} bytes`;
    const decision = denied(policy, 'content.too-large', 'read.maxBytes', 'content', message);
    return finish(trace, { decision, ending: complete }, received);
  }

  const contentType = trace.final?.contentType ?? null;
  const item: Record<string, string> = { uri: context.uri, blob: body.bytes.toString('base64') };
  if (contentType !== null) item.mimeType = contentType;
  const verdict = await gate.decideReadDetailed({
    stage: 'read',
    server: context.server,
    readFrom: context.server,
    link: { type: 'resource_link', uri: context.uri, name: context.name },
    elapsedMs: Math.round(performance.now() - trace.started),
    result: { resultType: 'complete', contents: [item] },
  });
  let decision = verdict.decision;
  if (body.truncated) decision = withCut(decision, maxBytes);
  // no evidence: the content checks did not run (the gate failed, or refused the read before them); always a deny
  if (verdict.evidence.length === 0) return finish(trace, failedWith(decision), received);
  const itemEffect = decision.items?.[0]?.effect ?? decision.effect;
  const deliver = decision.effect !== 'deny' && itemEffect !== 'deny';
  const kept = deliver ? new Uint8Array(body.bytes) : undefined;
  return finish(trace, { decision, ending: complete }, received, verdict.evidence, kept);
}

const complete = { kind: 'complete' } as const;

/** Adds "bytes cut" to a content decision: at least partial, on the whole and on the one item. */
function withCut(decision: Decision, maxBytes: number): Decision {
  const reason: Reason = {
    code: 'content.too-large',
    rule: overCapRule,
    stage: 'content',
    message: `body cut at the cap of ${maxBytes} bytes`,
  };
  const out: Decision = {
    ...decision,
    effect: strongerEffect(decision.effect, 'partial'),
    reasons: [...decision.reasons, reason],
  };
  if (decision.items !== undefined) {
    out.items = decision.items.map((item) =>
      item.index === 0
        ? { ...item, effect: strongerEffect(item.effect, 'partial'), reasons: [...item.reasons, reason] }
        : item,
    );
  }
  return out;
}
