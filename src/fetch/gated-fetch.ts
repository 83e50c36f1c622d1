import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import type { ItemEvidence } from '../gate/decide-read.ts';
import { strongerEffect, type Decision, type Reason, type ReasonStage } from '../decision/decision.ts';
import type { ReasonCode } from '../decision/reason-codes.ts';
import { createGate, type Gate, type Resolver } from '../gate/create-gate.ts';
import { deny, engineError, reason } from '../decision/deny.ts';
import { maskUri } from '../link/mask-uri.ts';
import { parseUri } from '../link/parse-uri.ts';
import type { Policy } from '../policy/policy.ts';
import { readCappedBody, trimCutText } from './body-limit.ts';
import { splitHeaders, trackCredentials, type CredentialTracker, type HopCredential } from './credential-headers.ts';
import { fetchRequestSchema, type FetchRequest } from './fetch-request.ts';
import { findQueryCredentials, queryCredentialsForHop, redactQueryCredentials } from './query-credentials.ts';
import type { FetchHop, FetchResult } from './fetch-result.ts';
import { memoizeResolver } from './pinned-lookup.ts';
import { resolveWithin, systemResolver } from '../link/resolve-name.ts';
import { isDowngrade, nextRedirect, requestBodyHeaders } from './redirect-policy.ts';
import { sendHop, type CreateConnection } from './send-hop.ts';

/** How a direct fetch reaches the network. */
export interface GatedFetchOptions {
  /** resolver for every hop's name (default: the OS resolver); each name is resolved once per hop and the checked answer is the one connected to */
  resolve?: Resolver;
  /** the caller's abort; the policy's `read.readTimeoutMs` applies in any case */
  signal?: AbortSignal;
  /** trust anchors (PEM) replacing Node's bundled roots, for private PKI and tests */
  ca?: string | Buffer | ReadonlyArray<string | Buffer>;
  /** socket factory in place of a fresh agent (sandboxes and tests); it must connect where the pinned `lookup` it receives says */
  createConnection?: CreateConnection;
}

/** Schemes the fetcher uses when the policy's `fetch.schemes` is absent. */
export const defaultFetchSchemes: readonly string[] = Object.freeze(['https']);

/** The `rule` of the reason a body cut at `read.maxBytes` carries (`content.too-large`); the only reason a cut body may still be delivered with. */
export const overCapRule = 'fetch.overCap';

/** True when the policy has the host fetch `uri` itself: `fetch.enabled` and the uri's scheme among `fetch.schemes` (default `https`). */
export function fetchesDirectly(policy: Policy, uri: string): boolean {
  const fetch = policy.document.fetch;
  if (fetch?.enabled !== true) return false;
  // the scheme as the WHATWG parser reads it (case-folded, leading C0/space trimmed); a uri that does not parse is never fetched
  const url = parseUrl(uri);
  return url !== undefined && (fetch.schemes ?? defaultFetchSchemes).includes(url.protocol.slice(0, -1));
}

/**
 * Fetches an `http(s)` link directly under the gate's policy: every hop re-decided as a link with
 * its name resolved once and pinned, credentials attached only where the credential decision allows,
 * the body read under `read.maxBytes` and `read.readTimeoutMs`, then checked like a `resources/read` blob.
 * Never throws: any failure is a `deny` in the result.
 */
export async function gatedFetch(
  gate: Gate,
  request: FetchRequest,
  options: GatedFetchOptions = {},
): Promise<FetchResult> {
  const started = performance.now();
  const policy = gate.policy;
  const trace: Trace = { hops: [], started, policy, mask: maskUri };
  try {
    return await run(gate, request, options, trace);
  } catch (error) {
    return finish(trace, engineError(policy, error));
  }
}

interface Trace {
  hops: FetchHop[];
  /** masks a url for the result: no userinfo, no query values, no query credential of the first url anywhere */
  mask: (url: string) => string;
  started: number;
  policy: Policy;
  final?: { url: URL; status: number; contentType: string | null };
}

