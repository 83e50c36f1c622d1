// In-process Claude Agent SDK hooks (issue 33): the SDK calls the hook callback in the host process, so one event's
// judging is a function call: parse the event, open the session's state, decide, record. Timed here on the built
// package (what users import), a read judged as its two events: PreToolUse (link decision) and PostToolUse (read
// decision over the host's result, one record), each session reading one link.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fmtMs, interleave, type Series, summary } from './measure.ts';

type Hooks = typeof import('../src/frameworks/claude-agent-hooks.ts');
type Policies = typeof import('../src/policy/load-policy.ts');
type Sinks = typeof import('../src/record/record-sink.ts');
const { claudeAgentHooks } = (await import(
  new URL('../dist/frameworks/claude-agent-hooks.js', import.meta.url).href
)) as Hooks;
const { loadPolicy } = (await import(new URL('../dist/policy/load-policy.js', import.meta.url).href)) as Policies;
const { callbackSink } = (await import(new URL('../dist/record/record-sink.js', import.meta.url).href)) as Sinks;

type Row = (label: string, series: Series, base?: Series, perOps?: number) => string;
type Check = (name: string, ok: boolean, figure: string) => void;

const eventsPerRound = 200;

/** Times in-process hook events (a read's PreToolUse and PostToolUse) and checks one event's judging against 1 ms. */
export async function benchFrameworks(rounds: number, row: Row, check: Check): Promise<void> {
  console.log('\nin-process Claude Agent SDK hooks: one event judged in the host process (no process per event)');
  const scratch = mkdtempSync(path.join(tmpdir(), 'linkgate-bench-agent-hooks-'));
  try {
    let records = 0;
    const hooks = claudeAgentHooks({
      policy: await loadPolicy('policies/default.yaml'),
      records: callbackSink(() => {
        records += 1;
      }),
      stateDir: path.join(scratch, 'state'),
    });
    const [pre, post] = [hooks.PreToolUse[0]?.hooks[0], hooks.PostToolUse[0]?.hooks[0]];
    if (pre === undefined || post === undefined) throw new Error('claudeAgentHooks returned no callbacks');
    const signal = new AbortController().signal;
    const uri = 'guide://manuals/packing';
    const base = (session: string, name: string) => ({
      session_id: session,
      transcript_path: path.join(scratch, `${session}.jsonl`),
      cwd: scratch,
      permission_mode: 'default',
      hook_event_name: name,
      tool_name: 'ReadMcpResourceTool',
      tool_input: { server: 'docs', uri },
      tool_use_id: 'toolu_bench',
    });
    const contents = [{ uri, mimeType: 'text/plain', text: 'fold, then roll: the packing guide\n'.repeat(20) }];
    let session = 0;
    const read = async () => {
      for (let i = 0; i < eventsPerRound / 2; i += 1) {
        const id = `bench-${(session += 1)}`;
        const allowed = await pre(base(id, 'PreToolUse'), 'toolu_bench', { signal });
        const delivered = await post(
          { ...base(id, 'PostToolUse'), tool_response: { contents }, duration_ms: 3 },
          'toolu_bench',
          { signal },
        );
        if (Object.keys(allowed).length !== 0 || Object.keys(delivered).length !== 0)
          throw new Error(`the read was not allowed: ${JSON.stringify([allowed, delivered])}`);
      }
    };
    const [series] = (await interleave({ read }, rounds)) as [Series];
    console.log(row(`${eventsPerRound} events (${eventsPerRound / 2} reads)`, series, undefined, eventsPerRound));
    const perEvent = summary(series.rounds).median / eventsPerRound;
    if (records < eventsPerRound / 2) throw new Error(`only ${records} records were written`);
    check('in-process agent hook: one event judged < 1 ms (median)', perEvent < 1, fmtMs(perEvent));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
