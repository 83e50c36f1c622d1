import type { Decision } from '../decision/decision.ts';
import { isRecord } from '../decision/json-value.ts';
import { uriOf } from '../link/resource-link.ts';
import type { BodyLink } from './kept-body-links.ts';
import { type AddressForm, AddressSearch, addressForms } from './address-search.ts';
import { blobText } from './blob-text.ts';
import { decisionMetaKey } from './decision-meta.ts';
import { type AlmostJson, almostJson, opensLikeJson } from './almost-json.ts';
import { jsonShape } from './json-scan.ts';
import { duplicateName } from './member-names.ts';
import { quoteValue } from '../decision/quote-value.ts';
import { knownNonCustomSchemes } from '../link/known-schemes.ts';
import type { Gate } from '../gate/create-gate.ts';
import { maskUri } from '../link/mask-uri.ts';
import { type LinkDecider, resultLinkDecider } from './link-decider.ts';
import type { FlowMode } from './link-steps.ts';
import { MessageLedger } from './message-ledger.ts';
import { refusedLinkItem, refusedLinkNotice } from './refused-link.ts';

// A tool result's `structuredContent` reaches the model too (Codex gives it instead of `content` when present, and
// an SDK client hands it to the caller), so a link refused in `content` must not survive there: every `resource_link`
// object and every uri string in it is judged as a link, and in enforce mode a refused one is replaced the same way
// (the object by the flow's text item, the string by the notice). Uris are strings that are one: `scheme://…` with no
// white space, or any string in a scheme that is never custom (`file:`, `javascript:`, …). Prose is data, as in text,
// except that a string holding a refused link's uri (or its host and path), found here or in `content`, hands that
// address on as well as the link would: it is replaced by the link's notice too.
// A string whose whole text is one JSON object or array (lexically JSON, parsed, no member named twice) is structured
// data, as a text item of it is (`judgeJsonTexts`): a host or model reads a link in it as a link, however deep, so it
// is opened and walked as part of the value, its values and nesting counted into the same limits (past them the
// whole value is withheld, never the string skipped), and a string with anything replaced in it becomes its judged
// JSON, serialized again. Each such string is scanned and parsed once (its own strings are opened in their turn).

/**
 * Most values of one `structuredContent` walked, its deepest nesting, and most characters the search for refused links
 * may cost (`maxSearchedChars`: each string is searched in one automaton pass as written and one read back, and the
 * automaton is built from the refused links' address forms, so the cost is the strings' characters twice plus the
 * forms' characters, for all the values of one result together; a base64 string's text, at most three quarters of
 * its characters, is searched on top); past any of them it is withheld whole.
 */
export const structuredLimits = {
  maxValues: 100_000,
  maxDepth: 64,
  maxSearchedChars: 64 * 1024 * 1024,
  /** characters of the JSON strings opened in one value, all levels together (each scanned and parsed once) */
  maxOpenedChars: 64 * 1024 * 1024,
} as const;

// a step of a path inside a value that opens the JSON text of the string at the path so far
const opened: unique symbol = Symbol('json text');
type Step = string | number | typeof opened;
type InPath = Step[];
interface InEdit {
  readonly path: readonly Step[];
  readonly value: unknown;
}

/** A link refused in `content`, as `structuredContent` is judged beside it: its record's ref, the link, its decision. */
export interface RefusedRef {
  /** null: no record names the link (one a front end decided inside a structured value) */
  ref: string | null;
  link: unknown;
  decision: Decision;
}

/** One replacement in a `structuredContent`: the value at `path` (from `structuredContent` itself) becomes `value`. */
export interface StructuredEdit {
  readonly path: readonly (string | number)[];
  readonly value: unknown;
}

/**
 * What judging a `structuredContent` changed: its replacements, or `withheld` (the whole value) when it was past a
 * limit, or (`shape`) held a JSON text readers differ on (a member named twice, a link in a text that does not parse):
 * then `reason` is the message of its `content.shape` reason, handed with the notice (never derived from it).
 */
export type StructuredJudgement =
  | { withheld: false; edits: StructuredEdit[] }
  | { withheld: true; notice: string; shape?: true; reason?: string };

// a refused link whose address a string may hold: the link, its decision and its record's ref
interface RefusedHolder {
  link: unknown;
  decision: Decision;
  ref: string | null;
}

