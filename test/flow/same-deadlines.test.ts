// The one deadline timer of the guarded gate's judgements and of the records chain's writes (issue 42 item 4): each
// still fails at its own deadline, one that answered in time is never failed, and the timer holds the process open
// only while one waits. `RecordsDeadline` is `SameDeadlines` with a write's outcome (issue 39, second reading).
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { SameDeadlines } from '../../src/flow/same-deadlines.ts';
import { RecordsDeadline } from '../../src/sdk/records-deadline.ts';

describe('deadlines of one length', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('each fires at its own deadline, in order, on one timer; one done in time never fires', async () => {
    const deadlines = new SameDeadlines(1000);
    const fired: string[] = [];
    const at = (name: string) => () => fired.push(`${name}@${performance.now()}`);
    deadlines.add(at('a'));
    await vi.advanceTimersByTimeAsync(300);
    const doneB = deadlines.add(at('b'));
    await vi.advanceTimersByTimeAsync(300);
    deadlines.add(at('c'));
    expect(vi.getTimerCount()).toBe(1);
    doneB();
    await vi.advanceTimersByTimeAsync(399);
    expect(fired).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fired).toEqual(['a@1000']);
    await vi.advanceTimersByTimeAsync(600);
    expect(fired).toEqual(['a@1000', 'c@1600']);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('a deadline added after all were done is kept from its own start', async () => {
    const deadlines = new SameDeadlines(1000);
    const fired: number[] = [];
    deadlines.add(() => fired.push(1))();
    await vi.advanceTimersByTimeAsync(500);
    deadlines.add(() => fired.push(performance.now()));
    await vi.advanceTimersByTimeAsync(999);
    expect(fired).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fired).toEqual([1500]);
  });

  test('the timer holds the process open only while a deadline waits', () => {
    vi.useRealTimers();
    const deadlines = new SameDeadlines(60_000);
    const done = deadlines.add(() => {});
    const timer = (deadlines as unknown as { timer: NodeJS.Timeout | null }).timer;
    expect(timer?.hasRef()).toBe(true);
    done();
    expect(timer?.hasRef()).toBe(false);
    const again = deadlines.add(() => {});
    expect(timer?.hasRef()).toBe(true);
    again();
  });
});

describe('the records deadline, over the same deadlines', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('a write that never settles fails at its own deadline with the sink error; writes share one timer', async () => {
    const deadline = new RecordsDeadline(1000);
    await deadline.run(async () => {});
    await vi.advanceTimersByTimeAsync(600);
    const failedAt: string[] = [];
    const hanging = deadline
      .run(() => new Promise(() => {}))
      .catch((error: unknown) => failedAt.push(`${(error as Error).message}@${performance.now()}`));
    expect(vi.getTimerCount()).toBe(1);
    // the timer armed for the first write fires at 1000 ms: the hanging write, started at 600, is not due yet
    await vi.advanceTimersByTimeAsync(999);
    expect(failedAt).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await hanging;
    expect(failedAt).toEqual(['the records sink did not answer within 1000 ms@1600']);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('a write that throws or rejects fails with its own error, and one in time is never failed later', async () => {
    const deadline = new RecordsDeadline(1000);
    await expect(
      deadline.run(() => {
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    await expect(deadline.run(() => Promise.reject(new Error('gone')))).rejects.toThrow('gone');
    const slow = deadline.run(() => new Promise((resolve) => setTimeout(resolve, 900)));
    await vi.advanceTimersByTimeAsync(2000);
    await expect(slow).resolves.toBeUndefined();
  });
});
