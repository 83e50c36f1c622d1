import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { ProxyUpstream } from '../../src/proxy/proxy-options.ts';
import { runProxy } from '../../src/proxy/run-proxy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { tsServer } from '../e2e/run-probe.ts';
import { repoRoot } from '../sdk/fake-gate.ts';
import { shippedPolicy } from './proxy-helpers.ts';
import { finishedInto } from '../sdk/finished-records.ts';

type Json = Record<string, unknown>;

/** A host that speaks raw JSON-RPC lines to an in-process `runProxy`, so tests can send what no SDK would. */
export interface RawHost {
  /** writes one message as a JSON line */
  send(message: unknown): void;
  /** writes text as it is, followed by a newline */
  sendLine(text: string): void;
  /** sends a request with a fresh numeric id and waits for its answer */
  request(method: string, params?: Json): Promise<Json>;
  /** every line the proxy wrote, in order */
  readonly lines: string[];
  /** the first message (already received or still to come) that matches, or a rejection after `timeoutMs` */
  waitFor(match: (m: Json) => boolean, timeoutMs?: number): Promise<Json>;
  /** closes the proxy's stdin, as a host that quits does */
  end(): void;
  /** the proxy's exit status, once it is done */
  readonly exit: Promise<number>;
  readonly records: LinkRecord[];
  stderr(): string;
}

/** Starts `runProxy` in this process over in-memory streams, with `upstream` as the real server. */
export function startRawHost(gate: Gate, upstream: ProxyUpstream, mode: 'enforce' | 'observe' = 'enforce'): RawHost {
  const toProxy = new PassThrough();
  const fromProxy = new PassThrough();
  const errors = new PassThrough();
  let stderrText = '';
  errors.on('data', (c: Buffer) => {
    stderrText += c.toString();
  });
  const lines: string[] = [];
  const messages: Json[] = [];
  const waiters: Array<{ match: (m: Json) => boolean; resolve: (m: Json) => void }> = [];
  let buffered = '';
  // decoded as a stream: a character split across two chunks stays whole
  fromProxy.setEncoding('utf8');
  fromProxy.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      lines.push(line);
      const message = JSON.parse(line) as Json;
      messages.push(message);
      for (const w of [...waiters])
        if (w.match(message)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(message);
        }
    }
  });
  const records: LinkRecord[] = [];
  const exit = runProxy({
    gate,
    server: 'hostile',
    mode,
    sink: callbackSink(finishedInto(records)),
    upstream,
    stdin: toProxy,
    stdout: fromProxy,
    stderr: errors,
    env: process.env,
    cwd: repoRoot,
  });
  let nextId = 1000;
  // a ceiling for a hung proxy only: a loaded 2-core machine took more than 20 s for one answer of proxy-observe
  const waitFor = (match: (m: Json) => boolean, timeoutMs = 60_000) => {
    const seen = messages.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise<Json>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching message within ${timeoutMs} ms`)), timeoutMs);
      waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  };
  const host: RawHost = {
    send: (message) => toProxy.write(`${JSON.stringify(message)}\n`),
    sendLine: (text) => toProxy.write(`${text}\n`),
    request(method, params) {
      const id = nextId++;
      host.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
      return waitFor((m) => m['id'] === id && m['method'] === undefined);
    },
    lines,
    waitFor,
    end: () => toProxy.end(),
    exit,
    records,
    stderr: () => stderrText,
  };
  return host;
}

/** The initialize handshake a host sends first. */
export async function initialize(host: RawHost): Promise<Json> {
  const answer = await host.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw-host', version: '1.0.0' },
  });
  host.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return answer;
}

/** A raw host, past its handshake, before the echo-wire server under the default policy; the server appends every line it reads to `logFile`. */
export async function startEchoHost(logFile: string): Promise<RawHost> {
  process.env['ECHO_LOG'] = logFile;
  const [command, ...args] = tsServer('test/fixtures/servers/echo-wire-server.ts');
  const host = startRawHost(createGate(await loadPolicy(shippedPolicy('default'))), {
    kind: 'command',
    command: command as string,
    args,
  });
  delete process.env['ECHO_LOG'];
  await initialize(host);
  return host;
}

/**
 * The line the proxy hands `host` for request `id`, when the echo server answers `method` with `answer(id)` as written:
 * the request goes out first, then the server is told to write the answer.
 */
export async function echoExchange(
  host: RawHost,
  id: number,
  method: string,
  params: Json,
  answer: (id: number) => string,
): Promise<string> {
  host.send({ jsonrpc: '2.0', id, method, params });
  host.send({ jsonrpc: '2.0', method: 'test/emit', params: { lines: [answer(id)] } });
  await host.waitFor((m) => m['id'] === id, 30_000);
  return host.lines.find((l) => (JSON.parse(l) as Json)['id'] === id) as string;
}

/** An echo host for the tests of one `describe`: started before them (its log in a fresh `prefix` folder), ended after. */
export interface EchoSession {
  /** the host, once started */
  readonly host: RawHost;
  /** the id of the last `exchange` */
  readonly lastId: number;
  /** the line the proxy hands the host when the echo server answers `method` with `answer(id)` as written */
  readonly exchange: (method: string, params: Json, answer: (id: number) => string) => Promise<string>;
}

/** Starts an echo host before the tests of the calling `describe` and ends it after them; ids count from `firstId`. */
export function useEchoHost(prefix: string, firstId: number): EchoSession {
  let host: RawHost | undefined;
  let nextId = firstId;
  beforeAll(async () => {
    host = await startEchoHost(path.join(await mkdtemp(path.join(tmpdir(), prefix)), 'lines.jsonl'));
  }, 30_000);
  afterAll(async () => {
    host?.end();
    await host?.exit;
  });
  const started = (): RawHost => {
    if (host === undefined) throw new Error('the echo host is not started');
    return host;
  };
  return {
    get host() {
      return started();
    },
    get lastId() {
      return nextId - 1;
    },
    exchange: (method, params, answer) => echoExchange(started(), nextId++, method, params, answer),
  };
}