interface Found {
  path: InPath;
  link: Record<string, unknown>;
  /** a uri string (replaced by the notice), not a link object (replaced by the text item) */
  bare: boolean;
  /** the uri is an object's key (the object's path): refused, the whole value is withheld */
  key?: true;
}

/** Everything one walk found: links and uri strings, and every other string (checked for refused uris later). */
interface Walked {
  found: Found[];
  /** `key`: an object's key, not a value (a key holding a refused uri withholds the whole value) */
  strings: { path: InPath; text: string; key?: true }[];
  values: number;
  prose: boolean;
  /** the JSON strings opened, by `pathKey` of their path: their parsed values */
  jsons: Map<string, unknown>;
  /** characters of the JSON strings opened */
  openedChars: number;
  /** why the value is withheld whole when the walk stopped for something other than a limit */
  notice?: string;
  /** the value is withheld for its shape (a member named twice, a link a lenient reader takes), not a limit */
  shape?: true;
  /** with `shape`: the message of its reason */
  reason?: string;
}

/** How a tool result's structured values are judged: its server, the mode, refused links and the result's decider. */
export interface StructuredOptions {
  server: string;
  mode: FlowMode;
  refs?: ReadonlyMap<string, RefusedRef> | Promise<ReadonlyMap<string, RefusedRef>>;
  /**
   * the link decisions of this tool result (`resultLinkDecider`), shared by its `content`, JSON texts and
   * `structuredContent` so each link is decided once; default: one of its own, over `gate`
   */
  decide?: LinkDecider;
  /**
   * the value is prose (a text item's text): only its strings holding a refused link's uri are replaced, and no
   * string in it is judged as a link of its own
   */
  prose?: boolean;
  /**
   * the searches for refused uris already made for other values of the same result (`judgeJsonTexts` shares one
   * across its texts): `maxSearchedChars` holds for them all together, so a result of many JSON texts costs no more
   * than one; absent: this value's own
   */
  searched?: SearchSpent;
  /** told of each link this value refused (a link object or uri string found in it), as its decision is made */
  noteRefused?: (refused: RefusedRef) => void;
  /** told of every link found in this value, allowed or refused, in order, once all their decisions are made */
  noteFound?: (found: readonly BodyLink[]) => void;
  /** the declared type (`mimeType`, its `charset`) of a prose value that is a blob: its text is read as declared */
  blobType?: string;
}

/** Characters the searches for refused uris cost so far (`maxSearchedChars`), across the values sharing it. */
export interface SearchSpent {
  chars: number;
  /** the address forms of each refused uri, made once for all the values sharing the count */
  forms?: Map<string, readonly AddressForm[]>;
}

/**
 * Judges the links and uris of a tool result's `structuredContent` for links returned by `server`; `refs` gives, by
 * masked uri, the links refused in `content` (their record's ref names a uri that stood there too; awaited once this
 * value's own decisions are made). A string holding any refused link's uri is replaced by that link's notice. Observe
 * mode changes nothing.
 */
