import { judgeContent, type ContentFinding, type ContentRules } from '../content/judge-content.ts';
import { UNKNOWN_KIND, normalizeMime } from '../content/kinds.ts';
import { sniffContent, sniffContentSync, type ContentSniff, type SniffOptions } from '../content/sniff-content.ts';
import { holdBody, releaseBody } from '../content/text/byte-classes.ts';
import type { Effect, Reason } from '../decision/decision.ts';
import { quoteValue } from '../decision/quote-value.ts';
import type { ReasonCode } from '../decision/reason-codes.ts';
import { maskUri } from '../link/mask-uri.ts';
import type { Policy } from '../policy/policy.ts';
import { applyByteCaps } from '../read/byte-caps.ts';
import { inspectItem, type InspectedItem, type ShapedItem } from '../read/read-item.ts';
import { decodeStrictBase64 } from '../read/strict-base64.ts';
import { uriWithinLink } from '../read/uri-scope.ts';
import type { ReadInput } from './inputs.ts';

// the one encoder of text items into the byte classifier's memory
const utf8 = new TextEncoder();

// Judging the items of a read (or one embedded resource): shape, uri scope, byte caps before decoding, strict
// base64, one sniff per item and the content rules. Each item's findings are kept on its state.

/** One content finding: an effect and its reason. */
export type Finding = ContentFinding;

/** What the read decision knows of one item while it judges it. */
export interface ItemState {
  inspected: InspectedItem;
  declaredMime: string | null;
  findings: Finding[];
  /** the finding came from a byte cap under `overCap: partial`: the item is dropped, the read goes on */
  dropped: boolean;
  kind: string;
  /** decoded bytes, or how to decode them again (a body judged in place), kept only until evidence hashes them */
  decoded: Buffer | (() => Buffer) | null;
}

/** A finding with one reason. */
export const finding = (
  effect: Exclude<Effect, 'allow'>,
  code: ReasonCode,
  rule: string,
  stage: Reason['stage'],
  message: string,
): Finding => ({
  effect,
  reason: { code, rule, stage, message },
});

/** The state of item `index` after its shape check; the link's declared type stands in for an item's own when it is the linked resource. */
export function itemState(value: unknown, index: number, input: ReadInput | null): ItemState {
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

/** Judges each item in place (uri scope when `input` is given, caps, decoding, sniff, content rules); synchronous for the common case, a promise only when some item needs file-type to be named. */
export function judgeItems(policy: Policy, input: ReadInput | null, states: ItemState[]): Promise<void> | undefined {
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
    consumers: policy.consumers,
  };
  let waiting: { state: ItemState; bytes: Buffer; text: string | undefined; uri: string }[] | undefined;
  for (const s of shaped) {
    const breach = breaches.get(s.inspected.index);
    if (breach !== undefined) {
      s.findings.push(finding('deny', 'content.too-large', breach.rule, 'content', breach.message));
      s.dropped = overCapPartial;
      continue;
    }
    // a blob is decoded (a text encoded) into the byte classifier's memory, where the checks read it without a copy or
    // a new buffer of its size; it is let go once judged, so what outlives the judging (a wait for file-type, the
    // evidence's digest) keeps bytes of its own
    let held: Buffer | null = null;
    const { payload, carrier } = s.inspected;
    const bytes = carrier === 'blob' ? decodeStrictBase64(payload, (length) => (held = holdBody(length))) : null;
    try {
      let body = bytes;
      if (carrier === 'text') {
        // `bytes` is the string's UTF-8 length (a lone surrogate is the three bytes of U+FFFD, as written); should the
        // two ever differ, the text gets a buffer of its own. Whole only when every character was read and the buffer
        // filled: `Buffer.write`'s count alone stops at a character boundary, so a short buffer could pass as full
        held = holdBody(s.inspected.bytes);
        const into = utf8.encodeInto(payload, held);
        if (into.read === payload.length && into.written === held.length) body = held;
        else {
          releaseBody(held);
          held = null;
          body = Buffer.from(payload, 'utf8');
        }
      }
      if (body === null) {
        s.findings.push(
          finding('deny', 'content.shape', 'content', 'content', 'the item has a `blob` that is not canonical base64'),
        );
        continue;
      }
      const inPlace = body === held;
      const encoding = carrier === 'text' ? 'utf8' : 'base64';
      s.decoded = inPlace ? () => Buffer.from(payload, encoding) : body;
      const text = carrier === 'text' ? payload : undefined;
      const sniff = sniffContentSync(body, sniffOptions(text, s.declaredMime, rules, s.inspected.uri));
      if (sniff !== null) judgeSniffed(s, sniff, rules);
      else {
        const own = inPlace ? Buffer.from(body) : body;
        (waiting ??= []).push({ state: s, bytes: own, text, uri: s.inspected.uri });
      }
    } finally {
      if (held !== null) releaseBody(held);
    }
  }
  if (waiting === undefined) return undefined;
  const later = waiting;
  return (async () => {
    for (const { state, bytes, text, uri } of later)
      judgeSniffed(state, await sniffContent(bytes, sniffOptions(text, state.declaredMime, rules, uri)), rules);
  })();
}

// invisible characters are looked for only when the policy withholds them; the declared type keeps a data body
// (JSON, CSV) from being rendered as markdown, the uri's extension a source file declared text/plain
function sniffOptions(
  text: string | undefined,
  declaredMime: string | null,
  rules: ContentRules,
  uri: string | undefined,
): SniffOptions {
  // one object, no spreads: this runs once per item read
  const options: SniffOptions = { findInvisible: rules.flagInvisibleText === true, declaredMime };
  if (uri !== undefined) options.uri = uri;
  if (rules.consumers !== undefined) options.consumers = rules.consumers;
  if (text !== undefined) options.text = text;
  return options;
}

function judgeSniffed(s: ItemState, sniff: ContentSniff, rules: ContentRules): void {
  s.kind = sniff.kind;
  const judged = judgeContent(s.declaredMime, sniff, rules);
  for (const f of judged.findings) s.findings.push(f);
}
