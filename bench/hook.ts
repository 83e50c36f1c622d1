// One hook event is one process start (issue 13), and so is `linkgate eval` of one line (issue 15): wall time of
// the built CLI beside `node -e 0`, interleaved, with min–max. Other builds of the same code show what bundling and
// loading only the command's modules each give: the tsc output (every module through the ESM loader), one bundle
// without code splitting (every command loaded at start), and the bundle with every zod locale. The hook keeps the
// validated policy in its state folder, so every event after a session's first skips the YAML parser and the
// schema; the row with a fresh state folder per event shows what an event costs without that.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { cliBuildOptions } from '../scripts/cli-build-options.ts';
import { fmtMs, interleave, summary, type Series } from './measure.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

/** The figures this section adds to the verdict list: name, whether it met its target, and the figure. */
export interface HookBenchVerdict {
  name: string;
  ok: boolean;
  figure: string;
}

const event = JSON.stringify({
  session_id: 'bench',
  transcript_path: '/tmp/bench.jsonl',
  cwd: '/tmp',
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: 'ReadMcpResourceTool',
  tool_input: { server: 'docs', uri: 'guide://manuals/packing' },
  tool_use_id: 'toolu_bench',
});
const evalLine = `${JSON.stringify({ stage: 'link', server: 'docs', link: { type: 'resource_link', uri: 'guide://manuals/packing', name: 'packing' } })}\n`;

function runOnce(args: readonly string[], input: string, wantStdout: RegExp): void {
  const r = spawnSync(process.execPath, args, { input, encoding: 'utf8', cwd: repoRoot });
  if (r.status !== 0 || !wantStdout.test(r.stdout)) {
    throw new Error(`\`node ${args.join(' ')}\` failed (exit ${r.status}): ${r.stderr.slice(0, 300)}`);
  }
}

/** Times one PreToolUse event and one eval line in fresh processes; returns the verdicts against the targets. */
export async function benchHook(rounds: number): Promise<HookBenchVerdict[]> {
  console.log('\n5. one process per event: `linkgate hook claude-code` (PreToolUse) and `linkgate eval` (one line)');
  // inside the package, as an installed bundle is: the CLI finds its version and schema above its own folder
  const cacheRoot = path.join(repoRoot, 'node_modules', '.cache');
  mkdirSync(cacheRoot, { recursive: true });
  const scratch = mkdtempSync(path.join(cacheRoot, 'linkgate-bench-hook-'));
  try {
    // the same entry built other ways: without code splitting (every command loads at start), and with zod's
    // every locale (what the bundle leaves out)
    const eager = path.join(scratch, 'eager');
    const locales = path.join(scratch, 'locales');
    await build({ ...cliBuildOptions(eager, { splitting: false }), logLevel: 'error' });
    await build({ ...cliBuildOptions(locales, { englishOnly: false }), logLevel: 'error' });
    const entries = {
      bundle: path.join(repoRoot, 'dist/bin/linkgate.js'),
      tsc: path.join(repoRoot, 'dist/cli/main.js'),
      eager: path.join(eager, 'linkgate.js'),
      locales: path.join(locales, 'linkgate.js'),
    };
    const state = path.join(scratch, 'state');
    const hookArgs = (entry: string, stateDir = state) => [
      entry,
      'hook',
      'claude-code',
      '--policy',
      'policies/default.yaml',
      '--state',
      stateDir,
    ];
    let fresh = 0;
    const evalArgs = (entry: string) => [entry, 'eval', '--policy', 'policies/default.yaml'];
    const tasks: Record<string, () => void> = {
      'node -e 0': () => runOnce(['-e', '0'], '', /^$/),
      'hook event, bundle (shipped)': () => runOnce(hookArgs(entries.bundle), event, /^$/),
      'hook event, bundle, policy not yet cached': () =>
        runOnce(hookArgs(entries.bundle, path.join(scratch, `fresh-${(fresh += 1)}`)), event, /^$/),
      'hook event, tsc output (unbundled)': () => runOnce(hookArgs(entries.tsc), event, /^$/),
      'hook event, bundle without splitting': () => runOnce(hookArgs(entries.eager), event, /^$/),
      'hook event, bundle with all zod locales': () => runOnce(hookArgs(entries.locales), event, /^$/),
      'eval one line, bundle (shipped)': () => runOnce(evalArgs(entries.bundle), evalLine, /"effect":"allow"/),
      'eval one line, tsc output (unbundled)': () => runOnce(evalArgs(entries.tsc), evalLine, /"effect":"allow"/),
    };
    const series = await interleave(tasks, rounds, 2);
    const byName = new Map(series.map((s) => [s.name, s]));
    const base = byName.get('node -e 0') as Series;
    const baseMs = summary(base.rounds).median;
    for (const s of series) {
      const m = summary(s.rounds);
      const ratio = s === base ? '' : `${(m.median / baseMs).toFixed(2)}×`;
      console.log(
        `  ${s.name.padEnd(44)} ${fmtMs(m.median).padStart(10)}  [${fmtMs(m.min)} – ${fmtMs(m.max)}]  ${ratio}`,
      );
    }
    const ratioOf = (name: string) => {
      const s = summary((byName.get(name) as Series).rounds);
      const b = summary(base.rounds);
      // min–max of the ratio: each extreme against the base's median
      return { median: s.median / b.median, min: s.min / b.median, max: s.max / b.median };
    };
    const hook = ratioOf('hook event, bundle (shipped)');
    const evalRatio = ratioOf('eval one line, bundle (shipped)');
    const fmt = (r: { median: number; min: number; max: number }) =>
      `${r.median.toFixed(2)}× node -e 0 [${r.min.toFixed(2)}× – ${r.max.toFixed(2)}×]`;
    return [
      { name: 'one hook event ≤ 2× node -e 0', ok: hook.median <= 2, figure: fmt(hook) },
      { name: 'eval of one line, cold ≤ 2.5× node -e 0', ok: evalRatio.median <= 2.5, figure: fmt(evalRatio) },
    ];
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
