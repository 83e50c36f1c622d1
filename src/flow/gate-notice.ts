import type { Decision, Reason } from '../decision/decision.ts';
import { maxQuotedChars, quoteValue } from '../decision/quote-value.ts';
import { maxUriChars } from '../link/parse-uri.ts';
import type { NextStep } from '../record/link-record.ts';
import { base64RunsText, blobText } from './blob-text.ts';
import type { LinkStep } from './link-steps.ts';
import type { MessageLedger } from './message-ledger.ts';
import { addressOf, holdsAddress, rawAddressOf, readBacks } from './read-back.ts';
import { recordRef } from './record-ref.ts';

/** Longest notice a front end writes for the model, characters (hosts cap hook output near 10,000). */
export const maxNoticeChars = 1500;

/**
 * What a notice names a link by: its name and the scheme of its uri, and its record's ref. The uri itself is never
 * shown (a shell or web fetch tool the gate does not cover could be pointed at it); the record keeps it.
 */
export interface NoticeSubject {
  /** the name its server gave the link; null when none is known (a read of a uri no tool result listed) */
  name: string | null;
  /** the link's uri: the notice shows its scheme only */
  uri: string;
  /** the short ref of the link's record (`recordRef`), null when there is none */
  ref: string | null;
  /**
   * the links the same message refused (`MessageLedger`): a name spelling one of their addresses is left out, one
   * spelling any other address is shown; absent, no name that spells any address at all is shown
   */
  refused?: MessageLedger | undefined;
}

/**
 * The one line every front end hands the model for what the gate refused, withheld or could not finish (the hook's
 * answers, the decorator's and the proxy's -32080 errors, `gatedRead`'s notice, withheld embedded resources, the text
 * item standing for a refused link): `what` it did, the subject's quoted, escaped name and scheme, the reason codes,
 * the record ref, the policy and the boundary to check next. Never a uri, nor anything else a server wrote: a reason's
 * message is shown only where the policy is its source (`showsMessage`) and it names neither the subject's host nor
 * its address, and a name that holds the link's own address, or an address its message refused
 * (`NoticeSubject.refused`), is not shown either. A bare string `subject` (the uri, as earlier versions took it) names
 * the link by its scheme alone.
 */
export function gateNotice(
  what: string,
  about: NoticeSubject | string | null,
  decision: Decision,
  next: NextStep | null,
): string {
  const given = typeof about === 'string' ? { name: null, uri: about, ref: null } : about;
  // a uri past `maxUriChars` is no link anyone reads; its start is all a notice's checks need (a shorter address is
  // found in more texts, so a cut uri hides more, never less)
  const subject =
    given === null || given.uri.length <= maxUriChars ? given : { ...given, uri: given.uri.slice(0, maxUriChars) };
  const codes = [...new Set(decision.reasons.map((r) => describeReason(r, subject)))].join('; ') || decision.effect;
  const record = subject?.ref == null ? '' : `record ${quoteValue(subject.ref)}; `;
  const policy = `policy \`${decision.policy.id}\` ${decision.policy.version}`;
  const where = next === null ? '' : `; next boundary: ${next.boundary}: ${next.hint}`;
  const text = `linkgate ${what}${subject === null ? '' : describeSubject(subject)}: ${codes} [${record}${policy}]${where}`;
  return text.length > maxNoticeChars ? `${text.slice(0, maxNoticeChars - 1)}…` : text;
}

/** What a notice about a step's link names it by: the link's name, its uri's scheme and the record ref of its step. */
export function stepSubject(step: LinkStep): NoticeSubject {
  return { name: step.link?.name ?? null, uri: step.link?.uri ?? step.discovered.uri, ref: recordRef(step.discovered) };
}

/** The scheme of `uri`, lowercase; empty when it has none. */
export function schemeOf(uri: string): string {
  return /^[A-Za-z][A-Za-z0-9+.-]*(?=:)/.exec(uri.trimStart())?.[0]?.toLowerCase() ?? '';
}

/**
 * Whether a notice may show `reason`'s message beside its code, in every front end (hook, decorator, proxy,
 * `gatedRead`): only where the policy is its source, a custom rule's message (the policy author's words) or why the
 * policy's review did not verify. Any other message may quote what the server sent (a uri's host or userinfo, a
 * withheld page's stylesheet href, an attribute, element or zip entry name, a declared or result type, an error's
 * text): its code is shown, the record keeps the message.
 */
export function showsMessage(reason: Reason): boolean {
  return reason.message !== '' && (reason.code.startsWith('rule.') || reason.code === 'policy.unreviewed');
}

function describeReason(r: Reason, subject: NoticeSubject | null): string {
  return shownBeside(r, subject) ? `${r.code} (${r.message})` : r.code;
}

// whether a reason's message is shown beside its code: the policy's words (`showsMessage`), naming no part of the
// subject's uri (a rule's message may name the host it refuses)
function shownBeside(r: Reason, subject: NoticeSubject | null): boolean {
  if (!showsMessage(r)) return false;
  return subject === null || !(holdsAddress(r.message, subject.uri) || holdsHost(r.message, subject.uri));
}

