// The records chain's one deadline timer (issue 42 item 4): each write still fails at its own deadline, a write that
// settles in time is never failed later, and the timer holds the process open only while a write is in progress.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { RecordsDeadline } from '../../src/sdk/records-deadline.ts';

describe('the records deadline', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('a write that never settles fails at its deadline with the sink error', async () => {
    const deadline = new RecordsDeadline(1000);
    const outcome = deadline
      .run(() => new Promise(() => {}))
      .then(
        () => 'resolved',
        (error: unknown) => (error as Error).message,
      );
    await vi.advanceTimersByTimeAsync(999);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe('the records sink did not answer within 1000 ms');
  });

  test('writes one after another share one timer, and each fails at its own deadline, not the first one’s', async () => {
    const deadline = new RecordsDeadline(1000);
    // 600 ms of quick writes: no timer of their own
    for (let i = 0; i < 6; i += 1) {
      await deadline.run(async () => {});
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(vi.getTimerCount()).toBe(1);
    const failedAt: number[] = [];
    const started = performance.now();
    const hanging = deadline.run(() => new Promise(() => {})).catch(() => failedAt.push(performance.now() - started));
    // the timer armed for the first write fires at 1000 ms: the hanging write, started at 600, is not due yet
    await vi.advanceTimersByTimeAsync(400);
    expect(failedAt).toEqual([]);
    await vi.advanceTimersByTimeAsync(600);
    await hanging;
    expect(failedAt).toEqual([1000]);
  });

  test('a write that throws or rejects fails with its own error, and one in time is never failed later', async () => {
    const deadline = new RecordsDeadline(1000);
    await expect(
      deadline.run(() => {
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    await expect(deadline.run(() => Promise.reject(new Error('gone')))).rejects.toThrow('gone');
    let settled = 'no';
    const slow = deadline
      .run(() => new Promise((resolve) => setTimeout(resolve, 900)))
      .then(
        () => {
          settled = 'resolved';
        },
        () => {
          settled = 'failed';
        },
      );
    await vi.advanceTimersByTimeAsync(2000);
    await slow;
    expect(settled).toBe('resolved');
  });

  test('the timer holds the process open only while a write is in progress', async () => {
    vi.useRealTimers();
    const deadline = new RecordsDeadline(60_000);
    let finish: () => void = () => {};
    const writing = deadline.run(() => new Promise<void>((resolve) => (finish = resolve)));
    const timer = (deadline as unknown as { timer: NodeJS.Timeout | null }).timer;
    expect(timer?.hasRef()).toBe(true);
    finish();
    await writing;
    expect(timer?.hasRef()).toBe(false);
  });
});
