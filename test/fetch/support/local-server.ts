import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';

/** What a test server saw of one request. */
export interface SeenRequest {
  method: string;
  /** the request as a WHATWG href built from the scheme, the Host header and the path */
  href: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request handler that runs after the request body was read. */
export type Handler = (request: SeenRequest, response: http.ServerResponse) => void;

/** A server on 127.0.0.1 and an ephemeral port, recording every request it gets. */
export interface LocalServer {
  readonly port: number;
  readonly scheme: 'http' | 'https';
  readonly seen: SeenRequest[];
  /** sockets accepted so far (a connection that never sent a request counts too) */
  readonly connections: () => number;
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** Starts a loopback-only server; `tls` makes it https. */
export async function startServer(tls?: { key: string; cert: string }): Promise<LocalServer> {
  let handler: Handler = (_request, response) => response.writeHead(404).end();
  const seen: SeenRequest[] = [];
  let connections = 0;
  const scheme = tls === undefined ? 'http' : 'https';
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: SeenRequest = {
        method: req.method ?? '',
        href: new URL(req.url ?? '/', `${scheme}://${req.headers.host ?? 'missing-host'}`).href,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      seen.push(request);
      handler(request, res);
    });
  };
  const server = tls === undefined ? http.createServer(onRequest) : https.createServer(tls, onRequest);
  server.on(tls === undefined ? 'connection' : 'secureConnection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    scheme,
    seen,
    connections: () => connections,
    handle(next) {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