export async function judgeStructured(
  gate: Gate,
  structured: unknown,
  options: StructuredOptions,
): Promise<StructuredJudgement> {
  if (options.mode === 'observe' || structured === undefined) return { withheld: false, edits: [] };
  const walked: Walked = {
    found: [],
    strings: [],
    values: 0,
    prose: options.prose === true,
    jsons: new Map(),
    openedChars: 0,
  };
  if (!walk(structured, [], 0, walked))
    return walked.shape === true && walked.notice !== undefined
      ? { withheld: true, notice: walked.notice, shape: true, reason: walked.reason ?? walked.notice }
      : { withheld: true, notice: walked.notice ?? tooLargeNotice };
  const { found } = walked;
  const decide = options.decide ?? resultLinkDecider(gate, options.server);
  const decisions = await Promise.all(found.map((f) => decide(f.link, f.bare)));
  options.noteFound?.(found.map((f, i) => ({ link: f.link, decision: decisions[i] as Decision, bare: f.bare })));
  // the refs may come from the content's link decisions, made side by side with these
  const refs = await options.refs;
  const spent = options.searched ?? { chars: 0 };
  // every refused link, by its raw uri: those of `content` (made once for the values sharing `spent`), then those found
  // here
  const shared = sharedSearch(spent, refs);
  const own = new Map<string, RefusedHolder>();
  const edits: InEdit[] = [];
  let refusedKey: string | null = null;
  const refusedHere: (Found & RefusedHolder)[] = [];
  found.forEach((f, i) => {
    const decision = decisions[i];
    if (decision === undefined || decision.effect !== 'deny') return;
    const uri = uriOf(f.link);
    const ref = refs?.get(maskUri(uri))?.ref ?? null;
    options.noteRefused?.({ ref, link: f.link, decision });
    refusedHere.push({ ...f, decision, ref });
    // an empty or tiny uri would match every string: it has no address to hand on
    if (!shared.held.has(uri) && !own.has(uri) && uri.trim().length >= 3) own.set(uri, { link: f.link, decision, ref });
  });
  // the notices are worded once every link of this value is decided: a name spelling the address of any link refused
  // in the message (`refs`, and those refused here) is left out
  const ledger = refusedHere.length === 0 ? undefined : messageLedger(refs, own);
  for (const f of refusedHere) {
    const { link, decision, ref } = f;
    // a key cannot be replaced in place: the value that holds it is withheld whole
    if (f.key === true) refusedKey ??= refusedLinkNotice(link, decision, ref, ledger);
    else
      edits.push({
        path: f.path,
        value: f.bare ? refusedLinkNotice(link, decision, ref, ledger) : refusedLinkItem(link, decision, ref, ledger),
      });
  }
  if (refusedKey !== null) return { withheld: true, notice: refusedKey };
  if (shared.held.size === 0 && own.size === 0) return { withheld: false, edits: folded(edits, walked.jsons) };
  // the search costs each string's characters twice (as written, read back) and the automaton's build (once for the
  // values sharing `spent` that hold no refused uri of their own): bounded before any of it starts, for all the values
  // of the result together (a long refused uri, or long strings, cost only their characters, never characters times
  // refused links)
  let searched = spent.chars;
  // a base64 string of text is searched as that text too (`blobText`), which is at most three quarters of its
  // characters: the bound counts the strings as written, so a result of text blobs is bounded as one of prose is
  const blobs = walked.strings.map(({ text }) => blobText(text, options.blobType));
  for (const { text } of walked.strings) searched += 2 * text.length;
  const built = own.size === 0 ? shared.search : undefined;
  const held = built === undefined ? [...shared.held, ...own] : [];
  for (const [uri] of held) for (const form of formsOf(spent, uri)) searched += form.text.length;
  if (searched > structuredLimits.maxSearchedChars) return { withheld: true, notice: tooLargeNotice };
  spent.chars = searched;
  // every refused uri's address in all its forms, searched in one pass over each string (`AddressSearch`)
  let search = built;
  if (search === undefined) {
    search = new AddressSearch<RefusedHolder>();
    for (const [uri, r] of held) search.add(uri, r, formsOf(spent, uri));
    if (own.size === 0) shared.search = search;
  }
  let named: MessageLedger | undefined = ledger;
  for (const [i, { path, text, key }] of walked.strings.entries()) {
    const holder = search.find(text, blobs[i]);
    if (holder === undefined) continue;
    named ??= messageLedger(refs, own);
    const notice = refusedLinkNotice(holder.link, holder.decision, holder.ref, named);
    if (key === true) return { withheld: true, notice };
    edits.push({ path, value: notice });
  }
  return { withheld: false, edits: folded(edits, walked.jsons) };
}

// the key of a path (with its opened JSON strings) among the strings opened
const pathKey = (path: readonly Step[]): string => JSON.stringify(path.map((s) => (s === opened ? null : s)));

// `edits` as edits of the value itself: those inside an opened JSON string become one edit of that string, its judged
// JSON serialized again (the innermost first); the decision a replaced link carries under `_meta` is left out of the
// text, as it is of a JSON text item's (the model reads it whole)
function folded(edits: InEdit[], jsons: ReadonlyMap<string, unknown>): StructuredEdit[] {
  const depthOf = (path: readonly Step[]) => path.reduce<number>((n, s) => (s === opened ? n + 1 : n), 0);
  let pending = edits;
  for (let level = Math.max(0, ...pending.map((e) => depthOf(e.path))); level > 0; level -= 1) {
    const next: InEdit[] = [];
    const groups = new Map<string, { at: readonly Step[]; edits: StructuredEdit[] }>();
    for (const e of pending) {
      if (depthOf(e.path) < level) {
        next.push(e);
        continue;
      }
      const m = e.path.lastIndexOf(opened);
      const at = e.path.slice(0, m);
      const key = pathKey(at);
      let group = groups.get(key);
      if (group === undefined) groups.set(key, (group = { at, edits: [] }));
      group.edits.push({ path: e.path.slice(m + 1) as (string | number)[], value: e.value });
    }
    for (const [key, group] of groups) {
      const value = applyStructured(jsons.get(key), { withheld: false, edits: group.edits });
      const text = JSON.stringify(value, (k, v: unknown) => (k === decisionMetaKey ? undefined : v));
      next.push({ path: group.at, value: text });
    }
    pending = next;
  }
  return pending as StructuredEdit[];
}

