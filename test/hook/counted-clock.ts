// The hook's clock counted instead of read: while `onCountedClock` runs, `performance.now()` (the clock of the hook's
// event budget, src/hook/event-budget.ts) advances `msPerReading` at every reading and no `setTimeout` fires (the
// command's deadline timer, src/cli/hook-deadline.ts, is faked). The same budget code then ends after a number of
// readings, never after a time: what a crafted event comes to is the same on an idle machine and a loaded one.
import { vi } from 'vitest';

/** What `work` came to, and how many times the clock was read meanwhile. */
export interface CountedRun<T> {
  value: T;
  readings: number;
}

/** Runs `work` (in this process) with the clock counted: `msPerReading` milliseconds per reading, no timer firing. */
export async function onCountedClock<T>(msPerReading: number, work: () => Promise<T>): Promise<CountedRun<T>> {
  let readings = 0;
  const clock = vi.spyOn(performance, 'now').mockImplementation(() => readings++ * msPerReading);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    const value = await work();
    return { value, readings };
  } finally {
    vi.useRealTimers();
    clock.mockRestore();
  }
}
