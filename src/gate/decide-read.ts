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
import { createHash } from 'node:crypto';
import { judgeContent, type ContentFinding, type ContentRules } from '../content/judge-content.ts';
import { quoteValue } from '../decision/quote-value.ts';
import { maskUri } from '../link/mask-uri.ts';
import { UNKNOWN_KIND, normalizeMime } from '../content/kinds.ts';
import { sniffContent, sniffContentSync, type ContentSniff, type SniffOptions } from '../content/sniff-content.ts';
import type { Policy } from '../policy/policy.ts';
import { applyByteCaps } from '../read/byte-caps.ts';
import { buildReadFacts } from '../read/read-facts.ts';
import { inspectItem, type InspectedItem, type ShapedItem } from '../read/read-item.ts';
import { classifyResult, describeRpcError } from '../read/result-outcome.ts';
import { decodeStrictBase64 } from '../read/strict-base64.ts';
import { uriWithinLink } from '../read/uri-scope.ts';
import {
  combineEffects,
  strongerEffect,
  type Decision,
  type Effect,
  type ItemDecision,
  type Reason,
} from '../decision/decision.ts';
import type { ReadInput } from './inputs.ts';
import type { ReasonCode } from '../decision/reason-codes.ts';
import { hasStageRules, runRules } from './run-rules.ts';

/** What the read decision saw of one contents item; never the body itself. */
export interface ItemEvidence {
  index: number;
  carrier: 'text' | 'blob' | 'none';
  /** decoded bytes (utf-8 bytes for text) */
  bytes: number;
  /** declared mimeType of the item, normalized, or null */
  declaredMime: string | null;
  /** real kind id from our table (`png`, `text`, …) or `unknown` */
  kind: string;
  /** `sha256:<hex>` of the decoded bytes, null when not decoded (over cap, bad shape) */
  sha256: string | null;
}

/** A read decision with its per-item evidence (for records). */
export interface ReadVerdict {
  decision: Decision;
  evidence: ItemEvidence[];
}

type Finding = ContentFinding;

interface ItemState {
  inspected: InspectedItem;
  declaredMime: string | null;
  findings: Finding[];
  /** the finding came from a byte cap under `overCap: partial`: the item is dropped, the read goes on */
  dropped: boolean;
  kind: string;
  /** decoded bytes, kept only until evidence hashes them */
  decoded: Buffer | null;
}

const finding = (
  effect: Exclude<Effect, 'allow'>,
  code: ReasonCode,
  rule: string,
  stage: Reason['stage'],
  message: string,
): Finding => ({
  effect,
  reason: { code, rule, stage, message },
});

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
      envelope.push(finding('deny', 'read.error', 'read', 'read', describeRpcError(outcome.code)));
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

  const items: ItemDecision[] = states.map((s, index) => {
    // an item not looked at because the read as a whole failed shares the read's reasons
    if (decidedBefore) return { index, effect: 'deny', reasons: envelope.map((f) => ({ ...f.reason })) };
    return { index, effect: combineEffects(s.findings.map((f) => f.effect)), reasons: s.findings.map((f) => f.reason) };
  });

  let effect: Effect = combineEffects([...envelope.map((f) => f.effect), ...hits.map((h) => h.effect)]);
  const reasons: Reason[] = [...envelope.map((f) => f.reason)];
  if (!decidedBefore) {
    for (const s of states) {
      for (const f of s.findings) {
        effect = strongerEffect(effect, s.dropped && f.reason.code === 'content.too-large' ? 'partial' : f.effect);
        reasons.push({ ...f.reason, message: `item ${s.inspected.index}: ${f.reason.message}` });
      }
    }
  }
  reasons.push(...hits.map((h) => h.reason));
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

function itemState(value: unknown, index: number, input: ReadInput | null): ItemState {
  const inspected = inspectItem(value, index);
  let declaredMime = inspected.declaredMime;
  // an item without its own mimeType inherits the link's declaration when it is the linked resource itself
  if (
    declaredMime === null &&
    input !== null &&
    inspected.uri === input.link.uri &&
    input.link.mimeType !== undefined
  ) {
    const fromLink = normalizeMime(input.link.mimeType);
    declaredMime = fromLink === '' ? null : fromLink;
  }
  const findings: Finding[] = [];
  if (!inspected.ok) findings.push(finding('deny', 'content.shape', 'content', 'content', inspected.message));
  return { inspected, declaredMime, findings, dropped: false, kind: UNKNOWN_KIND, decoded: null };
}

