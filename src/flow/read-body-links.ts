import { TextDecoder } from 'node:util';
import type { Reason } from '../decision/decision.ts';
import { isRecord } from '../decision/json-value.ts';
import type { Gate } from '../gate/create-gate.ts';
import { uriOf } from '../link/resource-link.ts';
import { decodeStrictBase64 } from '../read/strict-base64.ts';
import { decisionMetaKey } from './decision-meta.ts';
import { declaresJson } from './json-text-links.ts';
import { jsonShape } from './json-scan.ts';
import { resultLinkDecider } from './link-decider.ts';
import { type BodyLink, type KeepBodyLinks, keptBodyLinks } from './kept-body-links.ts';
import { duplicateName } from './member-names.ts';
import { MessageLedger } from './message-ledger.ts';
import { refusedLinkNotice } from './refused-link.ts';
import type { ReadBodyItem, ReadBodyJudge } from './read-body-decision.ts';
import { type AnswerTiming, judgeRead, type LinkStep, type ReadJudgement } from './link-steps.ts';
import type { ReadAnswer } from './link-reader.ts';
import { applyStructured, judgeStructured, type RefusedRef, structuredLimits } from './structured-links.ts';

// A read's body whose whole text is one JSON object or array (declared `application/json` or `+json`, or undeclared and
// lexically JSON; a blob of it decoded as its text) is structured data, as a tool result's JSON text is: a host or
// model reads a `resource_link` in it, or an embedded resource's uri, as a link. Its links are judged as links the
// server that answered the read returned (`judgeStructured`, the tool result's one mechanism), a refused one replaced
// by its notice in place, and the item handed on as its judged JSON. A body that is not JSON (prose naming an address)
// is a document, and untouched. Past the structured-data limits, or naming a member twice, the item is withheld.

/**
 * `judgeRead`, with the read's JSON bodies judged for links (`judgeReadBodies`) as links the server that answered
 * returned: the one read judgement of every front end that hands a body on (the flow, the decorator and the proxy).
 * `keep` is told of the links the front end keeps as the answering server's (`keptBodyLinks`).
 */
export function judgeReadAnswer(
  gate: Gate,
  step: LinkStep,
  answer: ReadAnswer,
  timing: AnswerTiming,
  keep?: KeepBodyLinks,
): Promise<ReadJudgement> {
  return judgeRead(gate, step, answer, timing, readBodyJudge(gate, keep));
}

/**
 * The JSON bodies' link judgement `judgeRead` and `judgeAlteredRead` take: `judgeReadBodies` with `gate`, telling
 * `keep` of the links to keep.
 */
export function readBodyJudge(gate: Gate, keep?: KeepBodyLinks): ReadBodyJudge {
  return (contents, deliver, server) => judgeReadBodies(gate, contents, deliver, server, keep);
}

/**
 * Judges the JSON bodies among `contents` at `indices` (the items that would be delivered) for links returned by
 * `server`, sharing one link decider and one search bound across them: by index, each item that holds a refused link
 * (its judged JSON, the refused links' reasons, worded by their notices) or that is withheld whole (past the limits,
 * a member named twice). Items with nothing refused are absent. `keep` is told once, before anything is handed on,
 * of the links a front end keeps as `server`'s (`keptBodyLinks`: every link object, every refused link; whatever the
 * mode, whatever refused them): a front end keeps them in its ledger or state, and notes the address of one refused
 * for its address (`RefusedAddresses.noteDecided`, the hook's `SessionState.addRefused`). Never throws for server
 * data.
 */