/**
 * `decision` as it may travel beside a notice (the `_meta` of a refused link's item or elicitation url, a refused
 * read's error data): each reason, of the decision or of a read's item, whose message the notice would not show (not
 * the policy's words, or naming the link's host or address) keeps its code, rule and stage, with a message that points
 * at the record instead.
 */
export function shownDecision(decision: Decision, uri: string): Decision {
  const subject = { name: null, uri: uri.length <= maxUriChars ? uri : uri.slice(0, maxUriChars), ref: null };
  const shown = (r: Reason) => r.message === '' || shownBeside(r, subject);
  const items = decision.items;
  if (decision.reasons.every(shown) && (items === undefined || items.every((i) => i.reasons.every(shown))))
    return decision;
  const hide = (reasons: readonly Reason[]) => reasons.map((r) => (shown(r) ? r : { ...r, message: hiddenMessage }));
  const made: Decision = { ...decision, reasons: hide(decision.reasons) };
  if (items !== undefined) made.items = items.map((i) => ({ ...i, reasons: hide(i.reasons) }));
  return made;
}

// the message a decision handed on beside a notice has in place of one the notice does not show
const hiddenMessage = 'shown by its code: the message is in the record';

function holdsHost(text: string, uri: string): boolean {
  const lower = text.toLowerCase();
  // the host as written and as an IPv4 parser reads it (`addressOf` gives the latter)
  return [rawAddressOf(uri), addressOf(uri)].some((address) => {
    const end = address.search(/[/\\?#]/);
    const host = end === -1 ? address : address.slice(0, end);
    return host.length >= 3 && lower.includes(host);
  });
}

function describeSubject(subject: NoticeSubject): string {
  const { name, uri, refused } = subject;
  const shown = name === null || namesAddress(name, uri, refused) ? '' : ` ${quoteValue(name)}`;
  return `${shown} (scheme ${quoteValue(schemeOf(uri))})`;
}

// whether a link's name holds its address or its host (a parent path, the bare host: part of the address is enough to
// point a tool at it) as written or as read back (`readBacks`), whole or its base64 runs decoded
// as text (a model decodes them on request), within the part a notice can show (`quoteValue` cuts it); or the address
// of another link its message refused (a sibling, named by this one: `refused`, searched in the same forms); with no
// ledger of the message, any address at all (`scheme://host`, a dotted IPv4 host)
function namesAddress(name: string, uri: string, refused: MessageLedger | undefined): boolean {
  if (holdsAddress(name, uri) || holdsHost(name, uri)) return true;
  const shown = name.slice(0, 4 * maxQuotedChars);
  // the name as the notice cuts it too: a cut may end it right after a refused host (`quoteValue`)
  const cut = name.length > maxQuotedChars ? name.slice(0, maxQuotedChars - 1) : null;
  if (refused !== undefined && (refused.spells(shown) || (cut !== null && refused.spells(cut)))) return true;
  const texts = [shown, blobText(shown) ?? base64RunsText(shown)].filter((t): t is string => t !== null);
  const spells = (back: string) => refused === undefined && spellsAnyAddress(back);
  return texts.some((text) =>
    readBacks(text).some((back) => holdsAddress(back, uri) || holdsHost(back, uri) || spells(back)),
  );
}

// an absolute uri with an authority, a dotted IPv4 host, an IPv6 literal (bracketed or bare), or a host with a path
// or a port (`metadata.google.internal/computeMetadata`, `localhost:8080`), anywhere in a text (names worded with no
// ledger: a tool or a shell the gate does not cover could be pointed at any of them)
function spellsAnyAddress(text: string): boolean {
  return spellsAddress.test(text) || [...text.matchAll(ipv6Candidates)].some((m) => isIpv6Literal(m[1] ?? ''));
}

const spellsAddress = new RegExp(
  [
    String.raw`[a-z0-9+.-]:\/\/[^\s/?#]`,
    String.raw`(?:^|[^0-9.])\d{1,3}(?:\.\d{1,3}){3}(?![0-9])`,
    String.raw`(?<![0-9a-z.-])[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d{1,5})?\/`,
    String.raw`(?<![0-9a-z.-])(?=[0-9-]*[a-z])[a-z0-9-]+(?:\.[a-z0-9-]+)*:\d{2,5}(?![0-9])`,
  ].join('|'),
  'i',
);

// a run of hex digits, colons and dots holding two colons, standing alone (not inside a word such as `std::vector`)
const ipv6Candidates = /(?<![0-9a-z:])([0-9a-f]*:[0-9a-f.]*:[0-9a-f:.]*)(?![0-9a-z:])/gi;

// whether `text` (with a hex digit) is an IPv6 address as a URL parser reads one between brackets
function isIpv6Literal(text: string): boolean {
  return /[0-9a-f]/i.test(text) && URL.canParse(`http://[${text}]/`);
}
