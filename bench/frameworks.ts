// In-process Claude Agent SDK hooks (issue 33, issue 43 item 2): the SDK calls the hook callback in the host process,
// so one event's judging is a function call: parse the event, open the session's state, decide, record. Timed here on
// the built package (what users import), each session as a host runs it: the MCP tool's result listing the link
// (PostToolUse: the link decision, its discovery record), then the read as its two events, PreToolUse (link decision)
// and PostToolUse (read decision over the host's result, the record that supersedes the discovery record). The figure
// is one read (its two events), each timed alone: median and p90, against 1 ms, with the session state in memory (the
// default); the same with the state in files (`stateDir`, as `linkgate hook` keeps it) is shown beside it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fmtMs, interleave, percentile, type Series, summary } from './measure.ts';

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

const readsPerRound = 100;

/** Times in-process hook events (a tool result listing a link, then its read's PreToolUse and PostToolUse) and checks one read's judging against 1 ms. */
export async function benchFrameworks(rounds: number, row: Row, check: Check): Promise<void> {
  console.log('\nin-process Claude Agent SDK hooks: one read judged in the host process (no process per event)');
  const memory = await timeReads('memory', rounds, row);
  const files = await timeReads('files', rounds, row);
  console.log(`  one read, state in memory ÷ state in files: ${(memory / files).toFixed(2)}×`);
  check('in-process agent hook: one read judged < 1 ms (median)', memory < 1, fmtMs(memory));
}

// the median wall time of one read (two events), the session state where `state` says
async function timeReads(state: 'memory' | 'files', rounds: number, row: Row): Promise<number> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'linkgate-bench-agent-hooks-'));
  try {
    const kinds = { discovered: 0, link: 0 };
    const hooks = claudeAgentHooks({
      policy: await loadPolicy('policies/default.yaml'),
      records: callbackSink((record) => {
        kinds[(record as { kind?: string }).kind === 'discovered' ? 'discovered' : 'link'] += 1;
      }),
      ...(state === 'files' ? { stateDir: path.join(scratch, 'state') } : {}),
    });
    const [pre, post] = [hooks.PreToolUse[0]?.hooks[0], hooks.PostToolUse[0]?.hooks[0]];
    if (pre === undefined || post === undefined) throw new Error('claudeAgentHooks returned no callbacks');
    const signal = new AbortController().signal;
    const uri = 'guide://manuals/packing';
    const base = (session: string, name: string, tool: string, id: string) => ({
      session_id: session,
      transcript_path: path.join(scratch, `${session}.jsonl`),
      cwd: scratch,
      permission_mode: 'default',
      hook_event_name: name,
      tool_name: tool,
      tool_use_id: id,
    });
    const listed = [{ type: 'text', text: `[Resource link: packing] ${uri}` }];
    const contents = [{ uri, mimeType: 'text/plain', text: 'fold, then roll: the packing guide\n'.repeat(20) }];
    const readInput = { tool_input: { server: 'docs', uri } };
    let session = 0;
    const perRead: number[] = [];
    // the process's cpu time per read (all its threads): what the read costs with no other process on the cores
    const cpuPerRead: number[] = [];
    const read = async () => {
      for (let i = 0; i < readsPerRound; i += 1) {
        const id = `bench-${(session += 1)}`;
        const list = await post(
          { ...base(id, 'PostToolUse', 'mcp__docs__links', 'toolu_links'), tool_input: {}, tool_response: listed },
          'toolu_links',
          { signal },
        );
        const cpu = process.cpuUsage();
        const start = performance.now();
        const allowed = await pre(
          { ...base(id, 'PreToolUse', 'ReadMcpResourceTool', 'toolu_read'), ...readInput },
          'toolu_read',
          {
            signal,
          },
        );
        const delivered = await post(
          {
            ...base(id, 'PostToolUse', 'ReadMcpResourceTool', 'toolu_read'),
            ...readInput,
            tool_response: { contents },
            duration_ms: 3,
          },
          'toolu_read',
          { signal },
        );
        perRead.push(performance.now() - start);
        const used = process.cpuUsage(cpu);
        cpuPerRead.push((used.user + used.system) / 1000);
        if ([list, allowed, delivered].some((answer) => Object.keys(answer).length !== 0))
          throw new Error(`the read was not allowed: ${JSON.stringify([list, allowed, delivered])}`);
      }
    };
    const [series] = (await interleave({ read }, rounds)) as [Series];
    console.log(row(`state in ${state}: ${readsPerRound} sessions, 3 events each`, series, undefined, readsPerRound));
    // one record per link: each session's discovery record, superseded by its read's
    if (kinds.link < readsPerRound || kinds.discovered !== kinds.link)
      throw new Error(`records: ${JSON.stringify(kinds)}, not one discovery record and one record per link`);
    // the warm-up rounds' reads are not counted
    const timed = perRead.slice(perRead.length - rounds * readsPerRound);
    const cpuTimed = cpuPerRead.slice(cpuPerRead.length - rounds * readsPerRound);
    const [median, cpuMedian] = [summary(timed).median, summary(cpuTimed).median];
    console.log(`  one read (PreToolUse + PostToolUse): median ${fmtMs(median)}, p90 ${fmtMs(percentile(timed, 90))}`);
    console.log(`  its cpu time: median ${fmtMs(cpuMedian)}, p90 ${fmtMs(percentile(cpuTimed, 90))}`);
    return median;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
