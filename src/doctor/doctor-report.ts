/** A host `linkgate doctor` reads the MCP configuration of. */
export type DoctorHost = 'claude-code' | 'codex' | 'gemini-cli' | 'cursor';

/** The hosts doctor reads, in the order it reports them. */
export const doctorHosts: readonly DoctorHost[] = ['claude-code', 'codex', 'gemini-cli', 'cursor'];

/** One MCP server as a host's configuration declares it (before doctor judges whether linkgate gates it). */
export interface ConfiguredServer {
  readonly host: DoctorHost;
  readonly name: string;
  /** where the host reads it: `user`, `project` or `local` (Claude Code's per-project entries in ~/.claude.json) */
  readonly scope: 'user' | 'project' | 'local';
  /** the file it is declared in (absolute) */
  readonly file: string;
  /** the command line that starts it (stdio), empty for a remote server */
  readonly argv: readonly string[];
  /** the endpoint of a remote (http or sse) server */
  readonly url?: string;
  /** the environment the host gives the server's process */
  readonly env: Readonly<Record<string, string>>;
  /** false when the host's configuration turns it off (it never starts) */
  readonly enabled: boolean;
}

/** Which part of a read a hook handler sees: `pre` before a tool runs, `post` its result. */
export type HookPhase = 'pre' | 'post';

/** One hook handler a host runs, as its configuration declares it. */
export interface ConfiguredHook {
  readonly host: DoctorHost;
  readonly file: string;
  /** the host's event name (`PreToolUse`, `AfterTool`, `beforeMCPExecution`) */
  readonly event: string;
  readonly phase: HookPhase;
  /** the tool-name pattern the handler runs for; undefined runs it for every tool */
  readonly matcher?: string;
  /** the shell command line the host runs */
  readonly command: string;
  /** why the host will not run it even though it is configured (untrusted in Codex, hooks disabled), if so */
  readonly blocked?: string;
  /** warnings that do not stop it running (such as a Claude Code handler without `"onFailure": "block"`) */
  readonly warnings: readonly string[];
}

/** What a host's configuration holds: its servers and its hooks, and any file doctor could not read. */
export interface HostInventory {
  readonly servers: readonly ConfiguredServer[];
  readonly hooks: readonly ConfiguredHook[];
  /** one lowercase line per configuration file that exists but could not be read or parsed */
  readonly problems: readonly string[];
}

/** The policy a linkgate command names, and whether it loads and its review verifies. */
export interface PolicyStatus {
  /** the policy file (absolute), or undefined when the command names none */
  readonly file?: string;
  /** `verified`: the review holds against the allowed signers; `not-checked`: no allowed signers given */
  readonly review: 'verified' | 'unverified' | 'not-checked' | 'does-not-load' | 'missing';
  /** the allowed-signers file the command checks against, when it names one */
  readonly allowedSigners?: string;
  /** one lowercase line: why it does not load or verify (empty when it does) */
  readonly message: string;
}

/** A linkgate hook doctor found in a host's configuration, and whether the host will run it. */
export interface HookReport extends Omit<ConfiguredHook, 'blocked'> {
  /** the linkgate entry the command runs, and whether it exists */
  readonly bundle: string;
  readonly bundleExists: boolean;
  readonly policy: PolicyStatus;
  /** true when the host will run it and the policy loads and verifies (when a review is asked for) */
  readonly runs: boolean;
  /** why it will not run or not gate, one lowercase line each */
  readonly problems: readonly string[];
}

/** How a server is gated: `proxy` (its command runs `linkgate proxy`), `hook` (a linkgate hook of its host covers it), or not. */
export type GateKind = 'proxy' | 'hook' | 'none' | 'disabled';

/** One configured server and whether linkgate stands in front of it. */
export interface ServerReport {
  readonly host: DoctorHost;
  readonly name: string;
  readonly scope: ConfiguredServer['scope'];
  readonly file: string;
  readonly transport: 'stdio' | 'remote';
  /** the command line (stdio) or the url (remote), as the host shows it */
  readonly target: string;
  readonly gate: GateKind;
  /** true when gated by a proxy or a hook that runs and whose policy loads (and verifies, when asked) */
  readonly gated: boolean;
  /** the proxy's policy, or the policy of each hook that covers it */
  readonly policies: readonly PolicyStatus[];
  readonly problems: readonly string[];
}

/** The whole answer of `linkgate doctor` (`--json`, docs/doctor.md): every server, every linkgate hook, and the verdict. */
export interface DoctorReport {
  readonly version: 1;
  /** the project folder the project and local scopes were read for */
  readonly cwd: string;
  readonly servers: readonly ServerReport[];
  readonly hooks: readonly HookReport[];
  /** configuration files that exist but could not be read */
  readonly problems: readonly string[];
  /** true when every enabled server is gated and every linkgate hook runs */
  readonly ok: boolean;
}