export async function judgeReadBodies(
  gate: Gate,
  contents: readonly unknown[],
  indices: readonly number[],
  server: string,
  keep?: KeepBodyLinks,
): Promise<Map<number, ReadBodyItem>> {
  const judged = new Map<number, ReadBodyItem>();
  // `almost`: a body that opens like JSON and does not parse, judged as the string it is (what a lenient reader takes)
  const bodies: { index: number; value: unknown; almost?: true }[] = [];
  let scanned = 0;
  for (const index of indices) {
    const text = bodyText(contents[index]);
    if (text === null) continue;
    if (text === notUtf8) {
      judged.set(index, { kind: 'withheld', reasons: [notUtf8Reason] });
      continue;
    }
    const shape = jsonShape(text);
    // a character JSON never has outside strings: parse refuses it, a lenient reader does not
    if (!shape.lexical) {
      bodies.push({ index, value: text, almost: true });
      continue;
    }
    // the limits hold for all the bodies of one read together, as for a tool result's JSON texts: a body past them is
    // withheld unparsed
    scanned += shape.values;
    if (scanned > structuredLimits.maxValues || shape.depth > structuredLimits.maxDepth + 1) {
      judged.set(index, { kind: 'withheld', reasons: [tooComplex] });
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      bodies.push({ index, value: text, almost: true });
      continue;
    }
    const twice = duplicateName(text);
    if (twice !== null) judged.set(index, { kind: 'withheld', reasons: [duplicateReason] });
    else bodies.push({ index, value });
  }
  if (bodies.length === 0) return judged;
  const decide = resultLinkDecider(gate, server);
  const searched = { chars: 0 };
  const refusedBy = new Map<number, RefusedRef[]>();
  const foundIn: (readonly BodyLink[])[] = bodies.map(() => []);
  // judged in enforce mode whatever the flow's mode: observe mode records the partial decision and delivers all
  const judgements = await Promise.all(
    bodies.map(({ index, value }, i) => {
      const refused: RefusedRef[] = [];
      refusedBy.set(index, refused);
      return judgeStructured(gate, value, {
        server,
        mode: 'enforce',
        decide,
        searched,
        noteRefused: (r) => refused.push(r),
        noteFound: (found) => {
          foundIn[i] = found;
        },
      });
    }),
  );
  const refusedAll = [...refusedBy.values()].flat();
  keep?.(keptBodyLinks(foundIn.flat(), server));
  const ledger = MessageLedger.of(refusedAll.map((r) => uriOf(r.link)));
  bodies.forEach(({ index, value, almost }, i) => {
    const judgement = judgements[i];
    if (judgement === undefined) return;
    if (judgement.withheld) {
      judged.set(index, {
        kind: 'withheld',
        reasons: [judgement.shape === true ? shapeReason(judgement.reason ?? judgement.notice) : tooComplex],
      });
      return;
    }
    if (judgement.edits.length === 0) return;
    const reasons = refusalReasons(refusedBy.get(index) ?? [], ledger);
    // a body that does not parse is one string: its notice stands for it whole
    if (almost === true) {
      judged.set(index, {
        kind: 'replaced',
        item: withText(contents[index], String(judgement.edits[0]?.value)),
        reasons,
      });
      return;
    }
    // the text is read whole: the decision a replaced link carries under `_meta` (its reasons may name the host) is
    // left out of it, as it is of a tool result's JSON text
    const text = JSON.stringify(applyStructured(value, judgement), (key, v: unknown) =>
      key === decisionMetaKey ? undefined : v,
    );
    judged.set(index, { kind: 'replaced', item: withText(contents[index], text), reasons });
  });
  return judged;
}

// a blob declared JSON whose bytes are not UTF-8 (`bodyText`)
const notUtf8: unique symbol = Symbol('not utf-8');

// the text of a read item that is a JSON body: a text declared JSON or undeclared, a blob of it decoded (`notUtf8`:
// declared JSON, its bytes not UTF-8); else null
function bodyText(item: unknown): string | typeof notUtf8 | null {
  if (!isRecord(item)) return null;
  const declared = item['mimeType'];
  if (declared !== undefined && (typeof declared !== 'string' || !declaresJson(declared))) return null;
  const text = item['text'];
  const blob = item['blob'];
  if (typeof text === 'string') return blob === undefined && startsJson(text) ? text : null;
  if (typeof blob !== 'string') return null;
  // an undeclared blob is decoded only when its first bytes open a JSON object or array
  if (declared === undefined && !startsJson(Buffer.from(blob.slice(0, 64), 'base64').toString('latin1'))) return null;
  const bytes = decodeStrictBase64(blob);
  if (bytes === null) return null;
  try {
    const decoded = utf8.decode(bytes);
    return startsJson(decoded) ? decoded : null;
  } catch {
    // JSON is UTF-8 (RFC 8259 §8.1): a body declared JSON that is not cannot be judged as the JSON a lenient reader
    // decodes (replacement characters, links and all); an undeclared one is binary, judged by the read's content
    return declared === undefined ? null : notUtf8;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function startsJson(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '{' || first === '[';
}

// the item with its body as `text` (a blob's becomes a text item of its judged JSON)
function withText(item: unknown, text: string): Record<string, unknown> {
  const { blob: _, ...rest } = item as Record<string, unknown>;
  return { ...rest, text };
}

// one reason per refused link and code, worded by the link's notice (its quoted name, scheme, codes: never its uri)
function refusalReasons(refused: readonly RefusedRef[], ledger: MessageLedger): Reason[] {
  const reasons: Reason[] = [];
  const seen = new Set<string>();
  for (const { link, decision, ref } of refused) {
    const message = refusedLinkNotice(link, decision, ref, ledger);
    for (const r of decision.reasons) {
      const key = `${r.code}\n${r.rule}\n${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      reasons.push({ code: r.code, rule: r.rule, stage: 'content', message });
    }
  }
  return reasons;
}

const tooComplex: Reason = {
  code: 'content.too-complex',
  rule: 'structuredLimits',
  stage: 'content',
  message: `a JSON body past ${structuredLimits.maxValues} values, ${structuredLimits.maxDepth} levels or the characters searched for refused links is withheld`,
};

// a body withheld for its shape (`judgeStructured`'s `shape`: a member named twice inside a JSON string, a text that
// does not parse and names `resource_link`), worded by the reason the judgement hands with its notice
const shapeReason = (message: string): Reason => ({
  code: 'content.shape',
  rule: 'structuredLimits',
  stage: 'content',
  message,
});

const duplicateReason: Reason = {
  code: 'content.shape',
  rule: 'structuredLimits',
  stage: 'content',
  message: 'a JSON body that names a member twice in one object is withheld: readers differ on which one counts',
};

const notUtf8Reason: Reason = {
  code: 'content.uninterpretable',
  rule: 'structuredLimits',
  stage: 'content',
  message:
    'a body declared JSON whose bytes are not UTF-8 is withheld: it cannot be judged as the JSON a reader decodes',
};
