import type { OutgoingHttpHeaders } from 'node:http';
import type { Decision } from '../decision/decision.ts';
import { engineError } from '../decision/deny.ts';
import type { Gate, Resolver } from '../gate/create-gate.ts';
import { maskUri } from '../link/mask-uri.ts';
import { systemResolver } from '../link/resolve-name.ts';
import type { Policy } from '../policy/policy.ts';
import { splitHeaders, trackCredentials, type CredentialTracker, type HopCredential } from './credential-headers.ts';
import { failedWith, type FetchStop, gateFailed } from './fetch-ending.ts';
import { brokeOff, type FetchDeadlines } from './fetch-failure.ts';
import { checkFetchRequest, type FetchRequest } from './fetch-request.ts';
import type { FetchResult } from './fetch-result.ts';
import { denied, type FetchTrace, finish, parseUrl } from './fetch-trace.ts';
import { hopGate } from './hop-gate.ts';
import { checkHopTarget } from './hop-target.ts';
import { pinAddress } from './pin-address.ts';
import { findQueryCredentials, redactQueryCredentials } from './query-credentials.ts';
import { readFinal } from './read-final.ts';
import { nextRedirect, requestBodyHeaders } from './redirect-policy.ts';
import { sendHop, type CreateConnection } from './send-hop.ts';

export { overCapRule } from './read-final.ts';

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
 * Never throws: any failure is a `deny` in the result, and `ending` says how the fetch ended.
 */
export async function gatedFetch(
  gate: Gate,
  request: FetchRequest,
  options: GatedFetchOptions = {},
): Promise<FetchResult> {
  const policy = gate.policy;
  const trace: FetchTrace = { hops: [], started: performance.now(), policy, mask: maskUri };
  try {
    return await run(gate, request, options, trace);
  } catch (error) {
    return finish(trace, failedWith(engineError(policy, error)));
  }
}

/** One request of the chain as it goes out: method, body and plain headers change along redirects. */
interface HopRequest {
  target: string;
  method: string;
  body: Buffer | undefined;
  plain: readonly (readonly [string, string])[];
  previous: URL | undefined;
  /** urls of the hops between the first and the current one */
  via: string[];
}

