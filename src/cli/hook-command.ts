import { bundleOption, policyChoiceProblem } from './bundle-option.ts';
import { join, resolve as resolvePath } from 'node:path';
import type { Readable } from 'node:stream';
import { createGate } from '../gate/create-gate.ts';
import { GateError } from '../errors.ts';
import { hookBlindSpotLine } from '../hook/host-blind-spots.ts';
import { hostAdapters, isHookHost } from '../hook/hook-hosts.ts';
import { EventBudget, eventJsonCaps, pastEventJsonCaps } from '../hook/event-budget.ts';
import { JsonScan } from '../flow/json-scan.ts';
import { EventSkeleton } from '../hook/event-skeleton.ts';
import { hookSettings, hookTimeoutSeconds, shellQuote } from '../hook/hook-settings.ts';
import type { HostAdapter } from '../hook/host-adapter.ts';
import type { HostDescription } from '../hosts/host-description.ts';
import { hostDescriptions, hostNames } from '../hosts/hosts.ts';
import { failedPostAnswer, runHook } from '../hook/run-hook.ts';
import { judgeInChild, judgesInChild } from '../hook/judge-in-child.ts';
import { loadPolicyCached, policyBuildKey, policyCacheDir } from '../policy/policy-cache.ts';
import { appendRecordsFile, checkRecordsFile } from '../hook/records-file.ts';
import { defaultStateDir } from '../hook/session-state.ts';
import type { EmbeddedRecord } from '../record/embedded-record.ts';
import type { LinkRecord } from '../record/link-record.ts';
import { callbackSink, type RecordSink } from '../record/record-sink.ts';
import { recordErrorWithholds, recordWithheldError } from '../record/record-error.ts';
import { recordsPathError, recordsPathProblem } from '../record/records-file.ts';
import { namedRecordsPath } from '../record/records-folder.ts';
import { displayPath } from '../review/display-path.ts';
import type { CliIo } from './cli-io.ts';
import { commandRunner, defineCommand, didYouMeanText } from './command-definition.ts';
import { cliEntry, packageRoot, perEventEntry } from './package-root.ts';
import type { TelemetryHandle } from './start-telemetry.ts';
import { reviewLoadOptions, reviewOptions, warnReplaceable } from './review-options.ts';

/** Largest hook event read from stdin, bytes (a tool result with embedded resources can be large). */
export const maxEventBytes = 64 * 1024 * 1024;

const hosts = Object.keys(hostAdapters).join('|');

/**
 * `linkgate hook HOST` (docs/hooks.md): one host hook event on stdin, the host's answer on stdout. A failure (bad event,
 * policy that does not load, i/o fault) after the tool ran is answered with its whole result withheld (exit 2 does not
 * withhold a result in Claude Code); any other failure exits 2 with one line on stderr, which blocks the call.
 */
