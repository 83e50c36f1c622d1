import { bundleOption, policyChoiceProblem } from './bundle-option.ts';
import { resolve as resolvePath } from 'node:path';
import { createGate } from '../gate/create-gate.ts';
import { hookBlindSpotLine } from '../hook/host-blind-spots.ts';
import { hostAdapters, isHookHost } from '../hook/hook-hosts.ts';
import { EventBudget } from '../hook/event-budget.ts';
import type { HostAdapter } from '../hook/host-adapter.ts';
import { hostDescriptions, hostNames } from '../hosts/hosts.ts';
import { failedPostAnswer, runHook } from '../hook/run-hook.ts';
import { judgeInChild, judgesInChild } from '../hook/judge-in-child.ts';
import { loadPolicyCached, policyBuildKey, policyCacheDir } from '../policy/policy-cache.ts';
import { appendRecordsFile, checkRecordsFile } from '../hook/records-file.ts';
import { defaultStateDir, stateCacheRoot } from '../hook/session-state.ts';
import { readyStateFolder } from '../hook/state-folder.ts';
import type { EmbeddedRecord } from '../record/embedded-record.ts';
import type { LinkRecord } from '../record/link-record.ts';
import { callbackSink, type RecordSink } from '../record/record-sink.ts';
import { recordErrorWithholds, recordWithheldError } from '../record/record-error.ts';
import { displayPath } from '../review/display-path.ts';
import { commandRunner, defineCommand, didYouMeanText } from './command-definition.ts';
import { hookDeadline, hookDeadlineMs } from './hook-deadline.ts';
import { arrivedMembers, type EventReading, failureReadMs, readEvent, readWithin } from './hook-event-input.ts';
import { failClosed, failureLine } from './hook-failure.ts';
import { printHookConfig } from './hook-print-config.ts';
import type { TelemetryHandle } from './start-telemetry.ts';
import { reviewLoadOptions, reviewOptions } from './review-options.ts';

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
        'folder for per-session state (default: $XDG_CACHE_HOME/linkgate/hook, else ~/.cache/linkgate/hook); made mode 0700, it must be yours, writable by no group or other, and reached through no symlink you could have made (the hook fails closed otherwise)',
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
    if (values['print-config'] === true) return printHookConfig(host, values, rest, review, io);
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
      // refused when an agent could have put it where it chose (a symlink) or others can write it: nothing is written
      // through it, the policy cache included
      // (the default folder's cache root is the user's own set-up: a symlink there is followed)
      const stateDir =
        values.state === undefined
          ? await readyStateFolder(defaultStateDir(io.env), undefined, stateCacheRoot(io.env))
          : await readyStateFolder(resolvePath(io.cwd, values.state));
      const { policy: policyFile = '', bundle } = values;
      const answer = await deadline.race(async () => {
        // one event is one process start: a policy that did not change is read validated from the cache next to the
        // installed bundle (issue 42 item 1), as eval's is; never from the state folder, which the gated agent may write
        // while the policy and the code are out of its reach (round 9 'forged policy cache': an entry rewritten there
        // switched denyNonPublicAddresses off). With a review check, a verified outcome as eval keeps it: keyed by the
        // policy's, the .sig's and the allowed-signers file's bytes read at this event, its time facts (review.expires,
        // valid-after/valid-before) checked now (src/policy/reviewed-policy-cache.ts). From source, no cache: the full
        // load at every event
        const cached = (file: string, shownAs: string) =>
          loadPolicyCached(file, shownAs, {
            dir: policyCacheDir(),
            buildKey: policyBuildKey(),
            review,
            cacheReviewed: true,
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
      // step (the one that held the child, perhaps); the files the host saved for it are found in its text unparsed
      const unparsed = child.judging ? eventText : undefined;
      if (child.judging && oversize.members === undefined) oversize.members = arrivedMembers(reading);
      // an event too large to parse is answered from its small members (the tool's output is not among them)
      if (oversize.members !== undefined) eventText = JSON.stringify(oversize.members);
      if (eventText === undefined) return code;
      const answer = await failedPostAnswer(hostAdapters[host], eventText, failureLine(error), unparsed);
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

/** `linkgate hook` as a runnable command. */
export const hookCommand = commandRunner(hookDefinition);

export { policyBuildKey } from '../policy/policy-cache.ts';
export { hookDeadlineMs } from './hook-deadline.ts';
export { maxEventBytes } from './hook-event-input.ts';
