import { GateError } from '../errors.ts';
import { type JsonShape, jsonShape } from '../flow/json-scan.ts';

/**
 * The work one hook event may do, checked inside the hook's loops (links, split candidates, state entries, items):
 * a judgement that runs past `deadlineAt` throws `READ_TIMEOUT`, which the command answers in the host's fail-closed
 * terms. A timer cannot do this: work that never yields to the event loop never lets a timer fire.
 */
export class EventBudget {
  /** `performance.now()` milliseconds after which the event's work stops */
  readonly deadlineAt: number;
  readonly #limitMs: number;
  readonly #now: () => number;

  /** A budget of `limitMs` milliseconds from now (`now` is the clock, `performance.now` unless a test gives one). */
  constructor(limitMs: number, now: () => number = () => performance.now()) {
    this.#limitMs = limitMs;
    this.#now = now;
    this.deadlineAt = now() + limitMs;
  }

  /** Throws `READ_TIMEOUT` once the budget is spent; cheap enough to call once per item, link or entry. */
  check(): void {
    if (this.#now() > this.deadlineAt)
      throw new GateError('READ_TIMEOUT', `the hook did not answer within ${this.#limitMs} ms`);
  }
}

/** Checks `budget` when there is one (a context without a budget is bounded by its caps only). */
export function checkBudget(budget: EventBudget | undefined): void {
  budget?.check();
}

/**
 * Most items one tool result may hold for the hook to judge them (`content[]` items and the links of
 * `structuredContent`): a result with more is withheld whole (`content.too-many-items`) before any is judged, so the
 * work of one event stays a few thousand decisions, records and notices whatever its size. At most
 * `maxLinksPerEvent` of them are links the state keeps; links past that are withheld one by one.
 */
export const maxItemsPerEvent = 4096;

/**
 * The caps an event's JSON (and a JSON text inside it: a tool output, a tool input) is held to before it is parsed
 * (one `JSON.parse` is one step no budget can interrupt, and its cost is in values and depth, not bytes): `maxValues`
 * (containers and members, `JsonScan.values`) and `maxDepth`; past either it fails closed unparsed, as an event over
 * the byte cap does. Texts under `scanFromBytes` parse in milliseconds whatever their shape and are not scanned.
 */
export const eventJsonCaps = { maxValues: 2_000_000, maxDepth: 128, scanFromBytes: 64 * 1024 } as const;

/**
 * `JSON.parse(text)` for a JSON text a hook event carries (the event itself, or a tool output or input inside it
 * as a string): throws GateError `INPUT_INVALID` unparsed when it is past `eventJsonCaps`, and `SyntaxError` as
 * `JSON.parse` does.
 */
export function parseEventJson(text: string): unknown {
  if (text.length > eventJsonCaps.scanFromBytes) {
    const past = pastEventJsonCaps(jsonShape(text));
    if (past !== undefined) throw new GateError('INPUT_INVALID', `the hook event's json ${past}`);
  }
  return JSON.parse(text) as unknown;
}

/** Why a scanned JSON text is past `eventJsonCaps`, or undefined. */
export function pastEventJsonCaps(shape: JsonShape): string | undefined {
  if (shape.values > eventJsonCaps.maxValues) return `holds over ${eventJsonCaps.maxValues} json values`;
  if (shape.depth > eventJsonCaps.maxDepth) return `nests deeper than ${eventJsonCaps.maxDepth} levels`;
  return undefined;
}
