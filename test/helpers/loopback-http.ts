// The scaffolding of the tests' local HTTP servers: listen on 127.0.0.1 at a free port, read a request body with
// a cap, and close every MCP session before the server itself.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Largest request body a test server reads, bytes. */
export const maxRequestBytes = 1024 * 1024;

/** A listening loopback server: its origin (`http://127.0.0.1:PORT`) and a close that ends every connection. */
export interface LoopbackServer {
  origin: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 at a free port; a handler that throws destroys its response; `beforeClose` runs first on close. */
export async function listenOnLoopback(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  beforeClose: () => Promise<void> = async () => {},
): Promise<LoopbackServer> {
  const http = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    async close() {
      await beforeClose();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/** The request body as UTF-8 text; throws past `maxRequestBytes`. */
export async function readRequestBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxRequestBytes) throw new Error('request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Closes each session's transport and server (an MCP Streamable HTTP server's sessions, by id). */
export async function closeSessions(
  sessions: ReadonlyMap<string, { transport: { close(): Promise<void> }; server: { close(): Promise<void> } }>,
): Promise<void> {
  for (const { transport, server } of sessions.values()) {
    await transport.close();
    await server.close();
  }
}
