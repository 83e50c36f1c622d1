// What every framework run over a gated connection starts from: a scratch folder of the suite's, the hostile server
// logging the requests it gets there, a records file with its sink, and a gate over the shipped default policy.
import path from 'node:path';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { jsonLinesSink, type RecordSink } from '../../src/record/record-sink.ts';
import type { HostSuite } from '../real-host/host-suite.ts';
import { tsServerCommand } from '../real-host/fixture-process.ts';
import { hostileServerFile } from './gated-run-checks.ts';

/** One run's set-up; `hostileServer` is the hostile server's stdio command, its requests logged to `requestLog`. */
export interface GatedRunSetup {
  requestLog: string;
  recordsFile: string;
  sink: RecordSink;
  gate: Gate;
  hostileServer: { command: string; args: string[]; env: Record<string, string> };
}

/** A fresh set-up in a scratch folder of `suite` named with `prefix` (removed after the file's tests). */
export async function gatedRunSetup(suite: Pick<HostSuite, 'scratch'>, prefix: string): Promise<GatedRunSetup> {
  const scratch = await suite.scratch(prefix);
  const requestLog = path.join(scratch, 'requests.jsonl');
  const recordsFile = path.join(scratch, 'records.jsonl');
  const sink = jsonLinesSink(recordsFile);
  const gate = createGate(await loadPolicy('policies/default.yaml'));
  const [command, ...args] = tsServerCommand(hostileServerFile) as [string, ...string[]];
  return {
    requestLog,
    recordsFile,
    sink,
    gate,
    hostileServer: { command, args, env: { LINKGATE_REQUEST_LOG: requestLog } },
  };
}
