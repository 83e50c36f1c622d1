// What the failure suites share: the set-up `linkgate hook HOST --print-config` prints (with `--server`: the proxy in
// front of the fixture server and the hooks as a second layer; without: the hooks alone) with every hook command
// replaced by one that cannot start, crashes, hangs past the host's timeout or answers garbage. Each failing command
// first appends the event it was run for to a log, so a test sees that the host did run it, before the read and after.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import type { McpServerConfig } from './claude-code.ts';
import { fixtureServer, serverReads, tsServerCommand } from './fixture-process.ts';
import { fixtureNamed } from './fixture-resources.ts';
import type { HostRunResult } from './host-run.ts';
import type { ScriptStep } from './model-api.ts';
import type { HostSuite } from './host-suite.ts';

/** How a hook fails: its command replaced (the printed command is given, for the one that cannot start). */
export const hookFailures = {
  // the printed command with its entry file missing: node exits 1 before reading its input
  'cannot start': (command: string) => `exec ${command.replace(/^node \S+/, 'node /nonexistent/linkgate.js')}`,
  crashes: () => 'cat >/dev/null; echo "linkgate crashed" >&2; exit 1',
  // never answers and never exits by itself: the host's own timeout ends it
  hangs: () => 'exec sleep 600',
  'answers garbage': () => 'cat >/dev/null; echo "{not json"',
} as const;

/** A way a hook fails, by name. */
export type HookFailure = keyof typeof hookFailures;

/** Every way a hook fails. */
export const failureModes = Object.keys(hookFailures) as HookFailure[];

/** The control beside the failures: the printed command, run as printed. */
export const runsAsPrinted = 'runs as printed';

/** A hooks-alone run: the control or a failure. */
export type AloneRun = HookFailure | typeof runsAsPrinted;

/** The hooks-alone runs of a host: the control, then every failure. */
export const aloneRuns: AloneRun[] = [runsAsPrinted, ...failureModes];

type Handler = { command: string; timeout: number; onFailure?: string };

/** A printed set-up whose hooks fail, and the files that say what happened. */
export interface FailingSetUp {
  /** the printed hooks, each command failing: `{hooks: {EVENT: [...]}}` */
  hooks: { hooks: Record<string, { matcher: string; hooks: Handler[] }[]> };
  /** the fixture server's entry: the printed proxy in front of it, or the server itself for the hooks alone */
  fixture: McpServerConfig;
  /** the fixture server's request log */
  requestLog: string;
  /** the `--records` file of the printed commands */
  recordsFile: string;
  /** one line per failing hook run: the event it was configured for */
  hookLog: string;
}

/**
 * `linkgate hook HOST --print-config` (with `--server fixture -- <fixture server>` when `proxy`) with every hook command
 * replaced as `failure` says and each timeout set to `timeout` (the host's unit), files under `logs`; `runsAsPrinted`
 * keeps the printed commands and timeouts (a control: the same measure on working hooks).
 */
export async function failingPrintedSetUp(
  host: string,
  failure: AloneRun,
  options: { timeout: number; logs: string; proxy: boolean },
): Promise<FailingSetUp> {
  const requestLog = path.join(options.logs, 'requests.jsonl');
  const recordsFile = path.join(options.logs, 'records.jsonl');
  const hookLog = path.join(options.logs, 'hook-runs.log');
  const args = ['hook', host, '--print-config', '--records', recordsFile];
  const printed = await runCli(options.proxy ? [...args, '--server', 'fixture', '--', ...tsServerCommand()] : args);
  expect(printed.code, printed.stderr).toBe(0);
  const config = JSON.parse(printed.stdout) as Record<string, unknown> & FailingSetUp['hooks'];
  for (const [event, entries] of Object.entries(config.hooks))
    for (const entry of entries)
      for (const handler of entry.hooks) {
        const command = failure === runsAsPrinted ? handler.command : hookFailures[failure](handler.command);
        handler.command = `echo ${event} >> '${hookLog}'; ${command}`;
        if (failure !== runsAsPrinted) handler.timeout = options.timeout;
      }
  const hooks = { hooks: config.hooks };
  if (!options.proxy) return { hooks, fixture: fixtureServer(requestLog), requestLog, recordsFile, hookLog };
  const servers = (config['mcpServers'] ?? config['mcp_servers']) as Record<
    string,
    { command: string; args: string[] }
  >;
  const proxy = servers['fixture'];
  if (proxy === undefined) throw new Error('no proxy entry printed');
  const fixture = { command: proxy.command, args: proxy.args, env: { LINKGATE_REQUEST_LOG: requestLog } };
  return { hooks, fixture, requestLog, recordsFile, hookLog };
}

/** The events whose failing hook the host ran, in order. */
export async function failedHookRuns(setUp: FailingSetUp): Promise<string[]> {
  const text = await readFile(setUp.hookLog, 'utf8').catch(() => '');
  return text.split('\n').filter((l) => l !== '');
}

