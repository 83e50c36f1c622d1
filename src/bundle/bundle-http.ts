import { GateError } from '../errors.ts';

/** The `fetch` a source speaks through (the global one unless a caller counts or routes requests). */
export type FetchFunction = (input: string, init?: RequestInit) => Promise<Response>;

/** Deadline of one request of a pull or push, milliseconds. */
export const bundleRequestTimeoutMs = 30_000;

/** Loopback host names and addresses: the only hosts plain http is spoken to. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A request failure worded once: `METHOD URL: what went wrong`. */
export function requestError(method: string, url: string, detail: string): GateError {
  return new GateError('READ_FAILED', `${method} ${url}: ${detail}`);
}

/** Sends one request under the bundle deadline; a network failure throws GateError READ_FAILED naming the url. */
export async function send(fetchFn: FetchFunction, url: string, init: RequestInit = {}): Promise<Response> {
  const method = init.method ?? 'GET';
  try {
    return await fetchFn(url, { redirect: 'follow', ...init, signal: AbortSignal.timeout(bundleRequestTimeoutMs) });
  } catch (error) {
    const cause = (error as { cause?: { code?: unknown } }).cause;
    const code = typeof cause?.code === 'string' ? cause.code : error instanceof Error ? error.name : 'error';
    throw requestError(method, url, `the request failed (${code})`);
  }
}

/**
 * The body of `response`, at most `maxBytes`: a declared length over the cap is refused before reading, and the read
 * stops as soon as the cap is passed. Throws GateError READ_FAILED naming `what`.
 */
export async function readBody(response: Response, maxBytes: number, what: string): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new GateError('READ_FAILED', `${what} is ${declared} bytes, over the limit of ${maxBytes}`);
  }
  if (response.body === null) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new GateError('READ_FAILED', `${what} is over the limit of ${maxBytes} bytes`);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
