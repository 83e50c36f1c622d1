// A raw MCP host talking to the proxy in this process: the proxy runs over in-memory stdio with the server as a
// child, and the host writes JSON-RPC lines itself (no SDK client), so a test sees exactly the bytes the proxy sends.
import { PassThrough } from 'node:stream';
import type { Gate } from '../../src/gate/create-gate.ts';
import { runProxy } from '../../src/proxy/run-proxy.ts';
import type { RecordSink } from '../../src/record/record-sink.ts';
import { repoRoot } from '../sdk/fake-gate.ts';

type Json = Record<string, unknown>;

/** What a raw host is started with: the gate, the server's name and command line, and the `_meta` sent on requests. */
export interface RawProxyHostOptions {
  gate: Gate;
  server: string;
  /** where the proxy writes its records; none when absent */
  sink?: RecordSink;
  command: readonly string[];
  mode?: 'enforce' | 'observe';
  /** sent as `params._meta` on every request (the 2026-07-28 envelope); none when absent */
  envelope?: Json;
}

/** A raw host over the proxy: requests answered by id, notifications sent, every message it got, and its end. */
export interface RawProxyHost {
  /** sends a request (ids 1, 2, 3… in order) and resolves with the proxy's answer to it */
  request(method: string, params: Json): Promise<Json>;
  notify(method: string, params?: Json): void;
  /** writes `message` as it is, with `jsonrpc: "2.0"` (an answer to a request the server sent, say) */
  send(message: Json): void;
  /** the first message the proxy sends from now on that `match` accepts */
  next(match: (message: Json) => boolean): Promise<Json>;
  readonly got: Json[];
  /** ends the host's input and resolves with the proxy's exit code once it has exited */
  close(): Promise<number>;
}

/** Starts the proxy in this process with a raw host writing JSON-RPC lines to it. */
export function rawProxyHost(options: RawProxyHostOptions): RawProxyHost {
  const toProxy = new PassThrough();
  const fromProxy = new PassThrough();
  const [command, ...args] = options.command;
  const exit = runProxy({
    gate: options.gate,
    server: options.server,
    mode: options.mode ?? 'enforce',
    ...(options.sink === undefined ? {} : { sink: options.sink }),
    upstream: { kind: 'command', command: command as string, args },
    stdin: toProxy,
    stdout: fromProxy,
    stderr: new PassThrough().resume(),
    env: process.env,
    cwd: repoRoot,
  });
  const answers = new Map<number, (m: Json) => void>();
  const waiters: { match: (m: Json) => boolean; resolve: (m: Json) => void }[] = [];
  const got: Json[] = [];
  let buffered = '';
  fromProxy.setEncoding('utf8');
  fromProxy.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const message = JSON.parse(buffered.slice(0, end)) as Json;
      buffered = buffered.slice(end + 1);
      got.push(message);
      if (typeof message['id'] === 'number' && message['method'] === undefined) answers.get(message['id'])?.(message);
      for (const w of waiters.filter((w) => w.match(message))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(message);
      }
    }
  });
  let nextId = 1;
  const write = (line: Json) => toProxy.write(`${JSON.stringify(line)}\n`);
  return {
    got,
    request(method, params) {
      const id = nextId++;
      const answered = new Promise<Json>((resolve) => answers.set(id, resolve));
      write({
        jsonrpc: '2.0',
        id,
        method,
        params: options.envelope === undefined ? params : { ...params, _meta: options.envelope },
      });
      return answered;
    },
    notify(method, params) {
      write(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
    },
    send(message) {
      write({ jsonrpc: '2.0', ...message });
    },
    next(match) {
      return new Promise<Json>((resolve) => waiters.push({ match, resolve }));
    },
    close() {
      toProxy.end();
      return exit;
    },
  };
}