async function run(gate: Gate, input: FetchRequest, options: GatedFetchOptions, trace: Trace): Promise<FetchResult> {
  const { policy } = trace;
  const parsed = fetchRequestSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join('.') || '(request)';
    return finish(
      trace,
      denied(
        policy,
        'input.invalid',
        'input',
        'input',
        `field \`${field}\`: ${(issue?.message ?? 'invalid').toLowerCase()}`,
      ),
    );
  }
  const request = parsed.data;
  const fetchPolicy = policy.document.fetch;
  if (fetchPolicy?.enabled !== true) {
    return finish(
      trace,
      denied(policy, 'fetch.disabled', 'fetch.enabled', 'link', 'direct fetch is not enabled by the policy'),
    );
  }
  const schemes = fetchPolicy.schemes ?? defaultFetchSchemes;
  const readTimeoutMs = policy.document.read.readTimeoutMs;
  const connectTimeoutMs = fetchPolicy.connectTimeoutMs ?? readTimeoutMs;
  const deadline = AbortSignal.timeout(readTimeoutMs);
  const signal = options.signal === undefined ? deadline : AbortSignal.any([deadline, options.signal]);
  const resolve = options.resolve ?? systemResolver;
  const server = request.server ?? 'default';
  const name = request.name ?? 'direct-fetch';
  const apiKeyNames = policy.document.credentials.apiKeyHeaders ?? [];
  const split = splitHeaders(request.headers ?? {}, apiKeyNames);
  const firstUrl = parseUrl(request.url);
  const queryCredentials = firstUrl === undefined ? [] : findQueryCredentials(firstUrl, apiKeyNames);
  if (queryCredentials.length > 0) trace.mask = (url) => maskUri(redactQueryCredentials(url, queryCredentials));

  let plain = split.plain;
  let method = (request.method ?? 'GET').toUpperCase();
  let body = request.body === undefined ? undefined : Buffer.from(request.body);
  let target = request.url;
  let previous: URL | undefined;
  let tracker: CredentialTracker | undefined;
  const via: string[] = [];

  for (let index = 0; ; index++) {
    let url = parseUrl(target);
    let queryReport: HopCredential[] = [];
    const refuse = (decision: Decision): FetchResult => {
      trace.hops.push({
        url: trace.mask(target),
        method,
        status: null,
        decision,
        address: null,
        credentials: queryReport,
      });
      return finish(trace, decision);
    };
    // cheap checks first: a refused hop must not even cause a DNS query (an exfiltration channel)
    if (url !== undefined && !schemes.includes(url.protocol.slice(0, -1))) {
      return refuse(
        denied(
          policy,
          'uri.scheme-not-allowed',
          'fetch.schemes',
          'link',
          `scheme \`${url.protocol.slice(0, -1)}\` is not fetched directly`,
        ),
      );
    }
    if (url !== undefined && previous !== undefined && isDowngrade(previous, url)) {
      return refuse(
        denied(policy, 'fetch.downgrade', 'fetch.schemes', 'link', `redirect from \`https\` to \`http\` is refused`),
      );
    }

    // a credential in the first url's query gets the same per-hop decision as a header; a denied one is taken
    // out of the redirect target (or the hop refused) before the target is judged or resolved
    if (url !== undefined && queryCredentials.length > 0) {
      if (index === 0) {
        queryReport = queryCredentials.map((c) => ({
          header: `?${c.name}`,
          kind: 'bearer-in-query',
          attached: true,
          reasons: [],
        }));
      } else {
        const query = queryCredentialsForHop(gate, request.url, queryCredentials, url, via);
        queryReport = query.report;
        if (query.refused) return refuse({ effect: 'deny', reasons: query.reasons, policy: { ...policy.ref } });
        url = query.url;
        target = url.href;
      }
    }

    // the gate resolves the name through the memo; the answers it checks are the ones connected to
    const memo = memoizeResolver(resolve);
    const hopGate = createGate(policy, { resolve: memo.resolver, resolveTimeoutMs: connectTimeoutMs });
    const link = { type: 'resource_link' as const, uri: target, name };
    const decision = await hopGate.decide({ stage: 'link', server, readFrom: server, link });
    if (decision.effect !== 'allow') return refuse(asDeny(decision));
    if (url === undefined) return refuse(denied(policy, 'uri.invalid', 'fetch', 'link', 'the url does not parse'));

    const address = await pinAddress(policy, url, memo.answersFor(url.hostname), resolve, connectTimeoutMs, signal);
    if (typeof address !== 'string') return refuse(address);

    tracker ??= trackCredentials(gate, request.url, split.credentials);
    const credentials = tracker.forHop(url.href, via);
    const headers: OutgoingHttpHeaders = Object.fromEntries(plain);
    for (const credential of credentials.attach) headers[credential.name] = credential.value;
    headers.host = url.host;
    headers['accept-encoding'] = 'identity';
    if (body !== undefined) headers['content-length'] = String(body.length);

    const hopOptions = { url, address, method, headers, body, connectTimeoutMs, signal };
    const outcome = await sendHop({
      ...hopOptions,
      ...(options.ca === undefined ? {} : { ca: options.ca }),
      ...(options.createConnection === undefined ? {} : { createConnection: options.createConnection }),
    });
    const hop: FetchHop = {
      url: trace.mask(url.href),
      method,
      status: null,
      decision,
      address,
      credentials: [...credentials.report, ...queryReport],
    };
    trace.hops.push(hop);
    if (!outcome.ok)
      return finish(trace, failure(policy, outcome.failure, outcome.message, readTimeoutMs, options.signal));

    const response = outcome.response;
    const status = response.statusCode ?? 0;
    hop.status = status;
    const step = nextRedirect(url, status, method, response.headers.location);
    if (step.kind === 'final') {
      trace.final = { url, status, contentType: response.headers['content-type'] ?? null };
      return await readFinal(gate, trace, response, {
        method,
        server,
        name,
        uri: request.url,
        signal,
        readTimeoutMs,
        callerSignal: options.signal,
      });
    }
    // a redirect's body is never read: the connection is not reused, so drop it unread
    response.destroy();
    if (step.kind === 'invalid') return finish(trace, denied(policy, 'fetch.failed', 'fetch', 'link', step.message));
    if (index >= fetchPolicy.maxRedirects) {
      return finish(
        trace,
        denied(
          policy,
          'fetch.too-many-redirects',
          'fetch.maxRedirects',
          'link',
          `more than \`${fetchPolicy.maxRedirects}\` redirects`,
        ),
      );
    }
    if (!step.hop.keepsBody) {
      body = undefined;
      plain = plain.filter(([header]) => !requestBodyHeaders.has(header));
    }
    method = step.hop.method;
    if (index > 0) via.push(url.href);
    previous = url;
    target = step.hop.target;
  }
}

