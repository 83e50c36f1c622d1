import type { FailMode, HookPhase, HostName } from '../hosts/host-description.ts';
import { hostNames } from '../hosts/hosts.ts';

export type { FailMode, HookPhase } from '../hosts/host-description.ts';

/** A host `linkgate doctor` reads the MCP configuration of. */
export type DoctorHost = HostName;

/** The hosts doctor reads, in the order it reports them. */
export const doctorHosts: readonly DoctorHost[] = hostNames;

/** One MCP server as a host's configuration declares it (before doctor judges whether linkgate gates it). */
export interface ConfiguredServer {
  readonly host: DoctorHost;
  readonly name: string;
  /**
   * where the host reads it: `user`, `project`, `local` (Claude Code's per-project entries in ~/.claude.json), or
   * `system` (a file an administrator owns: Gemini CLI's system settings)
   */
  readonly scope: 'user' | 'project' | 'local' | 'system';
  /** the file it is declared in (absolute) */
  readonly file: string;
  /** the command line that starts it (stdio), empty for a remote server */
  readonly argv: readonly string[];
  /** the endpoint of a remote (http or sse) server */
  readonly url?: string;
  /** the environment the host gives the server's process */
  readonly env: Readonly<Record<string, string>>;
  /**
   * the variables of the host's own environment it hands the server's process besides `env`, when it hands on only
   * these (Codex: a fixed list and the entry's `env_vars`); absent: all of them, as a plain spawn does
   */
  readonly inherits?: readonly string[];
  /** the folder the host starts the command in, when its entry sets one (absolute: Gemini CLI's `cwd`) */
  readonly cwd?: string;
  /** false when the host's configuration turns it off (it never starts) */
  readonly enabled: boolean;
  /** why the host never starts it, when that is not its own entry's switch (Gemini CLI in an untrusted folder) */
  readonly disabledBy?: string;
  /** why the environment the host gives it is not known (an env file the host loads that doctor cannot read) */
  readonly envProblem?: string;
}

/** What a front end does with a policy's decisions: `enforce` blocks and withholds, `observe` only records. */
export type GateMode = 'enforce' | 'observe';

/** The `--records` file of a proxy or hook, and whether it can be written. */
export interface RecordsHealth {
  /** absolute path */
  readonly file: string;
  /** true when the file, or its folder when it does not exist yet, can be written */
  readonly writable: boolean;
  /** one lowercase line when it cannot be written (the folder does not exist, not writable, a folder) */
  readonly problem?: string;
  /**
   * one lowercase line when it lies in a folder the agent's shell may write (`agent-writable.ts`): the agent can
   * rewrite or delete it, so it is no evidence of what the front end decided
   */
  readonly agentWritable?: string;
}

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
  /** the words it runs: the command line split as \`sh -c\` does, or \`command\` and \`args\` of an exec-form handler */
  readonly argv: readonly string[];
  /** the host runs `command` through a shell (it expands variables there); absent for an exec-form handler */
  readonly viaShell?: true;
  /** why the host will not run it even though it is configured (untrusted in Codex, hooks disabled), if so */
  readonly blocked?: string;
  /** why the handler, though it runs, is no gate (it runs in the background, once, or only for some inputs) */
  readonly notGating?: string;
  /** what the host does when the handler cannot start, crashes or times out */
  readonly failMode: FailMode;
  /** warnings that do not stop it running (such as a Claude Code handler without `"onFailure": "block"`) */
  readonly warnings: readonly string[];
  /**
   * a resident HTTP hook before a read (docs/resident-hook.md) rather than a command: `command` is the url it posts
   * to, and `problems` each condition that does not hold (none: as safe as the command hook)
   */
  readonly resident?: {
    readonly problems: readonly string[];
    /** an http hook after an mcp tool ran posts to the same server: it keeps what results return and refuse */
    readonly learns?: boolean;
  };
  /** what the host's settings add to the environment it runs the handler in (Claude Code's settings `env`) */
  readonly env?: Readonly<Record<string, string>>;
  /** why the environment the host runs it in is not known (an env file the host loads that doctor cannot read) */
  readonly envProblem?: string;
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
  /**
   * `verified`: the review holds against the allowed signers; `not-checked`: no allowed signers given; `unknown`: the
   * path holds a variable doctor cannot expand (the host's environment), so what it names is not known
   */
  readonly review: 'verified' | 'unverified' | 'not-checked' | 'does-not-load' | 'missing' | 'unknown';
  /** the allowed-signers file the command checks against, when it names one */
  readonly allowedSigners?: string;
  /** one lowercase line: why it does not load or verify (empty when it does) */
  readonly message: string;
  /** why the user doctor runs as (the gated agent's) could change a file the review rests on, when it could */
  readonly changeable?: string;
}

