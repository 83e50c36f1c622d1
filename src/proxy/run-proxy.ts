import type { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { quoteValue } from '../decision/quote-value.ts';
import { GateError } from '../errors.ts';
import type { Gate } from '../gate/create-gate.ts';
import { maskUri } from '../link/mask-uri.ts';
import { describeReasons } from '../record/judge-verdict.ts';
import type { OnRecordError } from '../record/record-error.ts';
import type { RecordSink } from '../record/record-sink.ts';
import { connectionByteCap } from '../sdk/connection-byte-cap.ts';
import { gateError } from '../sdk/gate-answers.ts';
import { httpUpstream } from './http-upstream.ts';
import { lineTransport, unreadableMessageCode, type UnreadableLine } from './line-transport.ts';
import type { AmbiguousName } from '../flow/member-names.ts';
import type { ProxyUpstream } from './proxy-options.ts';
import { invalidRequestCode, proxySession, type ProxySession } from './proxy-session.ts';
import { spawnServer, type ServerProcess } from './spawn-server.ts';

/** Signals the proxy passes on to the server it started. */
export const forwardedSignals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/** Everything one proxy run needs: the gate, where the server is, and the proxy's own streams. */
export interface RunProxyOptions {
  gate: Gate;
  server: string;
  mode: 'enforce' | 'observe';
  /** enforce mode, when a record cannot be written: `withhold` (default) or `report` */
  onRecordError?: OnRecordError;
  sink?: RecordSink;
  upstream: ProxyUpstream;
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** where SIGINT/SIGTERM arrive (the process); omitted, no signal is forwarded */
  signals?: EventEmitter;
}

/**
 * Runs `linkgate proxy` (DESIGN §4e) until either side closes; resolves with the server's exit status (0 for a
 * remote server). Throws GateError `USAGE` when the server cannot be started or the `--url` is not allowed.
 */
export async function runProxy(options: RunProxyOptions): Promise<number> {
  const { gate, server } = options;
  const cap = connectionByteCap(gate.policy);
  const warn = (message: string) => options.stderr.write(`linkgate proxy: ${message}\n`);
  let session: ProxySession | null = null;

  const fromServerUnreadable = (line: UnreadableLine) => {
    const what =
      line.why === 'over-cap'
        ? `the server's answer is over the \`${cap}\` byte cap`
        : line.why === 'ambiguous'
          ? ambiguityText(line.ambiguity ?? null)
          : 'the server sent a message that is not valid json-rpc';
    // the server's own request is answered, so it does not wait for ever
    if (line.request !== undefined) {
      void upstream.send(gateError(line.request, `linkgate withheld the request: ${what}`) as never).catch(() => {});
      warn(`answered the server's request ${quoteValue(String(line.request))} with an error: ${what}`);
    } else if (line.id === null || session?.failUpstream(line.id, `linkgate: ${what}`) !== true)
      warn(`dropped a line: ${what}`);
  };
  let child: ServerProcess | null = null;
  let upstream: Transport;
  if (options.upstream.kind === 'command') {
    child = await spawnServer({
      command: options.upstream.command,
      args: options.upstream.args,
      env: options.env,
      cwd: options.cwd,
      stderr: options.stderr,
      maxLineBytes: cap,
      onUnreadable: fromServerUnreadable,
      // observe mode forwards everything as it came
      refuseAmbiguous: options.mode === 'enforce',
    });
    upstream = child.transport;
  } else {
    const url = await allowedUrl(gate, server, options.upstream.url);
    upstream = httpUpstream(url, options.upstream.headers, cap, (ids, why) => {
      for (const id of ids) session?.failUpstream(id, `linkgate: ${why}`);
    });
  }

  const host = lineTransport({
    input: options.stdin,
    output: options.stdout,
    maxLineBytes: cap,
    onUnreadable(line) {
      const over = line.why === 'over-cap';
      const message = over
        ? `linkgate: message over the \`${cap}\` byte cap`
        : 'linkgate: message is not valid json-rpc';
      session?.refuseHost(
        line.id,
        over || line.why === 'not-a-message' ? invalidRequestCode : unreadableMessageCode,
        message,
      );
    },
  });
  session = proxySession(host, upstream, {
    gate,
    server,
    mode: options.mode,
    ...(options.onRecordError === undefined ? {} : { onRecordError: options.onRecordError }),
    ...(options.sink === undefined ? {} : { sink: options.sink }),
    warn,
  });
  const running = session;
  const onSignal = (signal: NodeJS.Signals) => {
    if (child !== null) child.signal(signal);
    else void upstream.close();
  };
  for (const signal of forwardedSignals) options.signals?.on(signal, onSignal);
  try {
    await running.start();
    await running.closed;
    return child === null ? 0 : await child.exited;
  } finally {
    for (const signal of forwardedSignals) options.signals?.off(signal, onSignal);
  }
}

// why a line readers differ on was withheld; the name is the server's text, shown escaped and cut
function ambiguityText(ambiguity: AmbiguousName | null): string {
  const also = 'readers of its bytes differ on which value counts, so it is withheld';
  if (ambiguity === null) return `the server's message could not be read member by member: ${also}`;
  const name = `\`${printable(ambiguity.name)}\``;
  return ambiguity.kind === 'duplicate'
    ? `the server's message names the member ${name} twice in one object: ${also}`
    : `the server's message names a member ${name}, which a case-insensitive reader takes for \`${ambiguity.reads}\`: ${also}`;
}

// printable ASCII but backticks and backslashes kept, any other UTF-16 unit written as `\\uXXXX`; at most 40 shown
function printable(name: string): string {
  let out = '';
  for (let i = 0; i < Math.min(name.length, 40); i += 1) {
    const c = name.charCodeAt(i);
    out += c >= 32 && c < 127 && c !== 96 && c !== 92 ? name[i] : `\\u${c.toString(16).padStart(4, '0')}`;
  }
  return name.length > 40 ? `${out}…` : out;
}

async function allowedUrl(gate: Gate, server: string, url: string): Promise<URL> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new GateError('USAGE', `option \`--url\` is not a url: \`${maskUri(url)}\``);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new GateError('USAGE', `option \`--url\` must be http or https, not \`${parsed.protocol}\``);
  // the server's address is a link like any other: the policy's address, scheme and userinfo rules apply to it
  const decision = await gate.decide({
    stage: 'link',
    server,
    readFrom: server,
    link: { type: 'resource_link', uri: url, name: 'upstream' },
  });
  if (decision.effect === 'deny')
    throw new GateError(
      'USAGE',
      `option \`--url\` \`${maskUri(url)}\` is denied by the policy: ${describeReasons(decision)}`,
    );
  return parsed;
}