/** The address to connect to: the ip literal itself, or the first answer the link decision checked. */
async function pinAddress(
  policy: Policy,
  url: URL,
  answers: readonly string[] | undefined,
  resolve: Resolver,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<string | Decision> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) return host;
  let checked = answers;
  if (checked === undefined) {
    // the link decision did not ask for the name: only a host whose addresses the policy does not judge may skip the check
    if (policy.link.denyNonPublicAddresses && !isExemptOrigin(policy, url)) {
      return denied(
        policy,
        'engine.error',
        'engine',
        'engine',
        `host \`${url.hostname}\` was not resolved and checked by the link decision`,
      );
    }
    checked = await resolveWithin(resolve, url.hostname, timeoutMs, signal);
  }
  const first = checked?.[0];
  if (first === undefined || isIP(first) === 0) {
    return denied(
      policy,
      'uri.unresolved',
      'fetch.resolve',
      'link',
      `host \`${url.hostname}\` did not resolve to an ip address`,
    );
  }
  return first;
}

/** True when the engine exempts `url`'s origin from the address rules (`links.allowNonPublicOrigins`), compared as the engine compares it. */
function isExemptOrigin(policy: Policy, url: URL): boolean {
  const parsed = parseUri(url.href);
  return parsed.ok && parsed.origin !== null && policy.link.exemptOrigins.has(parsed.origin);
}

interface FinalContext {
  method: string;
  server: string;
  name: string;
  /** the link's uri as the caller gave it */
  uri: string;
  signal: AbortSignal;
  readTimeoutMs: number;
  callerSignal: AbortSignal | undefined;
}

