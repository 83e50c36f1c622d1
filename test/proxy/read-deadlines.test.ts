// The deadline of each read in flight (the proxy's and the decorator's hot path): one timer for the first read still
// waiting, not one per read, and every read still failed at its own deadline, never earlier, never forgotten.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { JsonRpcId } from '../../src/flow/json-rpc-shape.ts';
import type { LinkStep } from '../../src/flow/link-steps.ts';
import type { RequestedStage } from '../../src/record/link-record.ts';
import { type PendingRead, ReadsInFlight } from '../../src/sdk/reads-in-flight.ts';

const read = (started: number): PendingRead => ({
  step: {} as LinkStep,
  requested: {} as RequestedStage,
  started,
});

describe('reads in flight', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  // a deadline as the decorator handles it: the read is taken, and the id noted
  const deadlines = (reads: ReadsInFlight) => {
    const due: JsonRpcId[] = [];
    const onDeadline = (id: JsonRpcId) => {
      if (reads.take(id) !== undefined) due.push(id);
    };
    return { due, onDeadline };
  };

  test('a read answered in time never reaches its deadline; the others reach theirs, in order, not before', () => {
    const reads = new ReadsInFlight();
    const { due, onDeadline } = deadlines(reads);
    reads.start(1, read(0), 100, onDeadline);
    vi.advanceTimersByTime(50);
    reads.start(2, read(50), 100, onDeadline);
    reads.start('three', read(50), 100, onDeadline);
    // one timer for the three
    expect(vi.getTimerCount()).toBe(1);
    expect(reads.take(1)?.started).toBe(0);
    vi.advanceTimersByTime(60);
    expect(due).toEqual([]);
    vi.advanceTimersByTime(39);
    expect(due).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(due).toEqual([2, 'three']);
    expect(reads.take(2)).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  test('a read whose deadline comes before an earlier one reaches it on time', () => {
    const reads = new ReadsInFlight();
    const { due, onDeadline } = deadlines(reads);
    reads.start(1, read(0), 1000, onDeadline);
    reads.start(2, read(0), 10, onDeadline);
    vi.advanceTimersByTime(10);
    expect(due).toEqual([2]);
    vi.advanceTimersByTime(990);
    expect(due).toEqual([2, 1]);
  });

  test('an id taken and started again waits for its new deadline; thousands answered in time leave nothing behind', () => {
    const reads = new ReadsInFlight();
    const { due, onDeadline } = deadlines(reads);
    reads.start(7, read(0), 100, onDeadline);
    vi.advanceTimersByTime(90);
    reads.take(7);
    reads.start(7, read(90), 100, onDeadline);
    vi.advanceTimersByTime(20);
    expect(due).toEqual([]);
    vi.advanceTimersByTime(80);
    expect(due).toEqual([7]);
    for (let i = 0; i < 5000; i += 1) {
      reads.start(i, read(i), 100, onDeadline);
      reads.take(i);
    }
    reads.start('last', read(0), 100, onDeadline);
    vi.advanceTimersByTime(100);
    expect(due).toEqual([7, 'last']);
  });

  test('stopAll hands back every read and no deadline fires after it', () => {
    const reads = new ReadsInFlight();
    const { due, onDeadline } = deadlines(reads);
    reads.start(1, read(0), 100, onDeadline);
    reads.start(2, read(0), 50, onDeadline);
    expect(reads.stopAll(true).map((r) => r.started)).toEqual([0, 0]);
    vi.advanceTimersByTime(200);
    expect(due).toEqual([]);
    expect(reads.take(1)).toBeUndefined();
  });
});
