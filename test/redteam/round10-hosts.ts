// What round 10's hook cases share: one MCP tool result as each host hands it to its post hook (Claude Code's
// content array, Codex's MCP result, Gemini CLI's rendered `Resource Link:` lines, as the real binaries sent them:
// test/real-host/observed), and every string a hook's answer hands the host (its stdout read as JSON when it is).
import { codexToolReturned, toolReturned } from '../hook/hook-events.ts';

type Json = Record<string, unknown>;
/** A link as a test writes it: its uri and its name. */
export type Linked = readonly [uri: string, name: string];

/** A `resource_link` item. */
const item = ([uri, name]: Linked) => ({ type: 'resource_link', uri, name, mimeType: 'text/plain' });

/** Gemini CLI 0.61's `AfterTool` of `mcp_fixture_links`, its parts the rendered lines of `texts` and `links`. */
export function geminiToolReturned(links: readonly Linked[], texts: readonly string[] = [], extra: Json = {}) {
  const lines = [...texts, ...links.map(([uri, name]) => `Resource Link: ${name} at ${uri}`)];
  return {
    session_id: 'g1',
    transcript_path: '/tmp/linkgate-no-such-gemini/session-1.jsonl',
    cwd: '/tmp',
    hook_event_name: 'AfterTool',
    timestamp: '2026-12-06T08:04:19.232Z',
    tool_name: 'mcp_fixture_links',
    tool_input: {},
    tool_response: { llmContent: lines.map((text) => ({ text })), returnDisplay: lines.join('\n'), ...extra },
    mcp_context: { server_name: 'fixture', tool_name: 'links', command: 'node', args: ['s.js'] },
  };
}

/** The post-tool event of one result (`links` as resource_links after the `texts`) for each host, by hook name. */
export const postEvents: [
  host: string,
  (links: readonly Linked[], texts?: readonly string[], id?: string) => unknown,
][] = [
  [
    'claude-code',
    (links, texts = [], id = 'toolu_1') =>
      toolReturned('fixture', 'links', [...texts.map((text) => ({ type: 'text', text })), ...links.map(item)], {
        toolUseId: id,
      }),
  ],
  [
    'codex',
    (links, texts = [], id = 'call_1') =>
      codexToolReturned(
        { content: [...texts.map((text) => ({ type: 'text', text })), ...links.map(item)] },
        {
          toolUseId: id,
        },
      ),
  ],
  ['gemini-cli', (links, texts = []) => geminiToolReturned(links, texts)],
];

/** Every string of a hook's answer (`stdout` as JSON, walked; else the raw text), one per line. */
export function handed(stdout: string): string {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    return stdout;
  }
  const found: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') found.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object')
      for (const [k, inner] of Object.entries(v)) {
        found.push(k);
        walk(inner);
      }
  };
  walk(value);
  return found.join('\n');
}

/** Runs `work`, printing its CPU (user + system, this process) and wall time as `[measure]`. */
export async function measured<T>(label: string, work: () => Promise<T>): Promise<T> {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  console.info(
    `[measure] ${label}: ${Math.round((used.user + used.system) / 1000)} ms CPU, ${Math.round(performance.now() - wall)} ms wall`,
  );
  return value;
}