// synchronous for the common case; returns a promise only when some item needs file-type to be named
function judgeItems(policy: Policy, input: ReadInput | null, states: ItemState[]): Promise<void> | undefined {
  const doc = policy.document;
  if (input !== null) {
    for (const s of states) {
      if (s.inspected.ok && !uriWithinLink(input.link.uri, s.inspected.uri)) {
        s.findings.push(
          finding(
            'deny',
            'read.uri-mismatch',
            'read',
            'read',
            `item uri ${quoteValue(maskUri(s.inspected.uri))} is neither the link's uri nor below it`,
          ),
        );
      }
    }
  }
  const shaped = states.filter(
    (s): s is ItemState & { inspected: ShapedItem } => s.inspected.ok && s.findings.length === 0,
  );
  const breaches = applyByteCaps(
    shaped.map((s) => ({ index: s.inspected.index, bytes: s.inspected.bytes })),
    { maxBytes: doc.read.maxBytes, maxItemBytes: doc.read.maxItemBytes },
  );
  const overCapPartial = doc.read.overCap === 'partial';
  const rules: ContentRules = {
    allow: doc.content.allow,
    allowedKinds: policy.allowedKinds,
    maxImagePixels: doc.content.maxImagePixels,
    flagInvisibleText: doc.content.flagInvisibleText,
  };
  let waiting: { state: ItemState; bytes: Buffer; text: string | undefined }[] | undefined;
  for (const s of shaped) {
    const breach = breaches.get(s.inspected.index);
    if (breach !== undefined) {
      s.findings.push(finding('deny', 'content.too-large', breach.rule, 'content', breach.message));
      s.dropped = overCapPartial;
      continue;
    }
    const bytes =
      s.inspected.carrier === 'blob'
        ? decodeStrictBase64(s.inspected.payload)
        : Buffer.from(s.inspected.payload, 'utf8');
    if (bytes === null) {
      s.findings.push(
        finding('deny', 'content.shape', 'content', 'content', 'the item has a `blob` that is not canonical base64'),
      );
      continue;
    }
    s.decoded = bytes;
    const text = s.inspected.carrier === 'text' ? s.inspected.payload : undefined;
    const sniff = sniffContentSync(bytes, sniffOptions(text, rules));
    if (sniff !== null) judgeSniffed(s, sniff, rules);
    else (waiting ??= []).push({ state: s, bytes, text });
  }
  if (waiting === undefined) return undefined;
  const later = waiting;
  return (async () => {
    for (const { state, bytes, text } of later)
      judgeSniffed(state, await sniffContent(bytes, sniffOptions(text, rules)), rules);
  })();
}

// invisible characters are looked for only when the policy withholds them
function sniffOptions(text: string | undefined, rules: ContentRules): SniffOptions {
  const findInvisible = rules.flagInvisibleText === true;
  return text === undefined ? { findInvisible } : { text, findInvisible };
}

function judgeSniffed(s: ItemState, sniff: ContentSniff, rules: ContentRules): void {
  s.kind = sniff.kind;
  const judged = judgeContent(s.declaredMime, sniff, rules);
  for (const f of judged.findings) s.findings.push(f);
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

// evidence is built when someone reads it: `gate.decideRead` drops it, records and reviews read it
function verdictOf(decision: Decision, states: readonly ItemState[]): ReadVerdict {
  let evidence: ItemEvidence[] | null = null;
  return {
    decision,
    get evidence(): ItemEvidence[] {
      evidence ??= states.map((s) => evidenceOf(s));
      return evidence;
    },
    set evidence(value: ItemEvidence[]) {
      evidence = value;
    },
  };
}

function evidenceOf(s: ItemState): ItemEvidence {
  const evidence: ItemEvidence = {
    index: s.inspected.index,
    carrier: s.inspected.carrier,
    bytes: s.inspected.ok ? s.inspected.bytes : 0,
    declaredMime: s.declaredMime,
    kind: s.kind,
    sha256: null,
  };
  if (s.decoded !== null) hashOnFirstRead(evidence, s.decoded);
  return evidence;
}

// hashing costs more than decoding, and `gate.decideRead` drops the evidence: the digest is computed the
// first time anyone reads it (JSON.stringify, spread and property access all do), then the bytes are released
function hashOnFirstRead(evidence: ItemEvidence, bytes: Buffer): void {
  let pending: Buffer | null = bytes;
  let digest: string | null = null;
  Object.defineProperty(evidence, 'sha256', {
    enumerable: true,
    configurable: true,
    get(): string | null {
      if (pending !== null) {
        digest = `sha256:${createHash('sha256').update(pending).digest('hex')}`;
        pending = null;
      }
      return digest;
    },
    set(value: string | null): void {
      pending = null;
      digest = value;
    },
  });
}