// the links a message refused, as the notices of one of its values are worded: those of `refs` (its `content`, or the
// whole message on the second pass of `judgeResultValues`) and those refused in this value
function messageLedger(
  refs: ReadonlyMap<string, RefusedRef> | undefined,
  own: ReadonlyMap<string, RefusedHolder>,
): MessageLedger {
  const ledger = MessageLedger.of(own.keys());
  for (const r of refs?.values() ?? []) ledger.add(uriOf(r.link));
  return ledger;
}

// the address forms of `uri`, made once for the values sharing `spent`
function formsOf(spent: SearchSpent, uri: string): readonly AddressForm[] {
  spent.forms ??= new Map();
  let forms = spent.forms.get(uri);
  if (forms === undefined) spent.forms.set(uri, (forms = addressForms(uri)));
  return forms;
}

// the refused links of `content` as the values sharing `spent` search for them (by raw uri, those too short to search
// for left out), and the search built of them alone once one was
interface SharedSearch {
  readonly refs: ReadonlyMap<string, RefusedRef> | undefined;
  readonly held: ReadonlyMap<string, RefusedHolder>;
  search?: AddressSearch<RefusedHolder>;
}

function sharedSearch(spent: SearchSpent, refs: ReadonlyMap<string, RefusedRef> | undefined): SharedSearch {
  const kept = sharedSearches.get(spent);
  if (kept !== undefined && kept.refs === refs) return kept;
  const held = new Map<string, RefusedHolder>();
  for (const r of refs?.values() ?? []) {
    const uri = uriOf(r.link);
    if (uri.trim().length >= 3 && !held.has(uri)) held.set(uri, r);
  }
  const made: SharedSearch = { refs, held };
  sharedSearches.set(spent, made);
  return made;
}

// the shared refused links of the values sharing a `SearchSpent`
const sharedSearches = new WeakMap<SearchSpent, SharedSearch>();

/** The notice of a structured value past the limits (withheld whole). */
export const tooLargeNotice = `linkgate withheld the structured content: past ${structuredLimits.maxValues} values, ${structuredLimits.maxDepth} levels or ${structuredLimits.maxSearchedChars} characters searched for refused links`;

