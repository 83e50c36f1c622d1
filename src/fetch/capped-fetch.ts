/** The SDK's `FetchLike`: a fetch a Streamable HTTP transport takes as its `fetch` option. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;
import { GateError } from '../errors.ts';
import { maskUri } from '../link/mask-uri.ts';
import { responseWithBody } from './response-with-body.ts';

/**
 * A fetch (the SDK's `FetchLike`) that counts each response body's bytes as they stream, JSON and SSE alike, and errors
 * that body once it passes `maxBytes` (bytes on the wire after content decoding, per response; ≥ 1). A declared
 * `content-length` over the cap is refused before any body byte is read. Pass it as the Streamable HTTP client
 * transport's `fetch` option, with `connectionByteCap(policy)` as the cap: the HTTP counterpart of stdio `maxBufferSize`.
 */
export function cappedFetch(maxBytes: number, fetchImpl: FetchLike = fetch): FetchLike {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1)
    throw new GateError('USAGE', `byte cap \`${String(maxBytes)}\` must be a whole number ≥ 1`);
  return async (url, init) => {
    const response = await fetchImpl(url, init);
    // 204, 304, HEAD and opaque responses carry no body: nothing to count, and a Response cannot be rebuilt around one
    if (response.body === null) return response;
    const where = maskUri(String(url));
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declared > maxBytes) {
      // refuse before reading: the body is cancelled so the connection is released, not drained
      await response.body.cancel().catch(() => {});
      throw new GateError(
        'READ_FAILED',
        `response from \`${where}\` declares \`${declared}\` bytes, over the \`${maxBytes}\` byte cap`,
      );
    }
    let seen = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        // throwing errors the readable side for the consumer and cancels the source, which aborts the connection
        if (seen > maxBytes)
          throw new GateError(
            'READ_FAILED',
            `response from \`${where}\` passed the \`${maxBytes}\` byte cap while streaming`,
          );
        controller.enqueue(chunk);
      },
    });
    return responseWithBody(response, response.body.pipeThrough(counter));
  };
}
