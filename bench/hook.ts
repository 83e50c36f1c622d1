// One hook event is one process start (issue 13), and so is `linkgate eval` of one line (issue 15): wall time beside
// `node -e 0`, interleaved, with min–max. The rows compare the ways to start the same code (issue 42 item 2,
// docs/speed.md): the code-cache start for hosts' command lines (`perEventEntry()`: `linkgate-cached.cjs` runs the
// event bundle compiled with V8's code cache kept next to it), the same event bundle compiled at every start (its
// cache folder writable by others, so never used), a Node start-up snapshot of the event bundle, the ES-module CLI
// bundle (`linkgate.js`, code split: a command loads its own chunks) and the tsc output (every module through the ESM
// loader). The validated policy is cached next to the bundle (or in `--state` when the command line names it), so
// every event after the first skips the YAML parser and the schema; a fresh state folder per event shows the cost
// without.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fmtMs, interleave, summary, type Series } from './measure.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

/** The figures this section adds to the verdict list: name, whether it met its target, and the figure. */
export interface HookBenchVerdict {
  name: string;
  ok: boolean;
  figure: string;
}

/** One Claude Code PreToolUse read of an allowed resource, as the host sends it to a hook. */
export const event = JSON.stringify({
  session_id: 'bench',
  transcript_path: '/tmp/bench.jsonl',
  cwd: '/tmp',
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: 'ReadMcpResourceTool',
  tool_input: { server: 'docs', uri: 'guide://manuals/packing' },
  tool_use_id: 'toolu_bench',
});
// the same read as the other hosts send it (shapes recorded from the real binaries, test/real-host/observed/)
const codexEvent = JSON.stringify({
  session_id: 'bench',
  turn_id: 'bench-turn',
  transcript_path: '/tmp/bench.jsonl',
  cwd: '/tmp',
  hook_event_name: 'PreToolUse',
  model: 'mock-model',
  permission_mode: 'bypassPermissions',
  tool_name: 'read_mcp_resource',
  tool_input: { server: 'docs', uri: 'guide://manuals/packing' },
  tool_use_id: 'call_bench',
});
const geminiEvent = JSON.stringify({
  session_id: 'bench',
  transcript_path: '/tmp/bench.jsonl',
  cwd: '/tmp',
  hook_event_name: 'BeforeTool',
  timestamp: '2026-12-03T08:04:19.338Z',
  tool_name: 'read_mcp_resource',
  tool_input: { uri: 'guide://manuals/packing' },
});
/** A Claude Code PostToolUse tool result of `content` (MCP tool `docs/links`) under tool-use id `id`. */
const toolResult = (content: unknown[], id: string) =>
  JSON.stringify({
    session_id: 'bench',
    transcript_path: '/tmp/bench.jsonl',
    cwd: '/tmp',
    permission_mode: 'default',
    hook_event_name: 'PostToolUse',
    tool_name: 'mcp__docs__links',
    tool_input: {},
    tool_response: content,
    tool_use_id: id,
  });
/** Refused addresses in the session's state for the tool-result row (the state's bound, `maxRefusedAddresses`). */
const refusedInState = 1024;
const evalLine = `${JSON.stringify({ stage: 'link', server: 'docs', link: { type: 'resource_link', uri: 'guide://manuals/packing', name: 'packing' } })}\n`;

/**
 * CPU time (user + system, ms) of the child processes this process has waited for, from `/proc/self/stat` (`cutime`
 * and `cstime`, in clock ticks of 10 ms); null where there is no such file.
 */
function childrenCpuMs(): number | null {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[13]) + Number(fields[14]);
    return Number.isFinite(ticks) ? ticks * 10 : null;
  } catch {
    return null;
  }
}

function runOnce(args: readonly string[], input: string, wantStdout: RegExp): void {
  const r = spawnSync(process.execPath, args, { input, encoding: 'utf8', cwd: repoRoot });
  if (r.status !== 0 || !wantStdout.test(r.stdout)) {
    throw new Error(`\`node ${args.join(' ')}\` failed (exit ${r.status}): ${r.stderr.slice(0, 300)}`);
  }
}