export const hookDefinition = defineCommand({
  name: 'hook',
  summary: `judge one host hook event (${hostNames.map((n) => hostDescriptions[n].label).join(', ')}): deny reads, withhold bodies`,
  synopsis: `${hosts} (--policy FILE | --bundle DIR) [--allowed-signers FILE [--min-signers N]] [--records FILE] [--state DIR] [--mode enforce|observe] [--on-record-error withhold|report] [--otel] < event.json`,
  description: [
    "reads one hook event of the host from stdin and prints the host's answer on stdout: a denied read is blocked before it runs, a body the policy does not allow is withheld from the model.",
    'failing closed: a failure after the tool ran (bad event, policy that does not load, i/o fault) answers with the whole result withheld and the failure as the reason, and deletes the files the host saved for it; any other failure exits 2, the exit code hosts treat as a block.',
    'windsurf reads no answer on stdout: a refused call exits 2 with the reason on stderr, which blocks it and is shown to the agent.',
    '`--mode observe` answers nothing and records what enforcing would have done (`wouldDeny`).',
    '`linkgate hook HOST --print-config [--policy FILE] [--allowed-signers FILE] [--records FILE] [--state DIR] [--mode MODE]` checks that the policy loads (and, with `--allowed-signers`, that its review verifies: exit 2 and the reason otherwise) and prints the host\'s hooks configuration (claude code and gemini cli settings.json, codex, cursor and windsurf hooks.json) running this command from the installed bundle; claude code entries carry `onFailure: "block"` and cursor\'s `failClosed: true`, so a hook that cannot start, crashes or hangs refuses the call. codex and gemini cli let a call through when a hook fails, and no host withholds a result when its post hook cannot run: `--server NAME -- COMMAND [ARG…]` also prints the `linkgate proxy` entry that fronts the server (the proxy as the front end, the hooks as a second layer); without it a warning says so.',
  ],
  options: {
    policy: {
      type: 'string',
      value: 'FILE',
      description:
        'the policy file (yaml); required unless `--bundle` or `--print-config` (which defaults to the shipped default)',
    },
    ...bundleOption,
    records: {
      type: 'string',
      value: 'FILE',
      description:
        'append one json record per judged link to this file, which must be a regular file (a fifo, socket or device fails every event closed)',
    },
    server: {
      type: 'string',
      value: 'NAME',
      description:
        'with `--print-config`: also print the `linkgate proxy` entry that fronts server NAME, started by the command after `--` (the proxy as the front end, the hooks as a second layer)',
    },
    state: {
      type: 'string',
      value: 'DIR',
      description:
        'folder for per-session state and the validated policy (default: $XDG_CACHE_HOME/linkgate/hook, else ~/.cache/linkgate/hook)',
    },
    mode: {
      type: 'string',
      value: 'MODE',
      choices: ['enforce', 'observe'],
      default: 'enforce',
      description: 'enforce (block and withhold what the policy denies) or observe (answer nothing, record only)',
    },
    'on-record-error': {
      type: 'string',
      value: 'WHAT',
      choices: ['withhold', 'report'],
      default: 'withhold',
      description:
        'enforce mode, when a record cannot be written: withhold (deny the read, withhold the result) or report it on stderr and answer as judged',
    },
    'print-config': {
      type: 'boolean',
      description: "print the host's hooks configuration for this command (after checking the policy loads) and exit",
    },
    otel: { type: 'boolean', description: 'send spans and metrics through the optional @opentelemetry/sdk-node peer' },
    ...reviewOptions,
  },
  positionals: [
    { name: 'HOST', description: `the host whose event format is on stdin: ${Object.keys(hostAdapters).join(', ')}` },
  ],
  afterDashes: {
    name: 'COMMAND [ARG…]',
    description: 'with `--print-config --server NAME`: the command line that starts the server the proxy fronts',
  },
  example: 'linkgate hook codex --print-config --policy policies/default.yaml --server docs -- npx -y docs-server',
  exitCodes: {
    0: "the host's answer is on stdout (an allow, a block, or a result withheld because the hook failed after the tool ran)",
    2: 'usage error, a policy that does not load for --print-config, a failure before the tool ran (or where no answer can be written), or a refused call for windsurf (the reason on stderr): the host blocks the call',
  },
  run: async ({ values, positionals, rest, usageError }, io) => {
    const [host, extra] = positionals;
    if (host === undefined) return usageError(`missing host: one of ${hosts}`);
    if (!isHookHost(host))
      return usageError(`unknown host \`${host}\`: one of ${hosts}${didYouMeanText(host, Object.keys(hostAdapters))}`);
    if (extra !== undefined) return usageError(`unexpected argument \`${extra}\``);
    const review = reviewLoadOptions(values, io);
    if (typeof review === 'string') return usageError(review);

    const mode = values.mode === 'observe' ? 'observe' : 'enforce';
    if ((values.server !== undefined || rest.length > 0) && values['print-config'] !== true)
      return usageError('`--server` and a command after `--` are for `--print-config`');
    if ((values.server === undefined) !== (rest.length === 0))
      return usageError('`--server NAME` needs the command that starts the server after `--`, and the command a name');
    if (values['print-config'] === true) {
      const policy = resolvePath(io.cwd, values.policy ?? join(packageRoot(), 'policies', 'default.yaml'));
      let trustedPolicy = policy;
      try {
        // a policy that does not load, or does not verify against the allowed signers, would fail or deny every event
        // in the host: refuse to print it (loaded here only: an event reads the validated policy from the cache
        // without the yaml parser)
        const { loadPolicy } = await import('../policy/load-policy.ts');
        const shownAs = values.policy === undefined ? policy : displayPath(io.cwd, values.policy);
        let loaded;
        if (values.bundle === undefined) loaded = await loadPolicy(policy, { ...review, shownAs });
        else {
          const { loadBundlePolicy } = await import('../bundle/bundle-policy.ts');
          const bundle = await loadBundlePolicy(resolvePath(io.cwd, values.bundle), review);
          // the files whose writability matters are the active revision's
          trustedPolicy = bundle.state.policyFile;
          loaded = bundle.policy;
        }
        const check = loaded.reviewCheck;
        const blind = hookBlindSpotLine(host, loaded);
        if (blind !== null) io.stderr.write(`linkgate hook: ${blind}\n`);
        if (check !== undefined && !check.verified)
          throw new GateError('POLICY_INVALID', `policy.unreviewed: ${check.message}; every read would be denied`);
      } catch (error) {
        return failClosed(io, error);
      }
      // records the host's hook could never write would be lost (observe) or fail every event (enforce)
      // the folder the user names now, at its real path: a symlink planted on the way later is refused at each event
      const namedRecords =
        values.records === undefined ? undefined : namedRecordsPath(resolvePath(io.cwd, values.records));
      const recordsProblem = namedRecords === undefined ? null : recordsPathProblem(namedRecords);
      if (recordsProblem !== null)
        return failClosed(io, recordsPathError(displayPath(io.cwd, values.records ?? ''), recordsProblem));
      await warnReplaceable(io, trustedPolicy, review);
      const shared: string[] = [];
      if (values.bundle === undefined) shared.push('--policy', policy);
      else shared.push('--bundle', resolvePath(io.cwd, values.bundle));
      if (namedRecords !== undefined) shared.push('--records', namedRecords);
      const tail: string[] = [];
      if (review.allowedSigners !== undefined)
        tail.push('--allowed-signers', review.allowedSigners, '--min-signers', String(review.minSigners ?? 1));
      if (review.policyId !== undefined) tail.push('--policy-id', review.policyId);
      if (review.minVersion !== undefined) tail.push('--min-version', review.minVersion);
      if (review.strictFiles === true) tail.push('--strict-files');
      if (mode === 'observe') tail.push('--mode', 'observe');
      if (values['on-record-error'] === 'report') tail.push('--on-record-error', 'report');
      // the per-event start with V8's code cache, by the installed bundle's absolute path (docs/speed.md)
      const command = ['node', perEventEntry(), 'hook', host, ...shared];
      if (values.state !== undefined) command.push('--state', resolvePath(io.cwd, values.state));
      command.push(...tail);
      // the host's own hooks block, from its description (src/hosts/)
      const description = hostDescriptions[host];
      const settings = hookSettings(description, command.map(shellQuote).join(' '));
      if (values.server === undefined) io.stderr.write(`linkgate hook: ${hooksAloneLine(description)}\n`);
      else {
        // the proxy in front of the server: it sees every read and result itself, so nothing depends on a hook running
        const args = [cliEntry(), 'proxy', ...shared, '--server', values.server, ...tail, '--', ...rest];
        settings[description.setup.serversKey] = { [values.server]: { command: 'node', args } };
      }
      io.stdout.write(`${JSON.stringify(settings, null, 2)}\n`);
      return 0;
    }
    const choice = policyChoiceProblem(values);
    if (choice !== undefined) return usageError(choice);

    let telemetry: TelemetryHandle | undefined;
    let eventText: string | undefined;
    const oversize: { members?: Record<string, unknown> } = {};
    // what has arrived of the event so far: the failure path answers from it when the deadline comes mid-read
    const reading: EventReading = { parts: [], started: false, done: false };
    // set once the policy is loaded (inside the deadline's race)
    const blind: { line: string | null } = { line: null };
    const deadline = hookDeadline(io);
    // checked inside the hook's loops: work that never yields to the event loop never lets the deadline's timer fire
    const budget = new EventBudget(hookDeadlineMs);
    // a large event is judged in a child process killed at the deadline: one step that never yields cannot hold it off
    const child = { judging: false, kill: new AbortController() };
    try {
      const records = values.records === undefined ? undefined : resolvePath(io.cwd, values.records);
      // a records path that is no regular file fails the event at once (fail closed), before anything is judged
      // (with `--on-record-error report`, or in observe mode, a records failure is reported on stderr instead)
      const withholds = recordErrorWithholds(mode, values['on-record-error'] === 'report' ? 'report' : 'withhold');
      const reportOr = async (write: () => Promise<void>) => {
        try {
          await write();
        } catch (error) {
          if (withholds) throw recordWithheldError(error);
          io.stderr.write(`linkgate hook: records: ${failureLine(error)}\n`);
        }
      };
      if (records !== undefined)
        await reportOr(async () => {
          await checkRecordsFile(records);
        });
      // one write per record with O_APPEND, never blocking: lines from hook processes running at once never interleave
      const append = async (record: LinkRecord | EmbeddedRecord) => {
        if (records !== undefined) await reportOr(() => appendRecordsFile(records, `${JSON.stringify(record)}\n`));
      };
      let sink: RecordSink = callbackSink(append, append);
      // loaded only for --otel: without a provider the spans are no-ops, and one event is one process start
      if (values.otel === true) {
        telemetry = await (await import('./start-telemetry.ts')).startTelemetry({ stdoutReserved: true });
        sink = (await import('../record/link-telemetry.ts')).telemetrySink(sink);
      }
      const stateDir = values.state === undefined ? defaultStateDir(io.env) : resolvePath(io.cwd, values.state);
      const { policy: policyFile = '', bundle } = values;
      const answer = await deadline.race(async () => {
        // one event is one process start: a policy that did not change is read validated from the state folder
        const cached = (file: string, shownAs: string) =>
          loadPolicyCached(file, shownAs, {
            // next to the installed bundle unless the command line names the folder (issue 42 item 1)
            dir: values.state === undefined ? (policyCacheDir() ?? stateDir) : stateDir,
            buildKey: policyBuildKey(),
            review,
          });
        // --bundle: the active signed bundle's policy, read through the same cache (docs/fleet.md)
        const policy =
          bundle === undefined
            ? await cached(resolvePath(io.cwd, policyFile), displayPath(io.cwd, policyFile))
            : (
                await (
                  await import('../bundle/bundle-policy.ts')
                ).loadBundlePolicy(resolvePath(io.cwd, bundle), review, cached)
              ).policy;
        blind.line = hookBlindSpotLine(host, policy);
        eventText = await readEvent(io.stdin, oversize, reading);
        if (judgesInChild(eventText.length, io.stdout === process.stdout)) {
          child.judging = true;
          return judgeInChild(eventText, child.kill.signal);
        }
        return runHook(hostAdapters[host], eventText, {
          gate: createGate(policy),
          stateDir,
          host,
          mode,
          budget,
          record: (record) => sink.write(record),
          recordEmbedded: async (record) => sink.writeEmbedded?.(record),
          recordProvisional: append,
          recordDiscovered: append,
        });
      });
      // the child answered by itself: its answer, its stderr and its exit code are this process's
      if (typeof answer !== 'string') {
        io.stdout.write(answer.stdout);
        io.stderr.write(answer.stderr);
        return answer.code;
      }
      // a host that reads no answer on stdout (windsurf) blocks on exit 2 and hands the agent the reason on stderr
      const adapter: HostAdapter = hostAdapters[host];
      if (answer !== '' && adapter.answersByExit === true) return (io.stderr.write(`${answer}\n`), 2);
      if (answer !== '') io.stdout.write(`${answer}\n`);
      // what this host's hooks cannot enforce is said at every run, never silently ignored (only beside an answer: a
      // host hands the stderr of an exit 2 to the model)
      if (blind.line !== null) io.stderr.write(`linkgate hook: ${blind.line}\n`);
      return 0;
    } catch (error) {
      const code = failClosed(io, error);
      // observe mode enforces nothing, failures neither
      if (mode === 'observe') return 0;
      // a host that reads no exit code (cline) is answered in its own terms, before the tool ran or after
      const own = hostAdapters[host].failed?.(failureLine(error));
      if (own !== undefined) return (io.stdout.write(`${own}\n`), 0);
      // after the tool ran, exit 2 withholds nothing in some hosts: the answer withholds the whole result
      // the event is read once, and for a short while only when the failure came before it was: a host that stalls or
      // never closes stdin is answered from the members that arrived (its name, tool, ids), never waited for
      if (!reading.started)
        eventText = await readWithin(readEvent(io.stdin, oversize, reading), failureReadMs).catch(() => undefined);
      if (eventText === undefined && !reading.done && oversize.members === undefined)
        oversize.members = arrivedMembers(reading);
      // an event the child did not judge in time is answered from its small members: parsing it here is one more long
      // step (the one that held the child, perhaps)
      if (child.judging && oversize.members === undefined) oversize.members = arrivedMembers(reading);
      // an event too large to parse is answered from its small members (the tool's output is not among them)
      if (oversize.members !== undefined) eventText = JSON.stringify(oversize.members);
      if (eventText === undefined) return code;
      const answer = await failedPostAnswer(hostAdapters[host], eventText, failureLine(error));
      if (answer === null) return code;
      io.stdout.write(`${answer}\n`);
      return 0;
    } finally {
      child.kill.abort();
      // a read of stdin still waiting would keep the process alive past its answer
      deadline.done(reading.started && !reading.done);
      // a failing exporter never changes the answer already given
      await telemetry?.shutdown().catch(() => undefined);
    }
  },
});

