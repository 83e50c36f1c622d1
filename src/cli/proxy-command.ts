import { resolve as resolvePath } from 'node:path';
import { GateError } from '../gate-error.ts';
import { createGate } from '../gate.ts';
import { loadPolicy } from '../policy/load-policy.ts';
import type { Policy } from '../policy/policy.ts';
import { parseProxyArgs, proxyUsage } from '../proxy/proxy-options.ts';
import { runProxy } from '../proxy/run-proxy.ts';
import { jsonLinesSink } from '../record/record-sink.ts';
import type { CliCommand } from './cli-io.ts';
import { reportLoadError, usageError } from './report-error.ts';

/** `linkgate proxy` (DESIGN §4e): a stdio MCP server in front of the real one, gating reads, links and embedded resources. */
export const proxyCommand: CliCommand = async (args, io) => {
  let options: ReturnType<typeof parseProxyArgs>;
  try {
    options = parseProxyArgs(args, io.env);
  } catch (error) {
    if (error instanceof GateError) return usageError(io, error.message, proxyUsage);
    throw error;
  }
  if (options === 'help') {
    io.stdout.write(`${proxyUsage}\n`);
    return 0;
  }
  let policy: Policy;
  try {
    policy = await loadPolicy(resolvePath(io.cwd, options.policy));
  } catch (error) {
    return reportLoadError(io, error);
  }
  const sink = options.records === null ? undefined : jsonLinesSink(resolvePath(io.cwd, options.records));
  try {
    return await runProxy({
      gate: createGate(policy),
      server: options.server,
      mode: options.mode,
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
  }
};
