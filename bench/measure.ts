/** One measured series: per-round times in milliseconds. */
export interface Series {
  name: string;
  rounds: number[];
}

/** Median, min and max of a list of numbers. */
export function summary(values: readonly number[]): { median: number; min: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return { median, min: sorted[0] ?? 0, max: sorted[sorted.length - 1] ?? 0 };
}

/** The p-th percentile (0–100) of a list of numbers. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? 0;
}

/**
 * Runs each task once per round, interleaved (a, b, c, a, b, c, …), after `warmup` untimed rounds; milliseconds.
 * `collect: false` leaves out the forced collection before each task (the link section of `run.ts` says why).
 */
export async function interleave(
  tasks: Record<string, () => unknown>,
  rounds: number,
  warmup = 2,
  collect = true,
): Promise<Series[]> {
  const names = Object.keys(tasks);
  const out: Series[] = names.map((name) => ({ name, rounds: [] }));
  // with --expose-gc, collect before each timed task so one task's garbage is not charged to the next
  const gc = collect ? (globalThis as { gc?: () => void }).gc : undefined;
  for (let r = 0; r < warmup + rounds; r += 1) {
    for (const [i, name] of names.entries()) {
      const task = tasks[name] as () => unknown;
      gc?.();
      const t0 = performance.now();
      const result = task();
      if (result instanceof Promise) await result;
      const ms = performance.now() - t0;
      if (r >= warmup) out[i]?.rounds.push(ms);
    }
  }
  return out;
}

/** Formats milliseconds with a sensible unit. */
export function fmtMs(ms: number): string {
  if (ms < 0.001) return `${(ms * 1e6).toFixed(0)} ns`;
  if (ms < 1) return `${(ms * 1e3).toFixed(1)} µs`;
  if (ms < 1000) return `${ms.toFixed(2)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}