/** A linkgate hook doctor found in a host's configuration, and whether the host will run it. */
export interface HookReport extends Omit<ConfiguredHook, 'blocked' | 'notGating' | 'viaShell'> {
  /** the linkgate entry the command runs, and whether it exists */
  readonly bundle: string;
  readonly bundleExists: boolean;
  readonly policy: PolicyStatus;
  /** `--mode` of the command: an `observe` hook runs but enforces nothing */
  readonly mode: GateMode;
  /** the `--records` file of the command, when it names one */
  readonly records?: RecordsHealth;
  /**
   * for a hook that sees tool results: why its memory of refusals across events is not held (the agent's shell can
   * write its state folder), one lowercase line; absent when held
   */
  readonly refusalMemory?: string;
  /** a resident http hook whose server also gets the tool results: it holds what the session refused in its memory */
  readonly learns?: true;
  /** true when the host will run it and the policy loads and verifies (when a review is asked for) */
  readonly runs: boolean;
  /** why it will not run or not gate, one lowercase line each */
  readonly problems: readonly string[];
}

/** The front end in front of a server: `proxy` (its command runs `linkgate proxy`), `hook` (a linkgate hook of its host covers it), or none. */
export type GateKind = 'proxy' | 'hook' | 'none' | 'disabled';

/**
 * A server's verdict: `gated` (a front end enforces a usable policy on its reads and results), `partly-gated` (hooks
 * alone enforce each event, but what the session refused is kept where the agent's shell can undo it), `observe`
 * (everything is in place but the front end only records), `not-gated`, or `disabled` in the host.
 */
export type GateState = 'gated' | 'partly-gated' | 'observe' | 'not-gated' | 'disabled';

/** One configured server and whether linkgate stands in front of it. */
export interface ServerReport {
  readonly host: DoctorHost;
  readonly name: string;
  readonly scope: ConfiguredServer['scope'];
  readonly file: string;
  readonly transport: 'stdio' | 'remote';
  /** the command line (stdio) or the url (remote), as the host shows it */
  readonly target: string;
  /** the front end */
  readonly gate: GateKind;
  readonly state: GateState;
  /** true when `state` is `gated`: a proxy or hooks that run, enforce, and whose policy loads (and verifies, when asked) */
  readonly gated: boolean;
  /** the front end's mode (`observe` when any front end of it only observes); absent without a front end */
  readonly mode?: GateMode;
  /** what the host does when the front end cannot answer; absent without a front end */
  readonly failMode?: FailMode;
  /** the records files its front ends write */
  readonly records: readonly RecordsHealth[];
  /**
   * for a server its host's hooks gate: its own tool names (`tools/list`), which the hooks' matchers are judged
   * against as the host names them, or why they are unknown (then only a matcher covering every name counts);
   * `changing` when it declares `tools.listChanged` (then too only a matcher covering every name counts)
   */
  readonly tools?: { readonly names: readonly string[]; readonly changing?: true } | { readonly unknown: string };
  /** the proxy's policy, or the policy of each hook that covers it */
  readonly policies: readonly PolicyStatus[];
  readonly problems: readonly string[];
  /**
   * for a server doctor calls gated or observed: what it cannot see that could change that, one lowercase line (the
   * flags and environment its host is started with, `unseen-launch.ts`)
   */
  readonly unseen?: string;
  /**
   * for a server its host's hooks alone front: what of it reaches the model on a path no hook of the host can gate,
   * each one lowercase line with the fix (Claude Code's tool results with `isError: true`, host-blind-spots.ts); named
   * as the settings a hook cannot enforce are, beside the verdict, which covers what the hooks can gate
   */
  readonly notGated?: readonly string[];
}

/** The whole answer of `linkgate doctor` (`--json`, docs/doctor.md): every server, every linkgate hook, and the verdict. */
export interface DoctorReport {
  readonly version: 2;
  /** `--allow-observe` and `--require-signed`, as given */
  readonly allowObserve: boolean;
  readonly requireSigned: boolean;
  /** the project folder the project and local scopes were read for */
  readonly cwd: string;
  readonly servers: readonly ServerReport[];
  readonly hooks: readonly HookReport[];
  /** configuration files that exist but could not be read */
  readonly problems: readonly string[];
  /** true when every enabled server is gated (or observes, with `allowObserve`) and every linkgate hook runs */
  readonly ok: boolean;
}