/** The code-cache start and the event bundle copied to a folder whose `code-cache` others may write: never read, compiled each start. */
function uncachedStart(scratch: string, bin: string): string {
  const dir = path.join(scratch, 'uncached');
  mkdirSync(path.join(dir, 'code-cache'), { recursive: true, mode: 0o777 });
  chmodSync(path.join(dir, 'code-cache'), 0o777);
  for (const name of ['linkgate-cached.cjs', 'linkgate-event.cjs', 'linkgate-policy-deps.cjs'])
    copyFileSync(path.join(bin, name), path.join(dir, name));
  return path.join(dir, 'linkgate-cached.cjs');
}

/**
 * Another build's code-cache start (`BENCH_HOOK_BASELINE`: a folder holding its `linkgate-cached.cjs`,
 * `linkgate-event.cjs` and `linkgate-policy-deps.cjs`, e.g. main's `dist/bin` copied before a change) in a folder of
 * its own with its own caches, so the old and the new build are timed in the same rounds; null without it.
 */
function baselineStart(scratch: string): string | null {
  const from = process.env['BENCH_HOOK_BASELINE'];
  if (from === undefined || from === '') return null;
  const dir = path.join(scratch, 'baseline');
  mkdirSync(dir, { recursive: true });
  for (const name of ['linkgate-cached.cjs', 'linkgate-event.cjs', 'linkgate-policy-deps.cjs'])
    copyFileSync(path.join(from, name), path.join(dir, name));
  return path.join(dir, 'linkgate-cached.cjs');
}

/**
 * A Node start-up snapshot of the event bundle, built by this Node binary (the alternative to the code cache, kept in
 * the bench to show the choice): the bundle runs at build time and `runEvent` is the snapshot's main function.
 */