async function readFinal(
  gate: Gate,
  trace: Trace,
  response: IncomingMessage,
  context: FinalContext,
): Promise<FetchResult> {
  const { policy } = trace;
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 299) {
    response.destroy();
    return finish(trace, denied(policy, 'read.error', 'fetch', 'read', `server answered http status \`${status}\``));
  }
  if (context.method === 'HEAD') {
    response.destroy();
    return finish(trace, { effect: 'allow', reasons: [], policy: { ...policy.ref } });
  }
  const maxBytes = policy.document.read.maxBytes;
  const overCap = policy.document.fetch?.overCap ?? policy.document.read.overCap ?? 'deny';
  // content-length only refuses early; the byte counter decides what is accepted
  const declared = Number(response.headers['content-length']);
  if (overCap === 'deny' && Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    return finish(
      trace,
      denied(
        policy,
        'content.too-large',
        'read.maxBytes',
        'content',
        `declared \`content-length\` ${declared} bytes is over the cap of ${maxBytes} bytes`,
      ),
    );
  }
  const body = await readCappedBody(response, maxBytes, context.signal);
  // a cut inside a character would make cut text fail the encoding checks; end it on a character boundary
  if (body.truncated) body.bytes = trimCutText(body.bytes);
  const received = { bytes: body.bytes.length, truncated: body.truncated };
  if (body.end === 'aborted') {
    return finish(
      trace,
      failure(policy, 'aborted', 'the fetch was aborted', context.readTimeoutMs, context.callerSignal),
      received,
    );
  }
  if (body.end === 'error')
    return finish(trace, denied(policy, 'fetch.failed', 'fetch', 'read', body.error ?? 'body read failed'), received);
  if (body.truncated && overCap === 'deny') {
    return finish(
      trace,
      denied(policy, 'content.too-large', 'read.maxBytes', 'content', `body is over the cap of ${maxBytes} bytes`),
      received,
    );
  }

  const contentType = trace.final?.contentType ?? null;
  const item: Record<string, string> = { uri: context.uri, blob: body.bytes.toString('base64') };
  if (contentType !== null) item.mimeType = contentType;
  const verdict = await gate.decideReadDetailed({
    stage: 'read',
    server: context.server,
    readFrom: context.server,
    link: { type: 'resource_link', uri: context.uri, name: context.name },
    elapsedMs: Math.round(performance.now() - trace.started),
    result: { resultType: 'complete', contents: [item] },
  });
  let decision = verdict.decision;
  if (body.truncated) decision = withCut(decision, maxBytes);
  const itemEffect = decision.items?.[0]?.effect ?? decision.effect;
  const deliver = decision.effect !== 'deny' && itemEffect !== 'deny';
  return finish(trace, decision, received, verdict.evidence, deliver ? new Uint8Array(body.bytes) : undefined);
}

/** Adds "bytes cut" to a content decision: at least partial, on the whole and on the one item. */
function withCut(decision: Decision, maxBytes: number): Decision {
  const reason: Reason = {
    code: 'content.too-large',
    rule: overCapRule,
    stage: 'content',
    message: `body cut at the cap of ${maxBytes} bytes`,
  };
  const out: Decision = {
    ...decision,
    effect: strongerEffect(decision.effect, 'partial'),
    reasons: [...decision.reasons, reason],
  };
  if (decision.items !== undefined) {
    out.items = decision.items.map((item) =>
      item.index === 0
        ? { ...item, effect: strongerEffect(item.effect, 'partial'), reasons: [...item.reasons, reason] }
        : item,
    );
  }
  return out;
}

function finish(
  trace: Trace,
  decision: Decision,
  received: { bytes: number; truncated: boolean } = { bytes: 0, truncated: false },
  evidence: ItemEvidence[] = [],
  body?: Uint8Array,
): FetchResult {
  const result: FetchResult = {
    transport: 'https-direct',
    decision,
    hops: trace.hops,
    finalUrl: trace.final === undefined ? null : trace.mask(trace.final.url.href),
    status: trace.final?.status ?? null,
    contentType: trace.final?.contentType ?? null,
    bytes: received.bytes,
    truncated: received.truncated,
    elapsedMs: Math.round(performance.now() - trace.started),
    evidence,
  };
  if (body !== undefined) result.body = body;
  return result;
}

function failure(
  policy: Policy,
  kind: 'connect-timeout' | 'aborted' | 'failed',
  message: string,
  readTimeoutMs: number,
  callerSignal: AbortSignal | undefined,
): Decision {
  if (kind === 'connect-timeout') return denied(policy, 'read.timeout', 'fetch.connectTimeoutMs', 'read', message);
  if (kind === 'aborted' && callerSignal?.aborted === true)
    return denied(policy, 'fetch.failed', 'fetch', 'read', 'the fetch was aborted by the caller');
  if (kind === 'aborted')
    return denied(
      policy,
      'read.timeout',
      'read.readTimeoutMs',
      'read',
      `the fetch passed its deadline of ${readTimeoutMs} ms`,
    );
  return denied(policy, 'fetch.failed', 'fetch', 'read', message);
}

/** A link decision that stops the chain; a `partial` link decision cannot be fetched in part, so it stops it too. */
function asDeny(decision: Decision): Decision {
  return decision.effect === 'deny' ? decision : { ...decision, effect: 'deny' };
}

function denied(policy: Policy, code: ReasonCode, rule: string, stage: ReasonStage, message: string): Decision {
  return deny(policy, reason(code, rule, stage, message));
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
