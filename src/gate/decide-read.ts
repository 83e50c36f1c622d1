// Post-read decision (DESIGN §3–§5): result envelope, item shape, caps before decoding, one sniff per item, custom rules.
//
// Choices this file makes (documented here because the design leaves them open):
// - a `contents` that is missing or not an array, and items that are not objects, are `content.shape` (the
//   line itself is valid; the server's answer is malformed), never `input.invalid`;
// - envelope failures (json-rpc error, input_required, unknown result type, timeout, server mismatch, no
//   contents, too many items) deny the read and every item with the read's reasons; no item is decoded;
// - an accepted `task` result without contents is allowed with no items: its final result is decided on its own;
// - deny beats partial beats allow; an item dropped by a byte cap under `overCap: partial` makes the read
//   partial, unless nothing deliverable is left, which is a deny.
import {
  combineEffects,
  strongerEffect,
  type Decision,
  type Effect,
  type ItemDecision,
  type Reason,
} from '../decision/decision.ts';
import { quoteValue } from '../decision/quote-value.ts';
import type { Policy } from '../policy/policy.ts';
import { buildReadFacts } from '../read/read-facts.ts';
import { classifyResult, describeRpcError } from '../read/result-outcome.ts';
import type { ReadInput } from './inputs.ts';
import { type Finding, finding, itemState, judgeItems, type ItemState } from './judge-items.ts';
import { verdictOf, type ReadVerdict } from './read-evidence.ts';
import { hasStageRules, runRules } from './run-rules.ts';

/** The read decision's result types, where callers of the decision look for them. */
export type { ItemEvidence, ReadVerdict } from './read-evidence.ts';

/** Post-read decision with evidence; never throws for bad input, never decodes over-cap blobs. */
export async function decideReadDetailed(policy: Policy, input: ReadInput): Promise<ReadVerdict> {
  const doc = policy.document;
  const server = input.server ?? 'default';
  // like a link line, a read line without `readFrom` was read from the server that returned the link (DESIGN §4)
  const readFrom = input.readFrom ?? server;
  const envelope: Finding[] = [];

  if (doc.links.requireSameServer && readFrom !== server) {
    envelope.push(
      finding(
        'deny',
        'server.mismatch',
        'links.requireSameServer',
        'read',
        `the read went to server ${quoteValue(readFrom)} but the link came from server ${quoteValue(server)}`,
      ),
    );
  }
  if (input.elapsedMs !== undefined && input.elapsedMs > doc.read.readTimeoutMs) {
    envelope.push(
      finding(
        'deny',
        'read.timeout',
        'read.readTimeoutMs',
        'read',
        `the read took ${input.elapsedMs} ms, over the deadline of ${doc.read.readTimeoutMs} ms`,
      ),
    );
  }

  const outcome = classifyResult(input.result);
  let resultType = 'complete';
  let contents: unknown = undefined;
  let expectContents = false;
  switch (outcome.kind) {
    case 'error':
      resultType = 'error';
      envelope.push(finding('deny', 'read.error', 'read', 'read', describeRpcError(outcome.code, outcome.notFound)));
      break;
    case 'input-required':
      resultType = 'input_required';
      envelope.push(
        finding(
          'deny',
          'read.input-required',
          'read.answerInputRequired',
          'read',
          'the server asked for input (`input_required`); the read is not final',
        ),
      );
      break;
    case 'unknown-type':
      resultType = outcome.resultType;
      envelope.push(
        finding(
          'deny',
          'read.result-type-unknown',
          'read',
          'read',
          `unknown result type ${quoteValue(outcome.resultType)}`,
        ),
      );
      break;
    case 'task':
      resultType = 'task';
      if (doc.read.allowTaskResults !== true) {
        envelope.push(
          finding(
            'deny',
            'read.result-type-unknown',
            'read.allowTaskResults',
            'read',
            'result type `task` is not enabled by the policy',
          ),
        );
      } else if (outcome.contents !== undefined) {
        // a task that already carries contents is judged like a complete result; without them it goes on with
        // no items, and its final result gets its own decision
        contents = outcome.contents;
        expectContents = true;
      }
      break;
    case 'complete':
      contents = outcome.contents;
      expectContents = true;
      break;
  }

  let list: readonly unknown[] = [];
  if (expectContents) {
    if (!Array.isArray(contents)) {
      const what =
        contents === undefined ? 'the result has no `contents` array' : 'the result `contents` is not an array';
      envelope.push(finding('deny', 'content.shape', 'read', 'read', what));
    } else if (contents.length === 0) {
      envelope.push(finding('deny', 'read.empty', 'read', 'read', 'the result has no contents'));
    } else {
      list = contents;
      if (list.length > doc.read.maxItems) {
        envelope.push(
          finding(
            'deny',
            'content.too-many-items',
            'read.maxItems',
            'content',
            `the result has ${list.length} items, over the cap of ${doc.read.maxItems} items`,
          ),
        );
      }
    }
  }

  const states = list.map((value, index) => itemState(value, index, input));
  const decidedBefore = envelope.some((f) => f.effect === 'deny');
  if (!decidedBefore) {
    const pending = judgeItems(policy, input, states);
    if (pending !== undefined) await pending;
  }

  const hits = hasStageRules(policy, 'read')
    ? runRules(policy, 'read', readFacts(server, readFrom, input, resultType, list.length, states))
    : [];

  // built with loops, not maps and spreads of maps: a read makes one decision's arrays and nothing in between
  const items: ItemDecision[] = [];
  for (let index = 0; index < states.length; index += 1) {
    const findings = (states[index] as ItemState).findings;
    // an item not looked at because the read as a whole failed shares the read's reasons
    if (decidedBefore) {
      const shared: Reason[] = [];
      for (const f of envelope) shared.push({ ...f.reason });
      items.push({ index, effect: 'deny', reasons: shared });
      continue;
    }
    let itemEffect: Effect = 'allow';
    const itemReasons: Reason[] = [];
    for (const f of findings) {
      itemEffect = strongerEffect(itemEffect, f.effect);
      itemReasons.push(f.reason);
    }
    items.push({ index, effect: itemEffect, reasons: itemReasons });
  }

  let effect: Effect = 'allow';
  const reasons: Reason[] = [];
  for (const f of envelope) {
    effect = strongerEffect(effect, f.effect);
    reasons.push(f.reason);
  }
  for (const h of hits) effect = strongerEffect(effect, h.effect);
  if (!decidedBefore) {
    for (const s of states) {
      for (const f of s.findings) {
        effect = strongerEffect(effect, s.dropped && f.reason.code === 'content.too-large' ? 'partial' : f.effect);
        reasons.push({ ...f.reason, message: `item ${s.inspected.index}: ${f.reason.message}` });
      }
    }
  }
  for (const h of hits) reasons.push(h.reason);
  // dropping over-cap items leaves a partial read only while something is left to deliver
  if (effect === 'partial' && items.length > 0 && items.every((i) => i.effect === 'deny')) effect = 'deny';

  const decision: Decision = { effect, reasons, items, policy: { ...policy.ref } };
  return verdictOf(decision, states);
}