/** What the hooks alone let happen when they fail: docs/hosts.md's cells, as measured. */
export interface HooksAloneOutcome {
  /** a read of the refused metadata link: did the server get it */
  beforeRead: 'blocked' | 'goes ahead';
  /** the tool result holding the refused link (and the metadata body, when it was read): did it reach the model */
  afterTool: 'as it came' | 'withheld' | 'partly withheld';
}

/**
 * Measures one hooks-alone run of the script `links tool, read of the metadata link`: `linksResult` is the text of
 * what the model received for the links tool, `delivered` everything the model was sent.
 */
export async function hooksAloneOutcome(
  setUp: FailingSetUp,
  linksResult: string,
  delivered: string,
): Promise<HooksAloneOutcome> {
  const { metadata } = fixtureNamed;
  const read = (await serverReads(setUp.requestLog)).includes(metadata.uri);
  const passed = [linksResult.includes(metadata.uri), ...(read ? [delivered.includes(metadata.marker)] : [])];
  const afterTool = passed.every(Boolean) ? 'as it came' : passed.some(Boolean) ? 'partly withheld' : 'withheld';
  return { beforeRead: read ? 'goes ahead' : 'blocked', afterTool };
}

/** The hard limit of one failure run, milliseconds: a hung hook costs the host's timeout at every event. */
export const runTimeoutMs = 240_000;

/** docs/hosts.md's row of a host whose hooks alone fail open before the read and after the tool, however they fail. */
export const failsOpenRow: Readonly<Record<AloneRun, HooksAloneOutcome>> = {
  // the control: the same measure tells working hooks apart
  [runsAsPrinted]: { beforeRead: 'blocked', afterTool: 'withheld' },
  'cannot start': { beforeRead: 'goes ahead', afterTool: 'as it came' },
  crashes: { beforeRead: 'goes ahead', afterTool: 'as it came' },
  hangs: { beforeRead: 'goes ahead', afterTool: 'as it came' },
  'answers garbage': { beforeRead: 'goes ahead', afterTool: 'as it came' },
};

/** The options of a hooks-alone run every host's runner takes alike. */
export interface CommonRunOptions {
  mcpServers: Record<string, McpServerConfig>;
  prompt: string;
  script: ScriptStep[];
  timeoutMs: number;
}

/** What a host's hooks-alone suite needs besides the shared measure: how to run the host, and its docs/hosts.md row. */
export interface HooksAloneHost {
  /** the host as `linkgate hook HOST` names it */
  host: string;
  /** the host as a person names it, for the suite's title and log lines */
  label: string;
  /** the hook timeout of the runs, in the host's own unit: a hung hook is ended by the host after it */
  hookTimeout: number;
  /** the host's events before a tool and after it, as the failing hooks log them */
  events: readonly [before: string, after: string];
  /** docs/hosts.md's row for the host: what the hooks alone let through, per failure, and for the control */
  row: Readonly<Record<AloneRun, HooksAloneOutcome>>;
  /** the fixture's links tool as the host offers it to the model, and the call id the script gives it */
  links: { id: string; name: string };
  /** the script's step reading the metadata link with the host's read tool */
  readMetadata: ScriptStep;
  /**
   * runs the host with `setUp`'s hooks (its settings or hooks file) and `common` (the fixture entry, prompt, script and
   * time limit every host takes alike): the run, and the text of what the model received for the links tool
   */
  run(setUp: FailingSetUp, common: CommonRunOptions): Promise<{ run: HostRunResult<unknown>; linksResult: string }>;
}

/**
 * Registers a host's hooks-alone suite: for the control and each failure, the printed hooks (no proxy) fail as named,
 * the host runs the script `links tool, read of the metadata link, done`, and what got through must be the host's
 * docs/hosts.md row.
 */
export function hooksAloneSuite(suite: HostSuite, spec: HooksAloneHost): void {
  describe(`${spec.label} with the hooks alone, failing`, () => {
    test.for(aloneRuns)('a hook that %s: as docs/hosts.md says', { timeout: 300_000 }, async (failure, ctx) => {
      suite.require(ctx);
      const logs = await suite.scratch('linkgate-failure-alone-');
      const setUp = await failingPrintedSetUp(spec.host, failure, { timeout: spec.hookTimeout, logs, proxy: false });
      const script: ScriptStep[] = [
        { toolUses: [{ ...spec.links, input: {} }] },
        spec.readMetadata,
        { text: 'all read' },
      ];
      const prompt = 'read the metadata link of the fixture server';
      const common = { mcpServers: { fixture: setUp.fixture }, prompt, script, timeoutMs: runTimeoutMs };
      const { run, linksResult } = await spec.run(setUp, common);
      suite.defer(() => run.cleanup());
      expect(run.timedOut, run.stderr).toBe(false);
      expect(await failedHookRuns(setUp)).toEqual(expect.arrayContaining([...spec.events]));
      const everything = JSON.stringify(run.modelRequests.map((r) => r.body));
      const outcome = await hooksAloneOutcome(setUp, linksResult, everything);
      console.log(`${spec.label}, hooks alone, hook that ${failure}: ${run.elapsedMs} ms; ${JSON.stringify(outcome)}`);
      expect(outcome).toEqual(spec.row[failure]);
    });
  });
}
