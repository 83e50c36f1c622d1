import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join, resolve as resolvePath } from 'node:path';
import type { Readable } from 'node:stream';
import { createGate } from '../gate/create-gate.ts';
import { GateError } from '../gate-error.ts';
import { hostAdapters, isHookHost } from '../hook/hook-hosts.ts';
import { codexHooksConfig } from '../hook/codex-host.ts';
import { claudeCodeSettings, hookTimeoutSeconds, shellQuote } from '../hook/hook-settings.ts';
import { runHook } from '../hook/run-hook.ts';
import { loadPolicyCached } from '../hook/policy-cache.ts';
import { defaultStateDir } from '../hook/session-state.ts';
import { packageVersion } from '../package-version.ts';
import type { EmbeddedRecord } from '../record/embedded-record.ts';
import type { LinkRecord } from '../record/link-record.ts';
import { callbackSink, type RecordSink } from '../record/record-sink.ts';
import { displayPath } from '../review/display-path.ts';
import type { CliIo } from './cli-io.ts';
import { commandRunner, defineCommand, didYouMeanText } from './command-definition.ts';
import { cliEntry, packageRoot } from './package-root.ts';
import type { TelemetryHandle } from './start-telemetry.ts';
import { reviewLoadOptions, reviewOptions } from './review-options.ts';

/** Largest hook event read from stdin, bytes (a tool result with embedded resources can be large). */
export const maxEventBytes = 64 * 1024 * 1024;

const hosts = Object.keys(hostAdapters).join('|');

/**
 * `linkgate hook HOST` (docs/hosts.md): one host hook event on stdin, the host's answer on stdout. Every failure (bad
 * event, policy that does not load, i/o fault) exits 2 with one line on stderr: hosts let a call through on any other
 * exit code, so 2 is the only failure that keeps the gate closed.
 */