function buildSnapshot(scratch: string, bin: string): string {
  const bundle = path.join(bin, 'linkgate-event.cjs');
  const entry = path.join(scratch, 'snapshot-entry.cjs');
  writeFileSync(
    entry,
    `var module = { exports: {} }, exports = module.exports, __filename = ${JSON.stringify(bundle)};\n${readFileSync(bundle, 'utf8')}\n` +
      "require('node:v8').startupSnapshot.setDeserializeMainFunction(() => module.exports.runEvent(process.argv.slice(1)));\n",
  );
  const blob = path.join(scratch, 'snapshot.blob');
  const r = spawnSync(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', entry], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`the snapshot did not build: ${r.stderr.slice(0, 300)}`);
  return blob;
}

/** Times one PreToolUse event and one eval line in fresh processes; returns the verdicts against the targets. */
export async function benchHook(rounds: number): Promise<HookBenchVerdict[]> {
  console.log(
    '\n5. one process per event: `linkgate hook claude-code` (PreToolUse) and `linkgate eval` (one line); wall time, then the mean CPU time of the process',
  );
  // inside the package, as an installed bundle is: the CLI finds its version and schema above its own folder
  const cacheRoot = path.join(repoRoot, 'node_modules', '.cache');
  mkdirSync(cacheRoot, { recursive: true });
  // at its real path: the hook refuses a --state reached through a symlink (a worktree's linked node_modules)
  const scratch = mkdtempSync(path.join(realpathSync(cacheRoot), 'linkgate-bench-hook-'));
  try {
    const bin = path.join(repoRoot, 'dist', 'bin');
    const entries = {
      cached: path.join(bin, 'linkgate-cached.cjs'),
      esm: path.join(bin, 'linkgate.js'),
      tsc: path.join(repoRoot, 'dist/cli/main.js'),
      uncached: uncachedStart(scratch, bin),
    };
    const snapshot = buildSnapshot(scratch, bin);
    const baseline = baselineStart(scratch);
    const state = path.join(scratch, 'state');
    const hookArgs = (entry: string, stateDir = state, host = 'claude-code') => [
      entry,
      'hook',
      host,
      '--policy',
      'policies/default.yaml',
      '--state',
      stateDir,
    ];
    let fresh = 0;
    // a session that refused 1 024 internal addresses (four tool results of 256 links): every later tool result is
    // searched for them (issue 42: building that search was ~95 ms CPU per event before its forms were kept)
    const refusedState = path.join(scratch, 'refused-state');
    for (let from = 0; from < refusedInState; from += 256) {
      const links = Array.from({ length: 256 }, (_, i) => ({
        type: 'resource_link',
        uri: `http://10.0.${(from + i) >> 8}.${(from + i) & 255}/internal/item-${from + i}`,
        name: 'x',
      }));
      runOnce(hookArgs(entries.cached, refusedState), toolResult(links, `toolu_fill_${from}`), /non-public-address/);
    }
    let later = 0;
    const evalArgs = (entry: string) => [entry, 'eval', '--policy', 'policies/default.yaml'];
    const none = /^$/;
    const allow = /"effect":"allow"/;
    const tasks: Record<string, () => void> = {
      'node -e 0': () => runOnce(['-e', '0'], '', none),
      'hook event, code-cache start (for hosts)': () => runOnce(hookArgs(entries.cached), event, none),
      'codex hook event, code-cache start': () => runOnce(hookArgs(entries.cached, state, 'codex'), codexEvent, none),
      'gemini cli hook event, code-cache start': () =>
        runOnce(hookArgs(entries.cached, state, 'gemini-cli'), geminiEvent, none),
      'hook event, event bundle compiled each start': () => runOnce(hookArgs(entries.uncached), event, none),
      'hook event, start-up snapshot (not warmed)': () =>
        runOnce(['--snapshot-blob', snapshot, ...hookArgs('').slice(1)], event, none),
      'hook event, ES-module bundle (linkgate.js)': () => runOnce(hookArgs(entries.esm), event, none),
      'hook event, code-cache start, policy not cached': () =>
        runOnce(hookArgs(entries.cached, path.join(scratch, `fresh-${(fresh += 1)}`)), event, none),
      'hook event, tsc output (unbundled)': () => runOnce(hookArgs(entries.tsc), event, none),
      [`tool result, ${refusedInState} refused addresses kept`]: () =>
        runOnce(
          hookArgs(entries.cached, refusedState),
          toolResult([{ type: 'text', text: `nothing to see ${(later += 1)}` }], `toolu_later_${later}`),
          none,
        ),
      'eval one line, code-cache start': () => runOnce(evalArgs(entries.cached), evalLine, allow),
      'eval one line, ES-module bundle (linkgate.js)': () => runOnce(evalArgs(entries.esm), evalLine, allow),
      'eval one line, tsc output (unbundled)': () => runOnce(evalArgs(entries.tsc), evalLine, allow),
    };
    if (baseline !== null) {
      const baselineState = path.join(scratch, 'baseline-state');
      tasks['hook event, code-cache start, BENCH_HOOK_BASELINE'] = () =>
        runOnce(hookArgs(baseline, baselineState), event, none);
      tasks['eval one line, code-cache start, BENCH_HOOK_BASELINE'] = () =>
        runOnce(evalArgs(baseline), evalLine, allow);
    }
    // BENCH_HOOK_ROWS=regex: only the rows whose names match it (and `node -e 0`, the floor), e.g. 'refused|code-cache start \\(for'
    const rowsWanted = process.env['BENCH_HOOK_ROWS'];
    if (rowsWanted !== undefined)
      for (const name of Object.keys(tasks))
        if (name !== 'node -e 0' && !new RegExp(rowsWanted).test(name)) delete tasks[name];
    // CPU time of each start beside its wall time (on a loaded machine the wall time is mostly other processes' slices)
    const cpu = new Map<string, number[]>();
    const onCpu = (name: string, task: () => void) => () => {
      const before = childrenCpuMs();
      task();
      const after = childrenCpuMs();
      if (before !== null && after !== null) cpu.set(name, [...(cpu.get(name) ?? []), after - before]);
    };
    const series = await interleave(
      Object.fromEntries(Object.entries(tasks).map(([name, task]) => [name, onCpu(name, task)])),
      rounds,
      2,
    );
    const byName = new Map(series.map((s) => [s.name, s]));
    const base = byName.get('node -e 0') as Series;
    const baseMs = summary(base.rounds).median;
    // the mean over the timed rounds (the two warm-up rounds left out): one start's CPU time is a few clock ticks
    const cpuMean = (name: string) => {
      const all = (cpu.get(name) ?? []).slice(-rounds);
      return all.length === 0 ? null : all.reduce((a, b) => a + b, 0) / all.length;
    };
    const baseCpu = cpuMean('node -e 0');
    for (const s of series) {
      const m = summary(s.rounds);
      const ratio = s === base ? '' : `${(m.median / baseMs).toFixed(2)}×`;
      const mean = cpuMean(s.name);
      const cpuText =
        mean === null || baseCpu === null
          ? ''
          : `  CPU ${fmtMs(mean)}${s === base ? '' : ` ${(mean / baseCpu).toFixed(2)}×`}`;
      console.log(
        `  ${s.name.padEnd(44)} ${fmtMs(m.median).padStart(10)}  [${fmtMs(m.min)} – ${fmtMs(m.max)}]  ${ratio}${cpuText}`,
      );
    }
    const ratioOf = (name: string) => {
      const s = summary(byName.get(name)?.rounds ?? [Number.NaN]);
      const b = summary(base.rounds);
      // min–max of the ratio: each extreme against the base's median
      return { median: s.median / b.median, min: s.min / b.median, max: s.max / b.median };
    };
    const hook = ratioOf('hook event, code-cache start (for hosts)');
    const codex = ratioOf('codex hook event, code-cache start');
    const gemini = ratioOf('gemini cli hook event, code-cache start');
    const evalRatio = ratioOf('eval one line, code-cache start');
    const fmtCpu = (name: string) => {
      const mean = cpuMean(name);
      return mean === null || baseCpu === null ? '' : `; CPU ${(mean / baseCpu).toFixed(2)}×`;
    };
    const names = {
      hook: 'hook event, code-cache start (for hosts)',
      codex: 'codex hook event, code-cache start',
      gemini: 'gemini cli hook event, code-cache start',
      eval: 'eval one line, code-cache start',
    };
    const fmt = (r: { median: number; min: number; max: number }, name: string) =>
      `${r.median.toFixed(2)}× node -e 0 [${r.min.toFixed(2)}× – ${r.max.toFixed(2)}×]${fmtCpu(name)}`;
    const verdicts: (HookBenchVerdict & { row: string })[] = [
      {
        row: names.hook,
        name: 'one claude code hook event (PreToolUse) ≤ 1.7× node -e 0',
        ok: hook.median <= 1.7,
        figure: fmt(hook, names.hook),
      },
      {
        row: names.codex,
        name: 'one codex hook event (PreToolUse) ≤ 1.7× node -e 0',
        ok: codex.median <= 1.7,
        figure: fmt(codex, names.codex),
      },
      {
        row: names.gemini,
        name: 'one gemini cli hook event (BeforeTool) ≤ 1.7× node -e 0',
        ok: gemini.median <= 1.7,
        figure: fmt(gemini, names.gemini),
      },
      {
        row: names.eval,
        name: 'eval of one line, cold ≤ 2× node -e 0',
        ok: evalRatio.median <= 2,
        figure: fmt(evalRatio, names.eval),
      },
    ];
    // a row left out by BENCH_HOOK_ROWS has no verdict
    return verdicts.filter((v) => byName.has(v.row)).map(({ row: _row, ...v }) => v);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// run alone: `node --import tsx bench/hook.ts` (after `npm run build`)
if (import.meta.filename === process.argv[1]) {
  for (const v of await benchHook(Number(process.env['BENCH_ROUNDS'] ?? 9))) {
    console.log(`  ${v.ok ? 'ok  ' : 'MISS'} ${v.name}: ${v.figure}`);
  }
}
