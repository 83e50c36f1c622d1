import { familyOf, normalizeMime } from '../content/kinds.ts';
import { decodeText } from '../content/text-encoding.ts';
import type { Decision } from '../decision/decision.ts';
import type { FetchRequest } from '../fetch/fetch-request.ts';
import type { FetchResult } from '../fetch/fetch-result.ts';
import { gatedFetch, overCapRule, type GatedFetchOptions } from '../fetch/gated-fetch.ts';
import type { Gate } from '../gate/create-gate.ts';
import { deliveredStage } from '../record/build-stages.ts';
import { receivedFromFetch, requestedFromFetch } from '../fetch/fetch-stages.ts';
import type { ReadOutcome } from '../record/judge-verdict.ts';
import type { DeliveredStage, ReceivedStage, RequestedStage } from '../record/link-record.ts';
import { deny, reason } from '../decision/deny.ts';

/** Request headers for one link's url, from the host; may be async. */
export type FetchHeaders = (
  uri: string,
) => Readonly<Record<string, string>> | undefined | Promise<Readonly<Record<string, string>> | undefined>;

/**
 * How the Client helper fetches a link itself when the policy enables it (`fetch.enabled`, the link's scheme
 * in `fetch.schemes`): the resolver and TLS/connection options of `gatedFetch`, and `headers`, the only
 * source of credentials for direct fetch (never the MCP connection's own).
 */
export interface DirectFetchOptions extends Omit<GatedFetchOptions, 'signal'> {
  /** headers for the link's url (Authorization, Cookie, the policy's api-key headers are credentials, attached only where the policy allows) */
  headers?: FetchHeaders;
}

/** What one direct fetch gives the record and the model. */
export interface FetchedLink {
  requested: RequestedStage;
  received: ReceivedStage | null;
  delivered: DeliveredStage | null;
  /** the fetch's decision: a refused hop's, a failure's, or the content checks' on the body */
  decision: Decision;
  outcome: ReadOutcome;
  /** the delivered item as an embedded resource's `resource` (uri, mimeType, `text` or `blob`); empty when nothing was delivered */
  contents: Record<string, unknown>[];
}

/** What `fetchLink` needs besides the link. */
export interface FetchLinkOptions {
  gate: Gate;
  /** the host's id for the connection that returned the link */
  server: string;
  fetch?: DirectFetchOptions | undefined;
  /** `observe` delivers whatever body the fetcher released; the fetcher's own network rules always hold */
  enforced: boolean;
  /** the tool result's budget: aborting it ends the fetch */
  budget?: AbortSignal | undefined;
  now: () => Date;
}

/**
 * Fetches an allowed link with `gatedFetch` (every hop re-decided) and turns the result into the record's
 * stages and the deliverable item; never throws, never records a header value, query value or body text.
 */
export async function fetchLink(
  link: Readonly<Record<string, unknown>>,
  uri: string,
  options: FetchLinkOptions,
): Promise<FetchedLink> {
  const { gate, now } = options;
  const deadlineMs = gate.policy.document.read.readTimeoutMs;
  const at = now();
  const result = await fetchWithHeaders(gate, link, uri, options);
  const requested = requestedFromFetch(result, options.server, deadlineMs, at);
  const received = receivedFromFetch(result, now());
  const outcome = fetchOutcome(
    result,
    gate.policy.document.fetch?.connectTimeoutMs ?? deadlineMs,
    deadlineMs,
    options.budget,
  );
  const base = { requested, received, decision: result.decision, outcome };
  if (outcome.kind !== 'complete' || received === null || result.body === undefined)
    return { ...base, delivered: null, contents: [] };

  const itemEffect = result.decision.items?.[0]?.effect ?? result.decision.effect;
  const itemReasons = result.decision.items?.[0]?.reasons ?? result.decision.reasons;
  // a body cut at the cap is delivered in part; any other `partial` means it cannot be interpreted safely (as for read items)
  const deliverable =
    !options.enforced ||
    itemEffect === 'allow' ||
    (itemEffect === 'partial' && itemReasons.every((r) => r.rule === overCapRule));
  // nothing delivered leaves `delivered` null; the read decision says why
  if (!deliverable) return { ...base, delivered: null, contents: [] };
  const item = deliveredItem(uri, result.body, result.contentType, result.evidence[0]?.kind ?? null);
  return { ...base, delivered: deliveredStage(received, [item], [0], [], now()), contents: [item] };
}

