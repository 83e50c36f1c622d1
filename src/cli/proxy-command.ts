import { resolve as resolvePath } from 'node:path';
import { GateError } from '../errors.ts';
import { createGate } from '../gate/create-gate.ts';
import type { Policy } from '../policy/policy.ts';
import { type ProxyOptions, proxyOptionsFrom } from '../proxy/proxy-options.ts';
import { runProxy } from '../proxy/run-proxy.ts';
import { jsonLinesSink, type RecordSink } from '../record/record-sink.ts';
import { commandRunner, defineCommand } from './command-definition.ts';
import { reportLoadError } from './report-error.ts';
import { startTelemetry, type TelemetryHandle } from './start-telemetry.ts';
import { bundleOption, loadCommandPolicy, policyChoiceProblem } from './bundle-option.ts';
import { reviewLoadOptions, reviewOptions } from './review-options.ts';

const initialize =
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"example","version":"1"}}}';

/** `linkgate proxy` (docs/hosts.md): a stdio MCP server in front of the real one, gating reads, links and embedded resources. */
export const proxyDefinition = defineCommand({
  name: 'proxy',
  summary: 'front a stdio or http mcp server, gating reads, links and embedded resources',
  synopsis:
    '(--policy FILE | --bundle DIR) [--allowed-signers FILE [--min-signers N]] [--server ID] [--records FILE] [--mode enforce|observe] [--on-record-error withhold|report] [--otel] (-- COMMAND [ARG…] | --url URL [--header NAME=VALUE]…)',
  description: [
    'runs as a stdio mcp server for a host and forwards to the real server (started from COMMAND, or a streamable http endpoint at `--url`): reads the policy denies are refused, links and embedded resources in tool results are judged, and every judged link can be recorded (docs/records.md).',
  ],
  options: {
    policy: { type: 'string', value: 'FILE', description: 'the policy file (yaml); required unless `--bundle`' },
    ...bundleOption,
    server: {
      type: 'string',
      value: 'ID',
      default: 'default',
      description: 'the server id the policy sees (`links.servers`, `server` and `readFrom` facts)',
    },
    records: { type: 'string', value: 'FILE', description: 'append one json record per judged link to this file' },
    mode: {
      type: 'string',
      value: 'MODE',
      default: 'enforce',
      description: 'enforce (block what the policy denies) or observe (record only)',
    },
    'on-record-error': {
      type: 'string',
      value: 'WHAT',
      choices: ['withhold', 'report'],
      default: 'withhold',
      description:
        'enforce mode, when a record cannot be written: withhold the answer it records (the host gets the failure), or report it on stderr and pass the answer on',
    },
    url: {
      type: 'string',
      value: 'URL',
      description: 'a streamable http mcp endpoint to front, instead of `-- COMMAND`',
    },
    header: {
      type: 'string',
      value: 'NAME=VALUE',
      multiple: true,
      description: 'a header for `--url` requests; `${NAME}` in the value is read from the environment',
    },
    otel: {
      type: 'boolean',
      description:
        'start the optional @opentelemetry/sdk-node peer: each link record also goes out as a span and metrics',
    },
    ...reviewOptions,
  },
  afterDashes: { name: 'COMMAND [ARG…]', description: 'the command line that starts the real server' },
  // the pause keeps stdin open until the answer is back: a host keeps the pipe open for the whole session
  example: `echo '${initialize}' | linkgate proxy --server demo --policy policies/default.yaml -- node dist/lib/demo/demo-server.js`,
  exitCodes: { 0: 'the host closed stdin and the proxy stopped', 2: 'usage error, or the policy cannot be loaded' },
  run: async ({ values, rest, usageError }, io) => {
    const choice = policyChoiceProblem(values);
    if (choice !== undefined) return usageError(choice);
    let options: ProxyOptions;
    try {
      // the proxy's options name a policy source: the bundle folder stands in for the file (loaded below)
      options = proxyOptionsFrom({ ...values, policy: values.policy ?? values.bundle }, rest, io.env);
    } catch (error) {
      if (error instanceof GateError) return usageError(error.message);
      throw error;
    }
    const review = reviewLoadOptions(values, io);
    if (typeof review === 'string') return usageError(review);
    let policy: Policy;
    try {
      // an unreviewed policy denies every read and link; everything else is still forwarded
      policy = await loadCommandPolicy(io, values, review);
    } catch (error) {
      return reportLoadError(io, error);
    }
    let sink: RecordSink | undefined;
    try {
      // a records path that cannot be written is refused now, not found out on the first record
      sink = options.records === null ? undefined : jsonLinesSink(resolvePath(io.cwd, options.records));
    } catch (error) {
      if (!(error instanceof GateError)) throw error;
      io.stderr.write(`linkgate: ${error.message}\n`);
      return 2;
    }
    let telemetry: TelemetryHandle | undefined;
    try {
      // the proxy's records already go to @opentelemetry/api; --otel starts an SDK that exports them (never to stdout)
      if (options.otel) telemetry = await startTelemetry({ stdoutReserved: true });
      return await runProxy({
        gate: createGate(policy),
        server: options.server,
        mode: options.mode,
        onRecordError: options.onRecordError,
        ...(sink === undefined ? {} : { sink }),
        upstream: options.upstream,
        stdin: io.stdin,
        stdout: io.stdout,
        stderr: io.stderr,
        env: io.env,
        cwd: io.cwd,
        signals: process,
      });
    } catch (error) {
      if (!(error instanceof GateError) || error.code !== 'USAGE') throw error;
      io.stderr.write(`linkgate: ${error.message}\n`);
      return 2;
    } finally {
      await sink?.close();
      await telemetry?.shutdown().catch(() => undefined);
    }
  },
});

/** `linkgate proxy` as a runnable command. */
export const proxyCommand = commandRunner(proxyDefinition);
