import { z } from 'zod';

/** RFC 9110 token: a header name or a method. */
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Methods the Fetch standard forbids (CONNECT, TRACE, TRACK); never sent. */
const forbiddenMethods = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** One direct fetch as the host asks for it; credentials travel among `headers`. */
export const fetchRequestSchema = z
  .strictObject({
    /** the link's absolute `http(s)` url */
    url: z.string().min(1),
    /** request method, case-insensitive (default `GET`) */
    method: z
      .string()
      .regex(token, 'expected an http method')
      .refine((m) => !forbiddenMethods.has(m.toUpperCase()), 'method not allowed')
      .optional(),
    /** request headers by name; Authorization, Cookie, Proxy-Authorization and the policy's api-key headers are credentials */
    headers: z
      .record(
        z.string().regex(token, 'expected an http header name'),
        z.string().regex(/^[^\r\n\0]*$/, 'expected a one-line header value'),
      )
      .optional(),
    /** request body (utf-8 when a string); not allowed with GET or HEAD */
    body: z.union([z.string(), z.instanceof(Uint8Array)]).optional(),
    /** id of the MCP connection that returned the link (default `default`) */
    server: z.string().min(1).optional(),
    /** the link's name, for custom rules (default `direct-fetch`) */
    name: z.string().optional(),
  })
  .refine((r) => r.body === undefined || !['GET', 'HEAD'].includes((r.method ?? 'GET').toUpperCase()), {
    message: 'a `GET` or `HEAD` request has no body',
    path: ['body'],
  });

/** A direct fetch request, after validation. */
export type FetchRequest = z.infer<typeof fetchRequestSchema>;
