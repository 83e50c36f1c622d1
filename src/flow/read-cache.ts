import { positiveOption } from './positive-option.ts';

/** Default bound on cached read results, entries. */
export const defaultCacheMaxEntries = 256;
/** Default bound on cached read results, UTF-16 code units of their serialized form (≈ 2 bytes each). */
export const defaultCacheMaxChars = 8 * 1024 * 1024;

/** A cached complete read result with its age and ttl. */
export interface CacheHit {
  result: Readonly<Record<string, unknown>>;
  /** milliseconds since the result was received */
  ageMs: number;
  ttlMs: number;
}

/** Where a read came from and under which authorization context (used only when `cacheScope` is `private`). */
export interface CacheKey {
  server: string;
  uri: string;
  /** an opaque label of the authorization context (never the credential itself); `''` when the connection has one */
  authContext?: string;
}

/** Options of a read cache; limits are whole numbers ≥ 1. */
export interface ReadCacheOptions {
  maxEntries?: number;
  maxChars?: number;
  /** clock, milliseconds since the epoch (tests pass their own) */
  now?: () => number;
}

interface Entry {
  result: Readonly<Record<string, unknown>>;
  storedAt: number;
  ttlMs: number;
  chars: number;
}

/**
 * A bounded read cache (MCP 2026-07-28 `ttlMs`/`cacheScope`): only complete results with `ttlMs > 0` are stored;
 * keyed by server + uri, plus the authorization context when `cacheScope` is `private`; least recently used goes first.
 */
export class ReadCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #maxChars: number;
  readonly #now: () => number;
  #chars = 0;

  constructor(options: ReadCacheOptions = {}) {
    this.#maxEntries = positiveOption(options.maxEntries ?? defaultCacheMaxEntries, 'cache option `maxEntries`');
    this.#maxChars = positiveOption(options.maxChars ?? defaultCacheMaxChars, 'cache option `maxChars`');
    this.#now = options.now ?? Date.now;
  }

  /** Number of entries held (expired ones included until touched). */
  get size(): number {
    return this.#entries.size;
  }

  /** Stores `result` when it may be reused; returns whether it was stored. */
  store(key: CacheKey, result: Readonly<Record<string, unknown>>): boolean {
    const ttlMs = result['ttlMs'];
    const resultType = result['resultType'] ?? 'complete';
    // absent or zero ttl means no reuse; only a final result may be reused
    if (resultType !== 'complete' || typeof ttlMs !== 'number' || !Number.isFinite(ttlMs) || ttlMs <= 0) return false;
    if (!Array.isArray(result['contents'])) return false;
    const chars = JSON.stringify(result).length;
    if (chars > this.#maxChars) return false;
    const id = keyOf(key, result['cacheScope']);
    this.#delete(id);
    for (const scoped of scopeVariants(key)) if (scoped !== id) this.#delete(scoped);
    this.#entries.set(id, { result: structuredClone(result), storedAt: this.#now(), ttlMs, chars });
    this.#chars += chars;
    while (this.#entries.size > this.#maxEntries || this.#chars > this.#maxChars) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#delete(oldest.value);
    }
    return true;
  }

  /** A fresh entry for `key` (private entries only for the same authorization context), or undefined. */
  lookup(key: CacheKey): CacheHit | undefined {
    for (const id of scopeVariants(key)) {
      const entry = this.#entries.get(id);
      if (entry === undefined) continue;
      const ageMs = this.#now() - entry.storedAt;
      if (ageMs < 0 || ageMs >= entry.ttlMs) {
        this.#delete(id);
        continue;
      }
      // refresh recency: Map keeps insertion order
      this.#entries.delete(id);
      this.#entries.set(id, entry);
      return { result: structuredClone(entry.result), ageMs, ttlMs: entry.ttlMs };
    }
    return undefined;
  }

  /** Drops every entry. */
  clear(): void {
    this.#entries.clear();
    this.#chars = 0;
  }

  #delete(id: string): void {
    const entry = this.#entries.get(id);
    if (entry === undefined) return;
    this.#chars -= entry.chars;
    this.#entries.delete(id);
  }
}

function keyOf(key: CacheKey, cacheScope: unknown): string {
  // anything but an explicit `public` is treated as private (the 2026 default is not to share)
  const scope = cacheScope === 'public' ? 'public' : `private:${key.authContext ?? ''}`;
  return JSON.stringify([key.server, key.uri, scope]);
}

function scopeVariants(key: CacheKey): string[] {
  return [keyOf(key, 'private'), keyOf(key, 'public')];
}