async function fetchWithHeaders(
  gate: Gate,
  link: Readonly<Record<string, unknown>>,
  uri: string,
  options: FetchLinkOptions,
): Promise<FetchResult> {
  const { headers: headersFor, ...network } = options.fetch ?? {};
  const request: FetchRequest = { url: uri, server: options.server };
  if (typeof link['name'] === 'string') request.name = link['name'];
  let headers: Readonly<Record<string, string>> | undefined;
  try {
    headers = await headersFor?.(uri);
  } catch {
    // the host's own callback failed: nothing was sent; its error text is not recorded (it may hold a header value)
    return refusedBeforeFetch(gate, "the host's `fetch.headers` callback failed");
  }
  if (headers !== undefined) request.headers = { ...headers };
  return gatedFetch(gate, request, { ...network, ...(options.budget === undefined ? {} : { signal: options.budget }) });
}

function refusedBeforeFetch(gate: Gate, message: string): FetchResult {
  return {
    transport: 'https-direct',
    decision: deny(gate.policy, reason('fetch.failed', 'fetch.headers', 'read', message)),
    hops: [],
    finalUrl: null,
    status: null,
    contentType: null,
    bytes: 0,
    truncated: false,
    elapsedMs: 0,
    evidence: [],
  };
}

/** How a direct fetch ended, in the record's terms (DESIGN §2): refused by the policy, failed, timed out, or a checked body. */
export function fetchOutcome(
  result: FetchResult,
  connectTimeoutMs: number,
  readTimeoutMs: number,
  budget?: AbortSignal,
): ReadOutcome {
  // the content checks ran on a body: the decision says what may be delivered
  if (result.evidence.length > 0) return { kind: 'complete' };
  const reasons = result.decision.reasons;
  const codes = new Set(reasons.map((r) => r.code));
  const first = reasons[0];
  if (codes.has('engine.error') || codes.has('input.invalid'))
    return { kind: 'failed', why: first?.message ?? 'the fetch failed' };
  const last = result.hops.at(-1);
  if (last !== undefined && last.status === null && last.address === null)
    return { kind: 'refused', hop: result.hops.length };
  if (codes.has('fetch.too-many-redirects')) return { kind: 'refused', hop: result.hops.length + 1 };
  if (codes.has('read.timeout')) {
    return {
      kind: 'timeout',
      deadlineMs: reasons.some((r) => r.rule === 'fetch.connectTimeoutMs') ? connectTimeoutMs : readTimeoutMs,
    };
  }
  if (budget?.aborted === true) return { kind: 'failed', why: "the tool result's time budget ran out" };
  if (result.status !== null && (result.status < 200 || result.status > 299))
    return { kind: 'http-error', status: result.status };
  // a body refused whole for its size (declared or counted) was received and denied: the decision names the cap
  if (codes.has('content.too-large')) return { kind: 'complete' };
  return { kind: 'failed', why: first?.message ?? 'the fetch failed' };
}

/** The delivered body as an embedded resource's `resource`: `text` when the checks found inert text that decodes cleanly, else `blob`. */
function deliveredItem(
  uri: string,
  body: Uint8Array,
  contentType: string | null,
  kind: string | null,
): Record<string, unknown> {
  const item: Record<string, unknown> = { uri };
  if (contentType !== null) item['mimeType'] = normalizeMime(contentType);
  if (kind !== null && familyOf(kind) === 'text') {
    const decoded = decodeText(body);
    if (decoded !== null && decoded.issues.length === 0) {
      item['text'] = decoded.text;
      return item;
    }
  }
  item['blob'] = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('base64');
  return item;
}
