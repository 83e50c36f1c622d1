// The resident hook server: Claude Code's HTTP hooks post each event to it on loopback, and it answers through the
// hook's own handling (`resident-answer.ts`). It listens only on 127.0.0.1, takes only `POST /claude-code` with the
// session's secret, reads at most `maxResidentEventBytes` of a body, and answers every request: with the event's
// answer, or closed (a deny in the body before the call, a status that blocks otherwise). Never an empty 2xx.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GateError } from '../errors.ts';
import {
  answerEvent,
  failedAnswer,
  refusedRequest,
  type ResidentAnswer,
  type ResidentHandling,
} from './resident-answer.ts';
import { residentAddress } from './resident-conditions.ts';
import { secretHeader } from './resident-secret.ts';

/** The path Claude Code's HTTP hook posts its events to. */
export const residentPath = '/claude-code';

/** Largest event body read, bytes (the command hook's cap: a tool result with embedded resources can be large). */
export const maxResidentEventBytes = 64 * 1024 * 1024;

/** What the server needs besides the event handling: the secret's check. */
export interface ResidentServerOptions extends ResidentHandling {
  /** true when the request's secret header is the session's */
  checkSecret: (given: string | string[] | undefined) => boolean;
}

/** A listening resident server. */
export interface ResidentServer {
  readonly server: Server;
  readonly port: number;
  close(): Promise<void>;
}

/** Starts the server on `residentAddress:port` (0: any free port, for tests); rejects when it cannot listen. */
export async function startResidentServer(port: number, options: ResidentServerOptions): Promise<ResidentServer> {
  const server = createServer({ requestTimeout: options.deadlineMs * 2 }, (request, response) => {
    void serve(request, options).then(
      (answer) => send(response, answer),
      // serve answers every failure itself; this is the last guard
      () => send(response, { status: 500, body: JSON.stringify({ error: 'linkgate resident hook: failed' }) }),
    );
  });
  // a client that keeps a connection open does not keep the server from closing
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, residentAddress, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function serve(request: IncomingMessage, options: ResidentServerOptions): Promise<ResidentAnswer> {
  // the secret first: nothing of a request without it is read or judged
  if (!options.checkSecret(request.headers[secretHeader])) {
    request.resume();
    return refusedRequest(`missing or wrong \`${secretHeader}\``);
  }
  if (request.method !== 'POST' || request.url !== residentPath) {
    request.resume();
    return { status: 404, body: JSON.stringify({ error: `linkgate resident hook: only \`POST ${residentPath}\`` }) };
  }
  let text: string;
  try {
    text = await readBody(request);
  } catch (error) {
    return failedAnswer(undefined, '', error instanceof Error ? error.message : String(error));
  }
  return answerEvent(text, options);
}

// the body, or a GateError past `maxResidentEventBytes` (the rest is drained unread, so the answer still goes out)
function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let bytes = 0;
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= maxResidentEventBytes) return void parts.push(chunk);
      request.off('data', onData);
      request.resume();
      parts.length = 0;
      reject(new GateError('INPUT_INVALID', `the hook event is over ${maxResidentEventBytes} bytes`));
    };
    request.on('data', onData);
    request.once('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.once('error', reject);
  });
}

function send(response: ServerResponse, answer: ResidentAnswer): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(answer.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(answer.body),
    'cache-control': 'no-store',
  });
  response.end(answer.body);
}
