/** The caps of `policies/default.yaml` by dotted path, the yardstick for "far above the default" (a test keeps them in step). */
export const referenceLimits: Readonly<Record<string, { readonly value: number; readonly unit: string }>> = {
  'links.maxDeclaredBytes': { value: 10_485_760, unit: 'bytes' },
  'read.readTimeoutMs': { value: 10_000, unit: 'ms' },
  'read.maxBytes': { value: 10_485_760, unit: 'bytes' },
  // default.yaml sets no per-item cap: one item may use the whole read
  'read.maxItemBytes': { value: 10_485_760, unit: 'bytes' },
  'read.maxItems': { value: 64, unit: 'items' },
  'content.maxImagePixels': { value: 50_000_000, unit: 'pixels' },
  // connecting is part of a read: the read deadline bounds it
  'fetch.connectTimeoutMs': { value: 10_000, unit: 'ms' },
};

/** A cap more than this many times its reference value is reported as far above the default (a ratio). */
export const farAboveFactor = 10;

/** Shortest deadline that can still complete a read or a connect, milliseconds; below it every read times out. */
export const minUsefulTimeoutMs = 100;

/** Days before `review.expires` from which lint warns that the review is expiring. */
export const reviewWarningDays = 30;
