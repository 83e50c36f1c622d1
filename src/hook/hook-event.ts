import type { HostAlteration } from '../flow/host-altered-read.ts';
/** What a host's tool call is, as far as the gate cares. */
export type HookCall =
  /** the host's resource read tool (`ReadMcpResourceTool {server, uri}`); `server` null when the host finds it by the uri */
  | { kind: 'read'; server: string | null; uri: string }
  /** the host's resource list tool; `server` is null when the call named none */
  | { kind: 'list'; server: string | null }
  /** an MCP server's tool (`mcp__<server>__<tool>`) */
  | { kind: 'mcp'; server: string; tool: string }
  /** the host's own web fetch tool, or a tool given urls to fetch (`tool` names it in the records); every url */
  | { kind: 'web-fetch'; urls: string[]; tool?: string }
  /** any other tool: the gate has nothing to say */
  | { kind: 'other'; name: string };

/** One hook event in host-neutral terms. */
export interface HookEvent {
  /** the host's session (conversation) id: the key of the per-session state */
  session: string;
  /** `pre` before the tool runs, `post` after it returned, `failure` after it failed */
  phase: 'pre' | 'post' | 'failure';
  /** the host's id of this tool call, pairing its pre and post events; null when the host sends none */
  toolUseId: string | null;
  call: HookCall;
  /** the tool's output on `post` (host shape), its error text on `failure`; undefined on `pre` */
  response?: unknown;
  /** how long the tool ran, milliseconds, when the host says */
  durationMs?: number;
  /** the folder where the host saves binary bodies for this session; null when the host names none */
  savedDir: string | null;
  /**
   * on `post`: the host hands its model a string tool output as it is, so a JSON string that is no tool result is text
   * the model reads (Claude Code: an MCP result with `structuredContent` arrives as that value, a JSON string)
   */
  stringIsText?: boolean;
  /** on a read's `post`: items whose body the host cut or replaced before the hook saw them (never judged as whole) */
  altered?: HostAlteration;
}

/** What the gate answers to one event, before a host formats it. */
export type HookAnswer =
  /** no opinion: the host goes on as it would without the gate (never a grant) */
  | { kind: 'none' }
  /** refuse the call before it runs; `reason` is for the model */
  | { kind: 'deny'; reason: string }
  /** replace what the model receives with `output` (the tool's own output shape); `reason` says what was withheld */
  | { kind: 'replace'; output: unknown; reason: string };
