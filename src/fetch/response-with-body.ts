/** `response` with `body` instead of its own: status, headers, `url`, `redirected` and `type` kept (the sdk reads them). */
export function responseWithBody(response: Response, body: ReadableStream<Uint8Array>): Response {
  const rebuilt = new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperties(rebuilt, {
    url: { value: response.url },
    redirected: { value: response.redirected },
    type: { value: response.type },
  });
  return rebuilt;
}
