import { isRecord } from '../decision/json-value.ts';
import { quoteValue } from '../decision/quote-value.ts';
import type { Gate } from '../gate/create-gate.ts';
import { decisionMetaKey } from './decision-meta.ts';
import { opensLikeJson } from './almost-json.ts';
import { jsonShape } from './json-scan.ts';
import { duplicateName } from './member-names.ts';
import { resultLinkDecider } from './link-decider.ts';
import { decodeStrictBase64 } from '../read/strict-base64.ts';
import { TextDecoder } from 'node:util';
import {
  applyStructured,
  judgeStructured,
  type StructuredOptions,
  structuredLimits,
  tooLargeNotice,
} from './structured-links.ts';

// A text item whose whole text is one JSON object or array is data, not prose: the 2.x server package writes exactly
// that for a tool's structured content (SEP-2106: a non-object `structuredContent` with no text block gets one holding
// its JSON), and many servers answer in JSON text. Its links and uri strings get the structured content's judgement,
// so a uri refused in `content` or `structuredContent` does not survive in the text that mirrors them.

/** A text item (or embedded resource) whose JSON changed: its index in `content`, where its text is, its new text. */
export interface JsonTextEdit {
  readonly index: number;
  /**
   * `['text']` for a text item, `['resource', 'text']` for an embedded resource's text, `[]` for an embedded resource
   * whose uri holds a refused link's (the whole item becomes a text item of `text`, the notice), or whose JSON blob
   * changed (the whole item becomes a text item of its judged JSON)
   */
  readonly path: readonly ('text' | 'resource')[];
  readonly text: string;
}

/** `item` with the edit's new text in place (a text item of it, for an edit of the whole item). */
export function withJsonText(item: unknown, edit: JsonTextEdit): Record<string, unknown> {
  if (edit.path.length === 0) return { type: 'text', text: edit.text };
  const made = { ...(item as Record<string, unknown>) };
  if (edit.path.length === 1) made['text'] = edit.text;
  else made['resource'] = { ...(made['resource'] as Record<string, unknown>), text: edit.text };
  return made;
}

// the text of a text item, or (with `resources`) of an embedded resource, and where it stands in the item
// (`text` null: a blob declared JSON whose bytes are not UTF-8)
function textOf(item: unknown, resources: boolean): { text: string | null; path: JsonTextEdit['path'] } | null {
  if (!isRecord(item)) return null;
  if (item['type'] === 'text' && typeof item['text'] === 'string') return { text: item['text'], path: ['text'] };
  const resource = item['resource'];
  if (resources && item['type'] === 'resource' && isRecord(resource) && typeof resource['text'] === 'string')
    return { text: resource['text'], path: ['resource', 'text'] };
  // a blob declared JSON is JSON text to whoever decodes it (strict base64, as a read's blob is taken; UTF-8, as JSON
  // is): judged as the text would be, and once changed the whole item stands as a text item of its judged JSON
  if (resources && item['type'] === 'resource' && isRecord(resource) && typeof resource['blob'] === 'string') {
    const declared = resource['mimeType'];
    if (typeof declared !== 'string' || !declaresJson(declared)) return null;
    const bytes = decodeStrictBase64(resource['blob']);
    if (bytes === null) return null;
    try {
      return { text: utf8.decode(bytes), path: [] };
    } catch {
      // JSON is UTF-8 (RFC 8259 §8.1): bytes that are not cannot be judged as JSON, while a lenient reader decodes
      // them (replacement characters) and takes the links in them; withheld whole
      return { text: null, path: [] };
    }
  }
  return null;
}

/** The notice of a resource declared JSON whose bytes are not UTF-8 (withheld whole). */
export const notUtf8Notice =
  'linkgate withheld a resource declared JSON whose bytes are not UTF-8: it cannot be judged as the JSON a lenient reader decodes (content.uninterpretable)';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether a declared type is `application/json`, or any `+json` type, parameters aside. */
export function declaresJson(declared: string): boolean {
  const essence = (declared.split(';')[0] ?? '').trim().toLowerCase();
  return essence === 'application/json' || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(essence);
}