async function run(
  gate: Gate,
  input: FetchRequest,
  options: GatedFetchOptions,
  trace: FetchTrace,
): Promise<FetchResult> {
  const { policy } = trace;
  const checked = checkFetchRequest(input);
  if (!checked.ok) {
    const message = `field \`${checked.field}\`: ${checked.message}`;
    return finish(trace, failedWith(denied(policy, 'input.invalid', 'input', 'input', message)));
  }
  const request = checked.request;
  const fetchPolicy = policy.document.fetch;
  if (fetchPolicy?.enabled !== true) {
    const message = 'direct fetch is not enabled by the policy';
    return finish(trace, failedWith(denied(policy, 'fetch.disabled', 'fetch.enabled', 'link', message)));
  }
  const schemes = fetchPolicy.schemes ?? defaultFetchSchemes;
  const readTimeoutMs = policy.document.read.readTimeoutMs;
  const deadlines: FetchDeadlines = {
    readTimeoutMs,
    connectTimeoutMs: fetchPolicy.connectTimeoutMs ?? readTimeoutMs,
    callerSignal: options.signal,
  };
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
  // one Gate for the whole chain; each hop's names resolve once through its own memo
  const hops = hopGate(policy, resolve, deadlines.connectTimeoutMs);
  let tracker: CredentialTracker | undefined;
  const hop: HopRequest = {
    target: request.url,
    method: (request.method ?? 'GET').toUpperCase(),
    body: request.body === undefined ? undefined : Buffer.from(request.body),
    plain: split.plain,
    previous: undefined,
    via: [],
  };

  for (let index = 0; ; index++) {
    const checked = checkHopTarget({
      gate,
      index,
      target: hop.target,
      url: parseUrl(hop.target),
      previous: hop.previous,
      schemes,
      firstUrl: request.url,
      queryCredentials,
      via: hop.via,
    });
    const refuse = (decision: Decision): FetchResult => {
      const credentials = checked.queryReport;
      trace.hops.push({
        url: trace.mask(hop.target),
        method: hop.method,
        status: null,
        decision,
        address: null,
        credentials,
      });
      // a gate that failed on the hop (or never checked its name) is a failure, not a refusal by the policy
      const stop: FetchStop = gateFailed(decision)
        ? failedWith(decision)
        : { decision, ending: { kind: 'refused', hop: trace.hops.length } };
      return finish(trace, stop);
    };
    if (!checked.ok) return refuse(checked.decision);
    hop.target = checked.target;
    const { url } = checked;

    const judged = await hops.decide(server, { type: 'resource_link', uri: hop.target, name });
    const { decision } = judged;
    if (decision.effect !== 'allow') return refuse(asDeny(decision));
    if (url === undefined) return refuse(denied(policy, 'uri.invalid', 'fetch', 'link', 'the url does not parse'));
    const timeoutMs = deadlines.connectTimeoutMs;
    const address = await pinAddress(policy, url, judged.answersFor(url.hostname), resolve, timeoutMs, signal);
    if (typeof address !== 'string') return refuse(address);

    tracker ??= trackCredentials(gate, request.url, split.credentials);
    const credentials = tracker.forHop(url.href, hop.via);
    const sent = await sendHop({
      url,
      address,
      method: hop.method,
      headers: hopHeaders(hop, url, credentials.attach),
      body: hop.body,
      connectTimeoutMs: deadlines.connectTimeoutMs,
      signal,
      ...(options.ca === undefined ? {} : { ca: options.ca }),
      ...(options.createConnection === undefined ? {} : { createConnection: options.createConnection }),
    });
    const report: HopCredential[] = [...credentials.report, ...checked.queryReport];
    const record = {
      url: trace.mask(url.href),
      method: hop.method,
      status: null,
      decision,
      address,
      credentials: report,
    };
    trace.hops.push(record);
    if (!sent.ok) return finish(trace, brokeOff(policy, sent.failure, sent.message, deadlines));

    const response = sent.response;
    const status = response.statusCode ?? 0;
    trace.hops[trace.hops.length - 1] = { ...record, status };
    const step = nextRedirect(url, status, hop.method, response.headers.location);
    if (step.kind === 'final') {
      trace.final = { url, status, contentType: response.headers['content-type'] ?? null };
      const context = { ...deadlines, method: hop.method, server, name, uri: request.url, signal };
      return await readFinal(gate, trace, response, context);
    }
    // a redirect's body is never read: the connection is not reused, so drop it unread
    response.destroy();
    if (step.kind === 'invalid')
      return finish(trace, failedWith(denied(policy, 'fetch.failed', 'fetch', 'link', step.message)));
    if (index >= fetchPolicy.maxRedirects) {
      const message = `more than \`${fetchPolicy.maxRedirects}\` redirects`;
      const decision = denied(policy, 'fetch.too-many-redirects', 'fetch.maxRedirects', 'link', message);
      // the hop the limit refused is the one after the last sent
      return finish(trace, { decision, ending: { kind: 'refused', hop: trace.hops.length + 1 } });
    }
    if (!step.hop.keepsBody) {
      hop.body = undefined;
      hop.plain = hop.plain.filter(([header]) => !requestBodyHeaders.has(header));
    }
    hop.method = step.hop.method;
    if (index > 0) hop.via.push(url.href);
    hop.previous = url;
    hop.target = step.hop.target;
  }
}

/** The headers one hop sends: the plain ones, the credentials allowed on it, the host, and no compression. */
function hopHeaders(
  hop: HopRequest,
  url: URL,
  attach: readonly { name: string; value: string }[],
): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = Object.fromEntries(hop.plain);
  for (const credential of attach) headers[credential.name] = credential.value;
  headers.host = url.host;
  headers['accept-encoding'] = 'identity';
  if (hop.body !== undefined) headers['content-length'] = String(hop.body.length);
  return headers;
}

/** A link decision that stops the chain; a `partial` link decision cannot be fetched in part, so it stops it too. */
function asDeny(decision: Decision): Decision {
  return decision.effect === 'deny' ? decision : { ...decision, effect: 'deny' };
}
