import type { LinkStep } from '../flow/link-steps.ts';

// one more than the largest array index
const maxArrayLength = 2 ** 32 - 1;

/**
 * The link steps of a tool result's links by their `content` index (each index ≥ 0, increasing): a read-only map
 * over one array indexed by position, not a `Map` entry per link (a result's 500 links, 500 entries). Iterates as
 * the `Map` made by setting them in that order would.
 */
export class StepsByIndex implements ReadonlyMap<number, LinkStep> {
  // the step at each content index that has one; a hole elsewhere
  readonly #at: (LinkStep | undefined)[];
  // the content indices that have a step, increasing
  readonly #keys: readonly number[];

  /** `steps[i]` at content index `indices[i]`; `indices` as `fits` takes them. */
  constructor(indices: readonly number[], steps: readonly LinkStep[]) {
    const last = indices.length === 0 ? -1 : (indices[indices.length - 1] as number);
    this.#at = new Array<LinkStep | undefined>(last + 1);
    for (let i = 0; i < indices.length; i += 1) this.#at[indices[i] as number] = steps[i];
    this.#keys = indices;
  }

  /** Whether `indices` can key a `StepsByIndex`: each an array index (an integer from 0, below 2³² − 1), increasing. */
  static fits(indices: readonly (number | null)[]): indices is readonly number[] {
    let before = -1;
    for (const i of indices) {
      if (i === null || !Number.isInteger(i) || i <= before || i >= maxArrayLength) return false;
      before = i;
    }
    return true;
  }

  get size(): number {
    return this.#keys.length;
  }

  get(key: number): LinkStep | undefined {
    return Number.isInteger(key) && key >= 0 ? this.#at[key] : undefined;
  }

  has(key: number): boolean {
    return this.get(key) !== undefined;
  }

  forEach(each: (value: LinkStep, key: number, map: ReadonlyMap<number, LinkStep>) => void, self?: unknown): void {
    for (const key of this.#keys) each.call(self, this.#at[key] as LinkStep, key, this);
  }

  *entries(): MapIterator<[number, LinkStep]> {
    for (const key of this.#keys) yield [key, this.#at[key] as LinkStep];
  }

  *keys(): MapIterator<number> {
    yield* this.#keys;
  }

  *values(): MapIterator<LinkStep> {
    for (const key of this.#keys) yield this.#at[key] as LinkStep;
  }

  [Symbol.iterator](): MapIterator<[number, LinkStep]> {
    return this.entries();
  }
}