/**
 * Milliseconds the hook gives one event before it answers as failed (fail closed): a third of the host's own timeout
 * (`hookTimeoutSeconds`, after which a host lets the call through), so that on a loaded machine the start of the
 * process, the read of the event and the fail-closed answer after the deadline still come well before it.
 */
export const hookDeadlineMs = (hookTimeoutSeconds * 1000) / 3;

/**
 * The hook's own deadline: `race` runs the event's work and throws when it has not finished within `hookDeadlineMs`,
 * so the answer is the fail-closed one; when the hook runs as the process itself, the process exits soon after that
 * answer even if the stuck work still holds the event loop.
 */
function hookDeadline(io: CliIo) {
  let timer: NodeJS.Timeout | undefined;
  let expired = false;
  return {
    race<T>(work: () => Promise<T>): Promise<T> {
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          expired = true;
          reject(new GateError('READ_TIMEOUT', `the hook did not answer within ${hookDeadlineMs} ms`));
        }, hookDeadlineMs);
      });
      return Promise.race([work(), late]);
    },
    /** Ends the deadline; the process exits soon after when it expired or `pending` work (a read) would keep it up. */
    done(pending = false): void {
      clearTimeout(timer);
      if ((expired || pending) && io.stdout === process.stdout) setTimeout(() => process.exit(), 200).unref();
    },
  };
}

