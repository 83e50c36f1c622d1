import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import { pinnedLookup } from './pinned-lookup.ts';

/** A socket factory in place of Node's agent; it gets the request options, `lookup` (pinned) included, and must honour it. */
export type CreateConnection = (
  options: http.ClientRequestArgs,
  callback: (error: Error | null, socket: Duplex) => void,
) => Duplex;

/** One request of a redirect chain, to an address the gate already checked. */
export interface HopRequest {
  url: URL;
  /** the checked ip address to connect to (DNS pinning) */
  address: string;
  method: string;
  headers: OutgoingHttpHeaders;
  body: Buffer | undefined;
  /** deadline for connecting (and the TLS handshake), milliseconds */
  connectTimeoutMs: number;
  /** the fetch's overall deadline or the caller's abort */
  signal: AbortSignal;
  /** trust anchors (PEM) replacing Node's bundled roots, for private PKI and tests */
  ca?: string | Buffer | ReadonlyArray<string | Buffer>;
  createConnection?: CreateConnection;
}

/** The response head of one hop, or why there is none. */
export type HopOutcome =
  | { ok: true; response: IncomingMessage }
  | { ok: false; failure: 'connect-timeout' | 'aborted' | 'failed'; message: string };

/** Sends one request over `node:http`/`node:https` with a pinned `lookup`, a fresh connection and no automatic redirects. */
export function sendHop(hop: HopRequest): Promise<HopOutcome> {
  const secure = hop.url.protocol === 'https:';
  const host = hop.url.hostname.replace(/^\[(.*)\]$/, '$1');
  const options: https.RequestOptions = {
    host,
    port: hop.url.port === '' ? (secure ? 443 : 80) : Number(hop.url.port),
    method: hop.method,
    path: `${hop.url.pathname}${hop.url.search}`,
    headers: hop.headers,
    // the Host header is set from the WHATWG serialisation, not from the pinned address
    setHost: false,
    lookup: pinnedLookup(hop.address),
    signal: hop.signal,
  };
  if (secure) {
    // SNI never carries an ip literal or a trailing dot (RFC 6066 §3); the certificate is checked against this name
    options.servername = isIP(host) === 0 ? host.replace(/\.$/, '') : '';
    if (hop.ca !== undefined) options.ca = hop.ca as string | Buffer | Array<string | Buffer>;
  }
  // no pooling: a pooled socket was connected under an earlier hop's decision
  if (hop.createConnection === undefined) options.agent = false;
  else options.createConnection = hop.createConnection;

  return new Promise<HopOutcome>((resolve) => {
    let settled = false;
    let connectTimer: NodeJS.Timeout | undefined;
    const settle = (outcome: HopOutcome): void => {
      clearTimeout(connectTimer);
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    let request: ClientRequest;
    try {
      request = (secure ? https : http).request(options);
    } catch (error) {
      settle({ ok: false, failure: 'failed', message: describe(error) });
      return;
    }
    request.on('socket', (socket: Socket) => {
      connectTimer = setTimeout(() => {
        request.destroy(new Error(`connect timed out after \`${hop.connectTimeoutMs}\` ms`));
        settle({
          ok: false,
          failure: 'connect-timeout',
          message: `connect to \`${hop.url.host}\` timed out after \`${hop.connectTimeoutMs}\` ms`,
        });
      }, hop.connectTimeoutMs);
      socket.once(socket instanceof TLSSocket ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
    });
    request.on('response', (response) => settle({ ok: true, response }));
    request.on('error', (error) => {
      if (hop.signal.aborted) settle({ ok: false, failure: 'aborted', message: 'the fetch was aborted' });
      else
        settle({ ok: false, failure: 'failed', message: `request to \`${hop.url.host}\` failed: ${describe(error)}` });
    });
    request.end(hop.body);
  });
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return (code === undefined ? error.message : `${code}`).toLowerCase().replace(/\s+/g, ' ').slice(0, 200);
  }
  return 'unknown error';
}