/** `structured` with `judged` applied (a copy; the original is not changed), or the withheld notice's object. */
export function applyStructured(structured: unknown, judged: StructuredJudgement): unknown {
  if (judged.withheld) return { withheld: judged.notice };
  if (judged.edits.length === 0) return structured;
  const copy: unknown = structuredClone(structured);
  for (const edit of judged.edits) {
    if (edit.path.length === 0) return edit.value;
    let parent = copy as Record<string | number, unknown>;
    for (const step of edit.path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
    parent[edit.path.at(-1) as string | number] = edit.value;
  }
  return copy;
}

// false when past a limit
function walk(value: unknown, path: InPath, depth: number, walked: Walked): boolean {
  walked.values += 1;
  if (walked.values > structuredLimits.maxValues || depth > structuredLimits.maxDepth) return false;
  if (typeof value === 'string') {
    if (!walked.prose) {
      const json = openJson(value, depth, walked);
      if (json === false) return false;
      if (json !== undefined && 'almost' in json) return walkAlmost(value, json.almost, path, walked);
      if (json !== undefined) {
        walked.jsons.set(pathKey(path), json.value);
        return walk(json.value, [...path, opened], depth + 1, walked);
      }
    }
    if (!walked.prose && isUriString(value)) {
      const name = pathName(path);
      walked.found.push({ path, link: { type: 'resource_link', uri: value, name }, bare: true });
    } else walked.strings.push({ path, text: value });
    return true;
  }
  if (Array.isArray(value)) {
    const list: unknown[] = value;
    return list.every((v, i) => walk(v, [...path, i], depth + 1, walked));
  }
  if (!isRecord(value)) return true;
  // a link object is judged whole (its uri, name, declared type and size), not walked into
  if (value['type'] === 'resource_link') {
    walked.found.push({ path, link: value, bare: false });
    return true;
  }
  // keys reach the model as values do (a map keyed by uri): each is a string of its own
  return Object.entries(value).every(([k, v]) => {
    if (isUriString(k)) {
      const name = pathName(path);
      walked.found.push({ path, link: { type: 'resource_link', uri: k, name }, bare: true, key: true });
    } else walked.strings.push({ path, text: k, key: true });
    return walk(v, [...path, k], depth + 1, walked);
  });
}

// the name a uri string found at `path` is judged under
function pathName(path: readonly Step[]): string {
  if (path.length === 0) return 'structuredContent';
  return `structuredContent.${path.map((s) => (s === opened ? '(json)' : String(s))).join('.')}`;
}

/** Why a value is withheld for its shape: the notice that stands for it, and its `content.shape` reason's message. */
export interface ShapeWithheld {
  readonly notice: string;
  readonly reason: string;
}

// a value withheld for its shape: `what` names what it held, in the notice and in the reason's message
const shapeWithheld = (what: string, suffix = ''): ShapeWithheld => ({
  notice: `linkgate withheld ${what}${suffix}`,
  reason: `withheld: ${what}`,
});

// the value is withheld whole for its shape (`walk` stops)
function withheldForShape(walked: Walked, shape: ShapeWithheld): false {
  walked.notice = shape.notice;
  walked.reason = shape.reason;
  walked.shape = true;
  return false;
}

// for a JSON string that names a member twice (the name quoted and escaped as every server string is)
const duplicateShape = (name: string) =>
  shapeWithheld(
    `structured content holding a JSON text that names the member ${quoteValue(name)} twice in one object: readers differ on which one counts`,
  );

/**
 * The value of a string at `depth` whose whole text is one JSON object or array (lexically JSON, parsed, no member
 * named twice): undefined when it is not one (a plain string), `almost` when it opens like JSON and does not parse
 * (what a lenient reader takes from it, `almostJson`), false when opening it would pass the walk's limits, it names a
 * member twice, or it does not parse and names `resource_link` (the whole value is withheld, `walked.notice` says why
 * when not a limit). Scanned before it is parsed, so a string past the limits is never parsed.
 */
function openJson(
  text: string,
  depth: number,
  walked: Walked,
): { value: unknown } | { almost: AlmostJson } | false | undefined {
  if (!opensLikeJson(text)) return undefined;
  walked.openedChars += text.length;
  if (walked.openedChars > structuredLimits.maxOpenedChars) return false;
  const shape = jsonShape(text);
  if (!shape.lexical) return almostOpened(text, walked);
  if (
    walked.values + shape.values > structuredLimits.maxValues + 1 ||
    depth + shape.depth > structuredLimits.maxDepth + 1
  )
    return false;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    // JSON.parse refused it, a lenient reader does not (a trailing comma, a brace too many): judged as it reads it
    return almostOpened(text, walked);
  }
  const twice = duplicateName(text);
  if (twice !== null) return withheldForShape(walked, duplicateShape(twice.name));
  return { value };
}

/** A value holding a text that opens like JSON, does not parse, and names `resource_link`: its notice and reason. */
export const almostLinkShape: ShapeWithheld = shapeWithheld(
  'a text that opens like JSON, does not parse and names `resource_link`: a lenient reader takes a link from it that the gate cannot judge',
  ' (content.shape)',
);

// a text that opens like JSON and does not parse: false (withheld whole) when it names `resource_link`
function almostOpened(text: string, walked: Walked): { almost: AlmostJson } | false {
  const almost = almostJson(text);
  if (!almost.namesLink) return { almost };
  return withheldForShape(walked, almostLinkShape);
}

// a text that opens like JSON and does not parse: each uri a lenient reader takes from it is judged as a link at the
// text's own place (refused, the whole text becomes its notice), and the text is searched for refused uris as prose is
function walkAlmost(text: string, almost: AlmostJson, path: InPath, walked: Walked): boolean {
  walked.values += almost.uris.length;
  if (walked.values > structuredLimits.maxValues) return false;
  const name = pathName(path);
  for (const uri of almost.uris) walked.found.push({ path, link: { type: 'resource_link', uri, name }, bare: true });
  walked.strings.push({ path, text });
  return true;
}

function isUriString(text: string): boolean {
  const scheme = /^\s*([A-Za-z][A-Za-z0-9+.-]*):/.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined) return false;
  if (knownNonCustomSchemes.has(scheme)) return true;
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\/\S*$/.test(text.trim());
}