/** What `--print-config` says on stderr when it prints the hooks alone: how the host fails with hooks only. */
function hooksAloneLine(host: HostDescription): string {
  return `${host.setup.hooksAlone}; give \`--server NAME -- COMMAND [ARG…]\` to print the proxy that fronts each server as well`;
}

/** `linkgate hook` as a runnable command. */
export const hookCommand = commandRunner(hookDefinition);

export { policyBuildKey } from '../policy/policy-cache.ts';

/** Most bytes of an oversize event scanned for its members (what is past it is not read). */
const maxScannedEventBytes = 4 * maxEventBytes;

/**
 * The event's text; over `maxEventBytes`, or holding more JSON values or deeper nesting than `eventJsonCaps` (scanned
 * as it arrives, so it is never parsed), it throws, and `oversize` holds the event's small top-level members (its name,
 * tool, input and ids, read by `EventSkeleton` from the rest of the stream) so the failure is answered in the host's
 * terms (a post event's result withheld), not by an exit code the host may not honour.
 */
async function readEvent(
  stdin: Readable,
  oversize: { members?: Record<string, unknown> } = {},
  reading: EventReading = { parts: [], started: false, done: false },
): Promise<string> {
  reading.started = true;
  const parts = reading.parts;
  let bytes = 0;
  let skeleton: EventSkeleton | undefined;
  let scan: JsonScan | undefined;
  let past: string | undefined;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    bytes += buffer.length;
    if (skeleton === undefined) {
      parts.push(buffer);
      if (scan !== undefined) scan.feed(buffer);
      else if (bytes > eventJsonCaps.scanFromBytes) {
        scan = new JsonScan();
        for (const part of parts) scan.feed(part);
      }
      past =
        bytes > maxEventBytes
          ? `is over ${maxEventBytes} bytes`
          : scan === undefined
            ? undefined
            : pastEventJsonCaps(scan);
      if (past !== undefined) {
        skeleton = new EventSkeleton();
        for (const part of parts) skeleton.feed(part);
        parts.length = 0;
        reading.skeleton = skeleton;
      }
    } else if (bytes - buffer.length < maxScannedEventBytes) skeleton.feed(buffer);
  }
  reading.done = true;
  if (skeleton !== undefined) {
    oversize.members = skeleton.members();
    throw new GateError('INPUT_INVALID', `the hook event ${past ?? ''}`);
  }
  return Buffer.concat(parts).toString('utf8');
}