/** Content checks for an embedded resource (`type: "resource"` item of a tool result, or its `resource` member): same shape, caps and content rules, no read stage. */
export async function decideEmbedded(policy: Policy, resource: unknown): Promise<ReadVerdict> {
  const inner =
    resource !== null &&
    typeof resource === 'object' &&
    (resource as { type?: unknown }).type === 'resource' &&
    Object.hasOwn(resource, 'resource')
      ? (resource as { resource: unknown }).resource
      : resource;
  const state = itemState(inner, 0, null);
  const pending = judgeItems(policy, null, [state]);
  if (pending !== undefined) await pending;
  const reasons = state.findings.map((f) => f.reason);
  // a single embedded resource dropped for its size leaves nothing to deliver
  const effect = combineEffects(state.findings.map((f) => f.effect));
  return verdictOf(
    {
      effect,
      reasons: reasons.map((r) => ({ ...r })),
      items: [{ index: 0, effect, reasons }],
      policy: { ...policy.ref },
    },
    [state],
  );
}

function readFacts(
  server: string,
  readFrom: string,
  input: ReadInput,
  resultType: string,
  itemCount: number,
  states: readonly ItemState[],
): ReturnType<typeof buildReadFacts> {
  return buildReadFacts({
    server,
    readFrom,
    uri: input.link.uri,
    resultType,
    elapsedMs: input.elapsedMs ?? null,
    itemCount,
    totalBytes: states.reduce((sum, s) => sum + (s.inspected.ok ? s.inspected.bytes : 0), 0),
    kinds: states.map((s) => s.kind),
    mimeTypes: states.map((s) => s.declaredMime ?? ''),
  });
}
