// The most a test's heap and array buffers grew while something ran: sampled every 5 ms, since a bounded read
// frees its buffers before it returns and a single reading afterwards would miss the peak.

/** A running sample of memory growth. */
export interface MemoryPeak {
  /** the largest growth of heapUsed + arrayBuffers seen since the sample started, bytes */
  peak(): number;
  /** stops sampling (the peak stays readable) */
  stop(): void;
}

/** Starts sampling heapUsed + arrayBuffers every 5 ms against their values now. */
export function memoryPeak(): MemoryPeak {
  const base = process.memoryUsage();
  let peak = 0;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peak = Math.max(peak, now.heapUsed + now.arrayBuffers - base.heapUsed - base.arrayBuffers);
  }, 5);
  return { peak: () => peak, stop: () => clearInterval(sampler) };
}
