import { z } from 'zod';
import { GateError } from '../errors.ts';

/** RFC 9110 token: a header name or a method. */
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Methods the Fetch standard forbids (CONNECT, TRACE, TRACK); never sent. */
const forbiddenMethods = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** The check behind `parseFetchRequest`; kept inside the package (no zod schema in the public surface). */
const fetchRequestSchema = z
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

/** One direct fetch as the host asks for it; credentials travel among `headers`. */
export interface FetchRequest {
  /** the link's absolute `http(s)` url */
  url: string;
  /** request method, case-insensitive (default `GET`); CONNECT, TRACE and TRACK are refused */
  method?: string | undefined;
  /** request headers by name; Authorization, Cookie, Proxy-Authorization and the policy's api-key headers are credentials */
  headers?: Record<string, string> | undefined;
  /** request body (utf-8 when a string); not allowed with GET or HEAD */
  body?: string | Uint8Array | undefined;
  /** id of the MCP connection that returned the link (default `default`) */
  server?: string | undefined;
  /** the link's name, for custom rules (default `direct-fetch`) */
  name?: string | undefined;
}

// the schema and the interface describe one shape: this fails to compile when they part
const sameShape: (parsed: z.infer<typeof fetchRequestSchema>) => FetchRequest = (parsed) => parsed;

/** A fetch request checked, or the first field that is wrong and why (`field` dotted, `(request)` for the whole). */
export type CheckedFetchRequest = { ok: true; request: FetchRequest } | { ok: false; field: string; message: string };

/** Checks an untrusted fetch request; never throws. */
export function checkFetchRequest(input: unknown): CheckedFetchRequest {
  const parsed = fetchRequestSchema.safeParse(input);
  if (parsed.success) return { ok: true, request: sameShape(parsed.data) };
  const issue = parsed.error.issues[0];
  const field = issue?.path.map(String).join('.') || '(request)';
  return { ok: false, field, message: (issue?.message ?? 'invalid').toLowerCase() };
}

/** A fetch request checked before use; `INPUT_INVALID` naming the field when it is wrong. */
export function parseFetchRequest(input: unknown): FetchRequest {
  const checked = checkFetchRequest(input);
  if (!checked.ok) throw new GateError('INPUT_INVALID', `field \`${checked.field}\`: ${checked.message}`);
  return checked.request;
}