export const hookDefinition = defineCommand({
  name: 'hook',
  summary: 'judge one host hook event (claude code, codex, gemini cli, cursor): deny reads, withhold bodies',
  synopsis: `${hosts} --policy FILE [--allowed-signers FILE [--min-signers N]] [--records FILE] [--state DIR] [--otel] < event.json`,
  description: [
    "reads one hook event of the host from stdin and prints the host's answer on stdout: a denied read is blocked before it runs, a body the policy does not allow is withheld from the model. every failure exits 2, the only exit code hosts treat as a block.",
    '`linkgate hook claude-code|codex --print-config [--policy FILE] [--records FILE] [--state DIR]` prints the hooks block that runs this command (claude code settings.json, codex hooks.json).',
  ],
  options: {
    policy: {
      type: 'string',
      value: 'FILE',
      description: 'the policy file (yaml); required unless `--print-config` (which defaults to the shipped default)',
    },
    records: { type: 'string', value: 'FILE', description: 'append one json record per judged link to this file' },
    state: {
      type: 'string',
      value: 'DIR',
      description:
        'folder for per-session state and the validated policy (default: $XDG_CACHE_HOME/linkgate/hook, else ~/.cache/linkgate/hook)',
    },
    'print-config': {
      type: 'boolean',
      description:
        'print the hooks configuration for this command (claude code settings.json, codex hooks.json) and exit',
    },
    otel: { type: 'boolean', description: 'send spans and metrics through the optional @opentelemetry/sdk-node peer' },
    ...reviewOptions,
  },
  positionals: [
    { name: 'HOST', description: `the host whose event format is on stdin: ${Object.keys(hostAdapters).join(', ')}` },
  ],
  example: 'linkgate hook claude-code --print-config --policy policies/default.yaml',
  exitCodes: {
    0: "the host's answer is on stdout (an allow or a block)",
    2: 'usage error, bad event, or a policy or i/o fault: the host blocks the call',
  },
  run: async ({ values, positionals, usageError }, io) => {
    const [host, extra] = positionals;
    if (host === undefined) return usageError(`missing host: one of ${hosts}`);
    if (!isHookHost(host))
      return usageError(`unknown host \`${host}\`: one of ${hosts}${didYouMeanText(host, Object.keys(hostAdapters))}`);
    if (extra !== undefined) return usageError(`unexpected argument \`${extra}\``);
    const review = reviewLoadOptions(values, io);
    if (typeof review === 'string') return usageError(review);

    if (values['print-config'] === true) {
      if (host !== 'claude-code' && host !== 'codex')
        return usageError('`--print-config` is for `claude-code` and `codex`');
      const policy = resolvePath(io.cwd, values.policy ?? join(packageRoot(), 'policies', 'default.yaml'));
      const command = ['node', cliEntry(), 'hook', host, '--policy', policy];
      if (values.records !== undefined) command.push('--records', resolvePath(io.cwd, values.records));
      if (values.state !== undefined) command.push('--state', resolvePath(io.cwd, values.state));
      if (review.allowedSigners !== undefined)
        command.push('--allowed-signers', review.allowedSigners, '--min-signers', String(review.minSigners ?? 1));
      const line = command.map(shellQuote).join(' ');
      const config = host === 'codex' ? codexHooksConfig(line, hookTimeoutSeconds) : claudeCodeSettings(line);
      io.stdout.write(`${JSON.stringify(config, null, 2)}\n`);
      return 0;
    }
    if (values.policy === undefined) return usageError('missing `--policy FILE`');

    let telemetry: TelemetryHandle | undefined;
    try {
      const records = values.records === undefined ? undefined : resolvePath(io.cwd, values.records);
      // one write per record with O_APPEND: lines from hook processes running at once never interleave
      const append = async (record: LinkRecord | EmbeddedRecord) => {
        if (records !== undefined) await appendFile(records, `${JSON.stringify(record)}\n`, { mode: 0o600 });
      };
      let sink: RecordSink = callbackSink(append, append);
      // loaded only for --otel: without a provider the spans are no-ops, and one event is one process start
      if (values.otel === true) {
        telemetry = await (await import('./start-telemetry.ts')).startTelemetry({ stdoutReserved: true });
        sink = (await import('../record/link-telemetry.ts')).telemetrySink(sink);
      }
      const stateDir = values.state === undefined ? defaultStateDir(io.env) : resolvePath(io.cwd, values.state);
      // one event is one process start: a policy that did not change is read validated from the state folder
      const policy = await loadPolicyCached(resolvePath(io.cwd, values.policy), displayPath(io.cwd, values.policy), {
        dir: stateDir,
        buildKey: policyBuildKey(),
        review,
      });
      const answer = await runHook(hostAdapters[host], await readEvent(io.stdin), {
        gate: createGate(policy),
        stateDir,
        record: (record) => sink.write(record),
        recordEmbedded: async (record) => sink.writeEmbedded?.(record),
      });
      if (answer !== '') io.stdout.write(`${answer}\n`);
      return 0;
    } catch (error) {
      return failClosed(io, error);
    } finally {
      // a failing exporter never changes the answer already given
      await telemetry?.shutdown().catch(() => undefined);
    }
  },
});

/** `linkgate hook` as a runnable command. */
export const hookCommand = commandRunner(hookDefinition);

/**
 * What a validated policy depends on besides its bytes: linkgate's version and the digest of its policy schema;
 * undefined when the package's schema file cannot be read (a bundle copied out of its package), and then the hook
 * loads the policy in full at every event.
 */
export function policyBuildKey(): string | undefined {
  try {
    const schema = readFileSync(join(packageRoot(), 'schemas', 'policy.schema.json'));
    return `${packageVersion()} ${createHash('sha256').update(schema).digest('hex')}`;
  } catch {
    return undefined;
  }
}

async function readEvent(stdin: Readable): Promise<string> {
  const parts: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    bytes += buffer.length;
    if (bytes > maxEventBytes) throw new GateError('INPUT_INVALID', `the hook event is over ${maxEventBytes} bytes`);
    parts.push(buffer);
  }
  return Buffer.concat(parts).toString('utf8');
}

// one line: the first diagnostic of a policy error (file:line:col), else the message
function failClosed(io: CliIo, error: unknown): number {
  let line: string;
  if (error instanceof GateError && error.diagnostics.length > 0) {
    const d = error.diagnostics[0];
    line = d === undefined ? error.message : `${d.file}:${d.line}:${d.col}: ${d.message}`;
  } else line = error instanceof Error ? error.message : String(error);
  io.stderr.write(`linkgate hook: ${line.replace(/\s+/g, ' ').trim()}\n`);
  return 2;
}
