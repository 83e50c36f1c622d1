/** A host linkgate describes: its hooks, its MCP tool names and its configuration (src/hosts/). */
export type HostName = 'claude-code' | 'codex' | 'gemini-cli' | 'cursor' | 'cline' | 'copilot-cli' | 'windsurf';

/** Which part of a call a hook event sees: `pre` before a tool runs, `post` its result, `failure` a failed call. */
export type HookPhase = 'pre' | 'post' | 'failure';

/** What a host does with a call when its hook cannot start, crashes or times out: refuse it, or let it through. */
export type FailMode = 'closed' | 'open';

/** A hook handler object as the host's configuration holds it (`{type, command, timeout, …}`). */
export type HandlerEntry = Readonly<Record<string, unknown>>;

/** How linkgate's hooks go into a host's configuration: the shape `linkgate hook HOST --print-config` prints. */
export interface HookSetup {
  /** the file the printed block belongs in (as a user finds it) */
  readonly file: string;
  /** the handler running `command`, with the host's timeout unit and its option that fails closed, when any */
  handler(command: string, timeoutSeconds: number): HandlerEntry;
  /** a matcher in the host's syntax for `names` (tool names or `tools.everyMcpTool`); undefined: the host has none */
  matcher(names: readonly string[]): string | undefined;
  /** `groups`: `{EVENT: [{matcher, hooks: [handler]}]}`; `handlers`: `{EVENT: [handler]}` (no matchers) */
  readonly shape: 'groups' | 'handlers';
  /** members of the printed object beside `hooks` (Cursor's `version`) */
  readonly extra?: Readonly<Record<string, unknown>>;
  /** where the host keeps its MCP servers, for the proxy entry printed beside the hooks (`--server`) */
  readonly serversKey: string;
  /** one lowercase line on what the hooks alone leave open (printed when no proxy is) */
  readonly hooksAlone: string;
  /** the printed block when the host's hooks are no json block (Cline's hook files), in place of `shape` */
  print?(command: string, timeoutSeconds: number): Record<string, unknown>;
}

/**
 * A path by which the host hands the model what a server sent, where no hook of the host can withhold it: only a
 * proxy in front of the server judges it. Measured on the real binary (`measured` names the test).
 */
export interface HookBlindPath {
  /** what takes the path, lowercase (`tool results with \`isError: true\``) */
  readonly what: string;
  /** how the host hands it on, and why no hook's answer withholds it (lowercase, one line) */
  readonly why: string;
  /** the real-host test that measured it (`test/real-host/…`) */
  readonly measured: string;
}

/** A server's tool as a host's MCP tool name holds it. */
export interface McpToolParts {
  readonly server: string;
  readonly tool: string;
}

/** The names a host's hooks see for the calls a gate must judge. */
export interface HostTools {
  /** the resource-read tool (`ReadMcpResourceTool`, `read_mcp_resource`), when the host has one (Copilot CLI has none) */
  readonly read?: string;
  /** the resource-list tool, when the host has one (Cline 3.x has none) */
  readonly list?: string;
  /** the tool listing a directory resource's children (discovery, no body), when the host has one */
  readonly listDir?: string;
  /** the host's own web fetch tool, when its hooks see one (`WebFetch`, `web_fetch`) */
  readonly webFetch?: string;
  /** a regular expression (source) in the host's matcher syntax matching every MCP tool name (`mcp__.*`) */
  readonly everyMcpTool: string;
  /** the name a hook sees for tool `tool` of server `server`, as the host builds it */
  mcpTool(server: string, tool: string): string;
  /** the server and tool a hook's tool name names, null when it is no MCP tool name the host writes */
  mcpParts(name: string): McpToolParts | null;
}

/**
 * One host, as its own code reads its hooks: the events a gate needs, the tool names its hooks see, how it matches a
 * matcher, which handler options make a hook no gate, and what it does when a hook fails. Written from the host's
 * source or bundle (each module names its version) and checked against the real binaries in test/doctor. The hook
 * (src/hook/), `--print-config`, the framework adapters and doctor all read it; nothing else names these things.
 */
export interface HostDescription {
  readonly name: HostName;
  /** the product's name, for messages */
  readonly label: string;
  /** the hook events a gate needs (printed by `--print-config`, read by doctor), event name → the part it sees */
  readonly events: Readonly<Record<string, HookPhase>>;
  /** events of the same calls the hook also reads when a user configures them, event name → the part it sees */
  readonly otherEvents?: Readonly<Record<string, HookPhase>>;
  readonly tools: HostTools;
  /** true when a handler group with `matcher` runs for a call of `tool` (undefined: no matcher given) */
  matcherCovers(matcher: string | undefined, tool: string): boolean;
  /** why a handler the host runs still gates nothing (in the background, once, for some inputs only), if so */
  handlerNotGating(handler: HandlerEntry): string | undefined;
  /** what the host does with the call when `handler` cannot start, crashes or times out */
  failMode(handler: HandlerEntry): FailMode;
  /**
   * true when a handler after a tool ran that cannot answer in time lets the tool result through whatever `failMode`
   * says of its settings (measured on Claude Code: `onFailure: "block"` holds back a call, never a result)
   */
  readonly resultPassesOnFailure?: boolean;
  /** one lowercase line on failing open, for a handler that does (the setting that would close it, when any) */
  readonly failOpenLine: string;
  /** how linkgate's hooks are written into the host's configuration (`--print-config`) */
  readonly setup: HookSetup;
  /** what the host hands its hooks in place of a `resource_link` when it flattens it to text (no declared size or type) */
  readonly renderedLink: string | null;
  /** the paths to the model its hooks cannot gate, measured on the real binary; absent: none measured */
  readonly hookBlindPaths?: readonly HookBlindPath[];
}