// the notice for a JSON text that names a member twice (the name quoted and escaped as every server string is)
const duplicateNotice = (name: string) =>
  `linkgate withheld a JSON text that names the member ${quoteValue(name)} twice in one object: readers differ on which one counts`;

/**
 * The JSON value of a text that is one JSON object or array, or undefined: not one, or one that does not parse (the
 * caller judges that as a lenient reader reads it, `almostJson`).
 */
export function jsonTextValue(text: string): unknown {
  if (!opensLikeJson(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Judges the JSON text items of a tool result's `content` as structured content (enforce mode): the new text of each
 * item with a refused link or uri in it (the notice in its place), or the withheld notice for a value past the walk's
 * limits. With `resources`, an embedded resource's text is judged the same way. With `prose` (and `options.refs`, the
 * links refused in `content`), a text item that is not JSON and holds a refused link's uri (or its host and path)
 * becomes that link's notice, as such a string in `structuredContent` does. Observe mode changes nothing.
 */
export async function judgeJsonTexts(
  gate: Gate,
  content: readonly unknown[],
  options: StructuredOptions,
  resources = false,
  prose = false,
): Promise<JsonTextEdit[]> {
  if (options.mode === 'observe') return [];
  // one decider for all the JSON texts: a link they repeat is decided once
  // and one count of the searches for refused uris: the limits on them hold for all the texts together
  const judging = {
    ...options,
    decide: options.decide ?? resultLinkDecider(gate, options.server),
    searched: options.searched ?? { chars: 0 },
  };
  // the limits hold for all the JSON texts of one result together: those past them are withheld whole, unjudged, and
  // unparsed when a scan shows it first (a parse is one step nothing interrupts: its cost must be known before it)
  const found: {
    index: number;
    path: JsonTextEdit['path'];
    value: unknown;
    past: boolean;
    /** for a value withheld unjudged: why (absent: past the walk's limits) */
    notice?: string;
    prose?: true;
    /** a text that opens like JSON and does not parse: judged as a string, the notice standing for the whole text */
    almost?: true;
    blobType?: string;
  }[] = [];
  const proseText = (index: number, path: JsonTextEdit['path'], text: string) => {
    if (prose && options.refs !== undefined && path.length === 1)
      found.push({ index, path, value: text, past: false, prose: true });
  };
  // a text that opens like JSON and does not parse: judged as the string it is (`judgeStructured` takes what a lenient
  // reader reads from it: withheld whole when it names `resource_link`, its notice in its place for a refused uri)
  const almostText = (index: number, path: JsonTextEdit['path'], text: string) => {
    found.push({ index, path, value: text, past: false, almost: true });
  };
  let scanned = 0;
  content.forEach((item, index) => {
    // an embedded resource named by a refused link's uri hands that address on: the whole item becomes the notice
    const embedded = resources && isRecord(item) && item['type'] === 'resource' && isRecord(item['resource']);
    const uri = embedded ? (item['resource'] as Record<string, unknown>)['uri'] : undefined;
    if (prose && options.refs !== undefined && typeof uri === 'string')
      found.push({ index, path: [], value: uri, past: false, prose: true });
    // and so does a text blob's (searched decoded as its declared type reads, `blobText`), whether or not embedded
    // texts are judged as JSON here
    const resource = isRecord(item) && isRecord(item['resource']) ? item['resource'] : undefined;
    const blob = resource?.['blob'];
    if (prose && options.refs !== undefined && typeof blob === 'string') {
      const declared = resource?.['mimeType'];
      const at = { index, path: [], value: blob, past: false, prose: true } as const;
      found.push(typeof declared === 'string' ? { ...at, blobType: declared } : at);
    }
    const at = textOf(item, resources);
    if (at === null) return;
    const { text, path } = at;
    if (text === null) {
      found.push({ index, path, value: undefined, past: true, notice: notUtf8Notice });
      return;
    }
    if (!opensLikeJson(text)) return proseText(index, path, text);
    const shape = jsonShape(text);
    // a character JSON never has outside strings: parse refuses it, a lenient reader takes what it names
    if (!shape.lexical) return almostText(index, path, text);
    scanned += shape.values;
    // nesting past `maxDepth + 1` puts a value past the walk's depth
    if (scanned > structuredLimits.maxValues || shape.depth > structuredLimits.maxDepth + 1) {
      found.push({ index, path, value: undefined, past: true });
      return;
    }
    const value = jsonTextValue(text);
    if (value === undefined) return almostText(index, path, text);
    // a member named twice: JSON.parse judges the last, the model reads both (the proxy refuses such a line whole)
    const twice = duplicateName(text);
    if (twice !== null) found.push({ index, path, value: undefined, past: true, notice: duplicateNotice(twice.name) });
    else found.push({ index, path, value, past: false });
  });
  let values = 0;
  // prose is searched for every refused uri within the same bound of searched characters as the JSON values (past
  // it, a text is withheld whole, unsearched)
  const judged = await Promise.all(
    found.map((f) => {
      if (f.prose === true)
        return judgeStructured(
          gate,
          f.value,
          f.blobType === undefined ? { ...judging, prose: true } : { ...judging, prose: true, blobType: f.blobType },
        );
      if (f.almost === true) return judgeStructured(gate, f.value, judging);
      values += f.past ? 0 : valueCount(f.value, structuredLimits.maxValues - values + 1);
      return f.past || values > structuredLimits.maxValues
        ? Promise.resolve({ withheld: true, notice: f.notice ?? tooLargeNotice } as const)
        : judgeStructured(gate, f.value, judging);
    }),
  );
  const edits: JsonTextEdit[] = [];
  const whole = new Set<number>();
  found.forEach((f, i) => {
    const judgement = judged[i];
    if (judgement === undefined || (!judgement.withheld && judgement.edits.length === 0) || whole.has(f.index)) return;
    if (f.path.length === 0) whole.add(f.index);
    // prose holding a refused uri is one string, and so is a text that does not parse: the edit's value is the notice
    if (f.prose === true || f.almost === true) {
      const notice = judgement.withheld ? judgement.notice : judgement.edits[0]?.value;
      edits.push({ index: f.index, path: f.path, text: String(notice) });
      return;
    }
    // text is read by the model whole: the decision a replaced link carries under `_meta` (its reasons name the host
    // and path) is left out of it, and so is any a server wrote there to pose as the gate's
    const text = JSON.stringify(applyStructured(f.value, judgement), (key, v: unknown) =>
      key === decisionMetaKey ? undefined : v,
    );
    edits.push({ index: f.index, path: f.path, text });
  });
  return prose && options.refs !== undefined
    ? [...edits, ...(await joinedEdits(gate, content, edits, judging))]
    : edits;
}

/**
 * The edits that stand for the text items of `content` whose texts, one after the other as a host shows them, name a
 * refused link's address that no single one names (an address cut across items): each run of adjacent items whose
 * joined texts spell it becomes that link's notice, item by item; the items outside every run are kept. Searched as
 * `edits` leave them (a notice names no address), within the same bound (`spellingRuns`). Past the bound, or when
 * what is kept still spells an address (a reading in which a longer text names less), every text item not edited
 * already becomes the notice (fails closed).
 */
async function joinedEdits(
  gate: Gate,
  content: readonly unknown[],
  edits: readonly JsonTextEdit[],
  judging: StructuredOptions,
): Promise<JsonTextEdit[]> {
  const edited = new Map(edits.filter((e) => e.path.length <= 1).map((e) => [e.index, e.text]));
  const items: number[] = [];
  const texts: string[] = [];
  content.forEach((item, index) => {
    if (!isRecord(item) || item['type'] !== 'text' || typeof item['text'] !== 'string') return;
    items.push(index);
    texts.push(edited.get(index) ?? item['text']);
  });
  if (texts.length < 2) return [];
  const spelled = (list: readonly string[]) => spelledNotice(gate, list.join(''), judging);
  const all = await spelled(texts);
  if (all === undefined) return [];
  const everyItem = (notice: string) =>
    items.filter((i) => !edited.has(i)).map((index) => ({ index, path: ['text'] as const, text: notice }));
  if (all.past) return everyItem(all.notice);
  const runs = await spellingRuns(texts, (from, to) =>
    from === 0 && to === texts.length - 1 ? Promise.resolve(all) : spelled(texts.slice(from, to + 1)),
  );
  if (runs === null) return everyItem(all.notice);
  const kept = [...texts];
  for (const { from, to, notice } of runs) kept.fill(notice, from, to + 1);
  const left = await spelled(kept);
  if (left !== undefined) return everyItem(left.notice);
  return runs.flatMap(({ from, to, notice }) =>
    items
      .slice(from, to + 1)
      .filter((i) => !edited.has(i))
      .map((index) => ({ index, path: ['text'] as const, text: notice })),
  );
}

// what a text spells: the notice of the refused link whose address it names (`past`: withheld past the bound), or
// undefined when it names none
async function spelledNotice(
  gate: Gate,
  text: string,
  judging: StructuredOptions,
): Promise<{ notice: string; past: boolean } | undefined> {
  const judged = await judgeStructured(gate, text, { ...judging, prose: true });
  if (judged.withheld) return { notice: judged.notice, past: true };
  const found = judged.edits[0]?.value;
  if (found === undefined) return undefined;
  // prose's edits are notices (strings)
  return { notice: typeof found === 'string' ? found : JSON.stringify(found), past: false };
}

/** A run of adjacent text items (`from` to `to`, both included) whose texts spell a refused address, and its notice. */
interface SpellingRun {
  readonly from: number;
  readonly to: number;
  readonly notice: string;
}

/**
 * The runs of `texts` that spell a refused address (`spells(from, to)`: what `texts[from..to]` joined spell; all of
 * them together spell one); null past the bound. Each run's end is found by doubling a window from its start, then
 * halving it, and its start by halving back from that end: the searches of one run cost a few times its window's
 * characters (times the log of its items), and the runs' windows do not overlap, so the whole is near linear.
 */
async function spellingRuns(
  texts: readonly string[],
  spells: (from: number, to: number) => ReturnType<typeof spelledNotice>,
): Promise<SpellingRun[] | null> {
  const runs: SpellingRun[] = [];
  const last = texts.length - 1;
  for (let start = 0; start <= last; ) {
    // the first item that ends a spelling from `start`: a window doubled until it spells, then halved
    let low = start;
    let to = -1;
    let notice = '';
    for (let width = 1; to === -1; width *= 2) {
      const end = Math.min(start + width - 1, last);
      const spelled = await spells(start, end);
      if (spelled?.past === true) return null;
      if (spelled !== undefined) [to, notice] = [end, spelled.notice];
      else if (end === last) return runs;
      else low = end + 1;
    }
    while (low < to) {
      const mid = (low + to) >> 1;
      const spelled = await spells(start, mid);
      if (spelled?.past === true) return null;
      if (spelled === undefined) low = mid + 1;
      else [to, notice] = [mid, spelled.notice];
    }
    // the last item that starts a spelling ending at `to`
    let from = start;
    for (let high = to; from < high; ) {
      const mid = (from + high + 1) >> 1;
      const spelled = await spells(mid, to);
      if (spelled?.past === true) return null;
      if (spelled === undefined) high = mid - 1;
      else [from, notice] = [mid, spelled.notice];
    }
    runs.push({ from, to, notice });
    start = to + 1;
  }
  return runs;
}

// how many values `value` holds (each string, number, array, object…), counting no further than `upTo`
function valueCount(value: unknown, upTo: number): number {
  const stack: unknown[] = [value];
  let count = 0;
  while (stack.length > 0 && count < upTo) {
    const next = stack.pop();
    count += 1;
    if (Array.isArray(next)) for (const v of next as unknown[]) stack.push(v);
    else if (isRecord(next)) for (const v of Object.values(next)) stack.push(v);
  }
  return count;
}