/** Milliseconds the failure path waits for an event it had not started to read (the policy failed first). */
const failureReadMs = 2000;

/** `read`'s text, or undefined when it has not ended within `ms` (it goes on; what arrived stays in its reading). */
async function readWithin(read: Promise<string>, ms: number): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([read, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What has arrived of one event: its bytes until a cap is passed, then the skeleton scanning the rest. */
interface EventReading {
  readonly parts: Buffer[];
  skeleton?: EventSkeleton;
  started: boolean;
  done: boolean;
}

/** The small top-level members of the part of an event that has arrived (its name, tool, input and ids, when they came first). */
function arrivedMembers(reading: EventReading): Record<string, unknown> {
  if (reading.skeleton !== undefined) return reading.skeleton.members();
  const skeleton = new EventSkeleton();
  for (const part of reading.parts) skeleton.feed(part);
  return skeleton.members();
}

// one line: the first diagnostic of a policy error (file:line:col), else the message
function failureLine(error: unknown): string {
  let line: string;
  if (error instanceof GateError && error.diagnostics.length > 0) {
    const d = error.diagnostics[0];
    line = d === undefined ? error.message : `${d.file}:${d.line}:${d.col}: ${d.message}`;
  } else line = error instanceof Error ? error.message : String(error);
  return line.replace(/\s+/g, ' ').trim();
}

function failClosed(io: CliIo, error: unknown): number {
  io.stderr.write(`linkgate hook: ${failureLine(error)}\n`);
  return 2;
}
