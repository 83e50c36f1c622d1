import { readClaudeCode, type ConfigPlaces } from './claude-code-config.ts';
import { readCline } from './cline-config.ts';
import { readCodex } from './codex-config.ts';
import { readCopilotCli } from './copilot-cli-config.ts';
import { readCursor } from './cursor-config.ts';
import type {
  ConfiguredHook,
  ConfiguredServer,
  DoctorHost,
  DoctorReport,
  GateMode,
  HookReport,
  HostInventory,
  PolicyStatus,
  RecordsHealth,
  ServerReport,
} from './doctor-report.ts';
import { doctorHosts } from './doctor-report.ts';
import { unseenLaunch } from './unseen-launch.ts';
import { readGeminiCli } from './gemini-cli-config.ts';
import { readWindsurf } from './windsurf-config.ts';
import { hookBlindPaths, hookBlindSpotLine } from '../hook/host-blind-spots.ts';
import { droppedDefaults } from '../content/consumers/content-consumer.ts';
import { hostDescriptions } from '../hosts/hosts.ts';
import type { Policy } from '../policy/policy.ts';
import { coveredTools } from './hook-coverage.ts';
import { type LinkgateInvocation, linkgateInvocation, preloadProblem } from './linkgate-invocation.ts';
import { allowedSignersEnv } from '../policy/load-policy.ts';
import { policyProblem, policyStatus } from './policy-status.ts';
import { recordsHealth } from './records-health.ts';
import { hookCommandWords } from './hook-variables.ts';
import { stateFolderLines } from './state-health.ts';
import { staleCodeCacheLine } from '../start/code-cache.ts';
import { cachedEntryName } from '../start/start-files.ts';
import { basename } from 'node:path';
import {
  agentWritableFolders,
  agentWritableLines,
  recordsAgentWritable,
  type WritableFolder,
} from './agent-writable.ts';
import { refusalMemoryLine, refusalMemoryNotHeld, sandboxFix } from './refusal-memory.ts';
import { listServerTools, type ServerTools } from './server-tools.ts';

/** What `linkgate doctor` asks beyond gating: observe mode accepted, a verified review required. */
export interface DoctorOptions {
  /** count a front end in `--mode observe` as fine (it is still listed as observing, never as gated) */
  readonly allowObserve?: boolean;
  /** a policy whose review is not checked against allowed signers does not gate */
  readonly requireSigned?: boolean;
  /** start each hook-gated server to list its tools (default true); false judges matchers for every tool name */
  readonly startServers?: boolean;
}

const readers: Readonly<Record<DoctorHost, (places: ConfigPlaces) => Promise<HostInventory>>> = {
  'claude-code': readClaudeCode,
  codex: readCodex,
  'gemini-cli': readGeminiCli,
  cursor: readCursor,
  cline: readCline,
  'copilot-cli': readCopilotCli,
  windsurf: readWindsurf,
};

/** Every host's configured servers and linkgate hooks under `places`, each judged: gated or not, and why. */
export async function runDoctor(places: ConfigPlaces, options: DoctorOptions = {}): Promise<DoctorReport> {
  const allowObserve = options.allowObserve === true;
  const requireSigned = options.requireSigned === true;
  const inventories = await Promise.all(doctorHosts.map((host) => readers[host](places)));
  const problems = inventories.flatMap((i) => i.problems);
  // one load per policy and review: hooks of every event and many proxies usually share one
  const loaded = new Map<string, Promise<PolicyStatus>>();
  // the loaded policies, for what a host's hooks cannot enforce of them (host-blind-spots.ts)
  const policies = new WeakMap<PolicyStatus, Policy>();
  const status: PolicyOf = (invocation, env, cwd = places.cwd) => {
    const key = JSON.stringify([
      cwd,
      invocation.policy,
      invocation.allowedSigners,
      invocation.minSigners,
      invocation.strictFiles,
      env[allowedSignersEnv],
    ]);
    let found = loaded.get(key);
    if (found === undefined) {
      let kept: Policy | undefined;
      found = policyStatus(invocation, cwd, env, (p) => (kept = p)).then((s) => {
        if (kept !== undefined) policies.set(s, kept);
        return s;
      });
      loaded.set(key, found);
    }
    return found;
  };
  const blindSpotsOf = (host: DoctorHost, policy: PolicyStatus, phase: ConfiguredHook['phase']): string[] => {
    const kept = policies.get(policy);
    const serverCheck = kept !== undefined && phase === 'pre' ? serverCheckLine(host, kept) : undefined;
    if (serverCheck !== undefined) return [...blindSpotLines(host, policy, kept), serverCheck];
    return blindSpotLines(host, policy, kept);
  };
  const blindSpotLines = (host: DoctorHost, policy: PolicyStatus, kept: Policy | undefined): string[] => {
    const line = kept === undefined ? null : hookBlindSpotLine(host, kept);
    const dropped = kept === undefined ? [] : droppedDefaults(kept.consumers);
    return [...(line === null ? [] : [line]), ...(dropped.length === 0 ? [] : [droppedConsumersLine(policy, dropped)])];
  };
  const problemOf = (policy: PolicyStatus) => policyProblem(policy, requireSigned);
  // the folders each host's agent may write, read once per host
  const writable = new Map<DoctorHost, Promise<WritableFolder[]>>();
  const writableOf: WritableOf = (host) => {
    let found = writable.get(host);
    if (found === undefined) writable.set(host, (found = agentWritableFolders(host, places)));
    return found;
  };
  const hooks: HookReport[] = [];
  for (const hook of inventories.flatMap((i) => i.hooks)) {
    const report = await hookReport(hook, places, status, problemOf, blindSpotsOf, writableOf);
    if (report !== undefined) hooks.push(report);
  }
  const configured = inventories.flatMap((i) => i.servers);
  // the tools of each server a linkgate hook of its host may gate, listed at once (each start is bounded)
  const tools = await Promise.all(
    configured.map((server): Promise<ServerTools | undefined> => {
      const hookGated =
        server.enabled &&
        linkgateInvocation(server.argv, places.cwd, server.env['PATH'] ?? places.env['PATH'])?.subcommand !== 'proxy' &&
        hooks.some((h) => h.host === server.host);
      if (!hookGated || options.startServers === false) return Promise.resolve(undefined);
      // a project's files may come from anyone (a cloned repository): doctor runs no command they declare
      if (server.scope === 'project')
        return Promise.resolve({ unknown: "declared in the project's files: doctor starts no such server" });
      return listServerTools(server, places.cwd, places.env);
    }),
  );
  const servers: ServerReport[] = [];
  for (const [i, server] of configured.entries()) {
    const report = await serverReport(server, hooks, places, status, problemOf, tools[i], writableOf);
    // a verdict from the files only: what the host is started with is not seen, and said so
    const judged = report.state === 'gated' || report.state === 'partly-gated' || report.state === 'observe';
    servers.push(judged ? { ...report, unseen: unseenLaunch(report.host) } : report);
  }
  const fine = (s: ServerReport) =>
    s.state === 'gated' || s.state === 'disabled' || (allowObserve && s.state === 'observe');
  const ok = servers.every(fine) && hooks.every((h) => h.runs) && problems.length === 0;
  return { version: 2, cwd: places.cwd, allowObserve, requireSigned, servers, hooks, problems, ok };
}

type ProblemOf = (policy: PolicyStatus) => string | undefined;
type WritableOf = (host: DoctorHost) => Promise<WritableFolder[]>;

// what every front end shares: an entry that is linkgate's, a usable policy, a records file that can be written
function frontEndProblems(
  invocation: LinkgateInvocation,
  policy: PolicyStatus,
  records: RecordsHealth | undefined,
  problemOf: ProblemOf,
): string[] {
  const problems: string[] = [];
  if (!invocation.bundleExists) problems.push(`linkgate entry \`${invocation.bundle}\` is not there`);
  if (invocation.entryProblem !== undefined) problems.push(invocation.entryProblem);
  if (invocation.argProblem !== undefined) problems.push(invocation.argProblem);
  const policyLine = problemOf(policy);
  if (policyLine !== undefined) problems.push(policyLine);
  if (records?.problem !== undefined) problems.push(records.problem);
  return problems;
}

// the variables that make node (or the loader under it) run other code before linkgate
const codeLoading = ['NODE_OPTIONS', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES'] as const;

/**
 * What the environment a front end starts in makes it run before linkgate (NODE_OPTIONS, LD_PRELOAD): the entry's own
 * `env` (`own`, what the host's settings give it), over the environment doctor itself runs in (`inherited`). Doctor
 * does not see the host's environment; a host started from the shell doctor runs in hands that shell's variables to
 * its hooks and servers, so a preload there counts as one of the host's (set the variable in the entry's `env` to
 * override it). A value is judged wherever it comes from; the line says where.
 */
function environmentProblems(
  own: Readonly<Record<string, string>>,
  inherited: Readonly<Record<string, string | undefined>>,
  unknown: string | undefined,
): string[] {
  const lines = unknown === undefined ? [] : [unknown];
  for (const name of codeLoading) {
    const mine = own[name] !== undefined;
    const value = mine ? own[name] : inherited[name];
    if (value === undefined || value === '') continue;
    const where = mine
      ? `\`${name}\` of its environment`
      : `\`${name}\` of the environment doctor runs in (a host started from it hands it on; the entry's \`env\` can set it)`;
    const line = name === 'NODE_OPTIONS' ? preloadProblem(where, value) : `${where} loads other code first`;
    if (line !== undefined) lines.push(line);
  }
  return lines;
}

// the variables of `env` named in `names` (all of them when there is no list): what a host that hands on only those
// gives a process it starts
function handedOn(
  env: Readonly<Record<string, string | undefined>>,
  names: readonly string[] | undefined,
): Readonly<Record<string, string | undefined>> {
  if (names === undefined) return env;
  return Object.fromEntries(names.filter((n) => env[n] !== undefined).map((n) => [n, env[n]]));
}

const observeLine = (what: string) =>
  `${what} runs in \`--mode observe\`: it records, but blocks and withholds nothing`;

// a hook handler that runs linkgate, judged; undefined for any other hook
type PolicyOf = (
  invocation: LinkgateInvocation,
  env: Readonly<Record<string, string | undefined>>,
  cwd?: string,
) => Promise<PolicyStatus>;

async function hookReport(
  hook: ConfiguredHook,
  places: ConfigPlaces,
  status: PolicyOf,
  problemOf: ProblemOf,
  blindSpotsOf: (host: DoctorHost, policy: PolicyStatus, phase: ConfiguredHook['phase']) => string[],
  writableOf: WritableOf,
): Promise<HookReport | undefined> {
  if (hook.resident !== undefined) return residentHookReport(hook, hook.resident.problems, problemOf);
  // the words as the host's shell gets them: the host's own project variables expanded (hook-variables.ts)
  const expanded = hook.viaShell === true ? hookCommandWords(hook.host, hook.command, places.cwd, hook.env) : undefined;
  const argv = expanded?.words ?? hook.argv;
  const invocation = linkgateInvocation(argv, places.cwd, places.env['PATH']);
  if (invocation?.subcommand !== 'hook') return undefined;
  // any other variable is the host's environment's: what a path holding one names is not known, and is not checked
  const unexpanded = [...new Set(expanded?.unknown.filter((u) => u !== undefined) ?? [])];
  const unknown = (value: string | undefined) =>
    value !== undefined && unexpanded.some((v) => value.includes(v)) ? value : undefined;
  const notKnown = (what: string, value: string) =>
    `doctor cannot tell what ${what} \`${value}\` names: ${unexpanded.map((v) => `\`${v}\``).join(', ')} ${unexpanded.length === 1 ? 'is' : 'are'} expanded from the host's environment, which doctor does not see, so the hook is not known to gate`;
  const policyUnknown = unknown(invocation.policy) ?? unknown(invocation.allowedSigners);
  const policy: PolicyStatus =
    policyUnknown === undefined
      ? await status(invocation, places.env)
      : {
          review: 'unknown',
          message: notKnown(policyUnknown === invocation.policy ? '`--policy`' : '`--allowed-signers`', policyUnknown),
        };
  const recordsUnknown = unknown(invocation.records);
  const stateUnknown = unknown(invocation.state);
  const bundleUnknown = unknown(invocation.bundle);
  const records =
    invocation.records === undefined || recordsUnknown !== undefined
      ? undefined
      : recordsAgentWritable('hook', recordsHealth(invocation.records, places.cwd), await writableOf(hook.host));
  const problems: string[] = [];
  if (hook.blocked !== undefined) problems.push(hook.blocked);
  if (hook.notGating !== undefined) problems.push(hook.notGating);
  if (invocation.host !== hook.host)
    problems.push(`runs \`linkgate hook ${invocation.host ?? ''}\` in ${hook.host}: the event formats differ`);
  if (bundleUnknown !== undefined) problems.push(notKnown('its linkgate entry', bundleUnknown));
  const { entryProblem: _entry, ...unchecked } = invocation;
  const entry = bundleUnknown === undefined ? invocation : { ...unchecked, bundleExists: true };
  problems.push(...frontEndProblems(entry, policy, records, problemOf));
  if (recordsUnknown !== undefined) problems.push(notKnown('`--records`', recordsUnknown));
  if (stateUnknown !== undefined) problems.push(notKnown('`--state`', stateUnknown));
  // the hook refuses a state folder an agent could have put elsewhere, or others can write: every event fails closed
  else problems.push(...stateFolderLines(invocation.state, places.cwd, { ...places.env, ...hook.env }, places.home));
  problems.push(...environmentProblems(hook.env ?? {}, places.env, hook.envProblem));
  const { blocked: _, notGating: __, env: ___, envProblem: ____, viaShell: _____, ...configured } = hook;
  // a hook seeing tool results remembers refusals in its state folder: held only where the agent's shell cannot write it
  const memory =
    hook.phase === 'post' && stateUnknown === undefined
      ? await refusalMemoryNotHeld(hook.host, invocation.state, places, { ...places.env, ...hook.env })
      : undefined;
  return {
    ...configured,
    argv,
    // settings in force the host never shows its hooks (declared size, type): the proxy enforces them
    warnings: [
      ...hook.warnings,
      ...blindSpotsOf(hook.host, policy, hook.phase),
      ...codeCacheLines(invocation, places.env),
      // named again on each server it gates, which it then does not: the agent can rewrite it
      ...agentWritableLines('hook', invocation, policy, await writableOf(hook.host)),
      ...(records?.agentWritable === undefined ? [] : [records.agentWritable]),
      ...(memory === undefined ? [] : [refusalMemoryLine(memory)]),
    ],
    ...(memory === undefined ? {} : { refusalMemory: memory }),
    bundle: invocation.bundle,
    bundleExists: invocation.bundleExists,
    policy,
    mode: invocation.mode,
    ...(records === undefined ? {} : { records }),
    runs: problems.length === 0,
    problems,
  };
}

// a command hook before a read decides the server check (`links.requireSameServer`) from its state folder, which the
// gated agent (the same user) can delete: the session is then a new one to the hook (docs/resident-hook.md, "the
// server check, and which set-up holds it")
function serverCheckLine(host: DoctorHost, policy: Policy): string | undefined {
  if (!policy.link.requireSameServer || policy.link.requireDiscovered) return undefined;
  const resident = host === 'claude-code' ? "claude code's resident hook (`linkgate resident`) or " : '';
  return `\`links.requireSameServer\` rests on the hook's state folder, which the agent can delete: a link another server returned then reads from any server; ${resident}\`hook.requireDiscovered: true\` holds it (docs/resident-hook.md)`;
}

// the resident server's policy is its own (`linkgate resident --policy`, read by the service user): doctor, run as
// the gated user, does not see it
const residentPolicy: PolicyStatus = {
  review: 'not-checked',
  message: "the resident server's own (its `--policy`): doctor does not see it from here",
};

// a resident http hook before a read (docs/resident-hook.md): it gates reads when every condition holds
function residentHookReport(hook: ConfiguredHook, conditions: readonly string[], problemOf: ProblemOf): HookReport {
  const problems: string[] = [];
  if (hook.blocked !== undefined) problems.push(hook.blocked);
  if (hook.notGating !== undefined) problems.push(hook.notGating);
  problems.push(...conditions.map((why) => `the http hook is not as safe as the command hook: ${why}`));
  if (problemOf(residentPolicy) !== undefined)
    problems.push(
      "the resident server's policy is its own: doctor cannot check its review (run the server with `--allowed-signers`)",
    );
  const { blocked: _, notGating: __, viaShell: ___, resident, ...configured } = hook;
  return {
    ...configured,
    // it keeps what the session refused in its server's memory when results are posted to it too
    ...(resident?.learns === true ? { learns: true } : {}),
    bundle: hook.command,
    bundleExists: true,
    policy: residentPolicy,
    mode: 'enforce',
    runs: problems.length === 0,
    problems,
  };
}

// a consumer profile written short: what it leaves out of the default is not judged (`linkgate lint` names the line)
function droppedConsumersLine(policy: PolicyStatus, dropped: readonly string[]): string {
  return `the policy${policy.file === undefined ? '' : ` \`${policy.file}\``} leaves ${dropped.map((id) => `\`${id}\``).join(', ')} out of \`content.consumers\` (lint.consumers-dropped): bodies only ${dropped.length === 1 ? 'it reads are' : 'they read are'} not judged for ${dropped.length === 1 ? 'it' : 'them'}`;
}

// a per-event start (`linkgate-cached.cjs`) whose code cache does not match the bundle, this node or the flags: slower,
// never wrong (the bundle compiles as usual), so a warning
function codeCacheLines(invocation: LinkgateInvocation, env: Readonly<Record<string, string | undefined>>): string[] {
  if (basename(invocation.bundle) !== cachedEntryName || invocation.entryProblem !== undefined) return [];
  if (!invocation.bundleExists) return [];
  const line = staleCodeCacheLine(invocation.bundle, invocation.nodeFlags ?? [], env);
  return line === null ? [] : [line];
}

async function serverReport(
  server: ConfiguredServer,
  hooks: readonly HookReport[],
  places: ConfigPlaces,
  status: PolicyOf,
  problemOf: ProblemOf,
  listed: ServerTools | undefined,
  writableOf: WritableOf,
): Promise<ServerReport> {
  const base = {
    host: server.host,
    name: server.name,
    scope: server.scope,
    file: server.file,
    transport: server.argv.length > 0 ? ('stdio' as const) : ('remote' as const),
    target: server.argv.length > 0 ? server.argv.join(' ') : (server.url ?? ''),
  };
  if (!server.enabled) {
    const problems = server.disabledBy === undefined ? [] : [server.disabledBy];
    return { ...base, gate: 'disabled', state: 'disabled', gated: false, records: [], policies: [], problems };
  }

  // a bare command is looked up on the PATH the entry's own `env` gives it, when it sets one (as the host's spawn does);
  // its relative paths resolve in the folder the host starts it in (the entry's `cwd`, when its host reads one)
  const cwd = server.cwd ?? places.cwd;
  const invocation = linkgateInvocation(server.argv, cwd, server.env['PATH'] ?? places.env['PATH']);
  if (invocation?.subcommand === 'proxy') {
    // what of doctor's environment the host hands the proxy (Codex: a fixed list, not NODE_OPTIONS)
    const inherited = handedOn(places.env, server.inherits);
    // the proxy reads LINKGATE_ALLOWED_SIGNERS from the environment the host gives it
    const policy = await status(invocation, { ...inherited, ...server.env }, cwd);
    const records =
      invocation.records === undefined
        ? undefined
        : recordsAgentWritable('proxy', recordsHealth(invocation.records, cwd), await writableOf(server.host));
    const problems = frontEndProblems(invocation, policy, records, problemOf);
    problems.push(...environmentProblems(server.env, inherited, server.envProblem));
    problems.push(...agentWritableLines('proxy', invocation, policy, await writableOf(server.host)));
    const observing = problems.length === 0 && invocation.mode === 'observe';
    if (invocation.mode === 'observe') problems.push(observeLine('the proxy'));
    return {
      ...base,
      gate: 'proxy',
      ...verdict(problems, observing),
      mode: invocation.mode,
      // a proxy that cannot start takes the server with it
      failMode: 'closed',
      records: records === undefined ? [] : [records],
      policies: [policy],
      problems,
    };
  }

  const host = hostDescriptions[server.host];
  const names = listed !== undefined && 'names' in listed ? listed.names : undefined;
  // a server that says its list will change (`tools.listChanged`) may add any name after doctor lists it: its names
  // and every sample name must be covered, so only a matcher over its whole namespace counts
  const changing = listed !== undefined && 'names' in listed && listed.changing === true;
  const read = coveredTools(host, 'pre', server.name, names);
  const tools = new Set([
    ...coveredTools(host, 'post', server.name, names).slice(read.length),
    ...(changing ? coveredTools(host, 'post', server.name, undefined).slice(read.length) : []),
  ]);
  const needs = { pre: read, bodies: read, results: [...tools] };
  const mine = hooks.filter(
    (h) =>
      h.host === server.host &&
      (h.phase === 'pre' || h.phase === 'post') &&
      [...needs.pre, ...needs.results].some((t) => host.matcherCovers(h.matcher, t)),
  );
  if (mine.length === 0)
    return {
      ...base,
      gate: 'none',
      state: 'not-gated',
      gated: false,
      records: [],
      policies: [],
      problems: [`no linkgate proxy in front of it and no linkgate hook of ${server.host} covers it`],
      ...(listed === undefined ? {} : { tools: listed }),
    };
  // what the hooks in `list` leave unseen: reads before they happen, the bodies read, the tool results
  const gaps = (list: readonly HookReport[]) => {
    const seen = (phase: 'pre' | 'post', names: readonly string[]) =>
      names.every((t) => list.some((h) => h.phase === phase && host.matcherCovers(h.matcher, t)));
    const missing: string[] = [];
    if (!seen('pre', needs.pre)) missing.push('no linkgate hook that runs sees its reads before they happen');
    const unseen = needs.results.filter((t) => !seen('post', [t]));
    const unseenListed = unseen.filter((t) => names?.some((n) => host.tools.mcpTool(server.name, n) === t));
    if (unseenListed.length > 0)
      missing.push(
        `no linkgate hook that runs sees the results of its tools ${unseenListed.map((t) => `\`${t}\``).join(', ')}`,
      );
    if (unseen.length > unseenListed.length)
      missing.push(
        names === undefined
          ? 'no linkgate hook that runs sees its tool results'
          : 'it declares its tool list may change (`tools.listChanged`) and no linkgate hook that runs sees the results of every tool it may add (a matcher over its whole namespace does)',
      );
    if (!seen('post', needs.bodies)) missing.push('no linkgate hook that runs sees the bodies it reads');
    return missing;
  };
  const running = mine.filter((h) => h.runs);
  const enforcing = running.filter((h) => h.mode === 'enforce');
  const problems = gaps(running);
  // and why the hooks that would cover it do not run (untrusted in codex, switched off…), once per reason
  if (problems.length > 0)
    for (const reason of new Set(mine.filter((h) => !h.runs).flatMap((h) => h.problems.slice(0, 1))))
      problems.push(`its linkgate hooks will not run: ${reason}`);
  // a hook whose policy or code the agent's shell can rewrite gates nothing the agent wants through
  const folders = await writableOf(server.host);
  const rewritable = enforcing.flatMap((h) => agentWritableLines('hook', h, h.policy, folders));
  problems.push(...new Set(rewritable.map((line) => `its linkgate hook: ${line}`)));
  // enforcing hooks must cover everything on their own; observing hooks beside them change nothing
  const observing = problems.length === 0 && gaps(enforcing).length > 0;
  const mode: GateMode =
    observing || (enforcing.length === 0 && running.some((h) => h.mode === 'observe')) ? 'observe' : 'enforce';
  if (observing) problems.push(observeLine('its linkgate hook'));
  const gating = mode === 'enforce' ? enforcing : running;
  const policies = dedupe(gating.map((h) => h.policy));
  // hooks alone judge each event; what the session refused before is kept where the agent's shell may reach it
  const partly = problems.length === 0 && mode === 'enforce' ? memoryProblem(server, gating) : undefined;
  if (partly !== undefined) problems.push(partly);
  // what the host hands the model on a path no hook can gate (claude code's tool results with `isError: true`, measured
  // on the real binary): named with the fix, whatever the verdict, as long as hooks alone front the server
  const blind = hookBlindPaths(server.host).map(
    (p) => `its ${p.what} are not gated by any hook: ${p.why} (${p.measured}); ${proxyFix(server)} (docs/hosts.md)`,
  );
  return {
    ...base,
    gate: 'hook',
    ...(partly === undefined ? verdict(problems, observing) : { state: 'partly-gated' as const, gated: false }),
    ...(blind.length === 0 ? {} : { notGated: blind }),
    mode,
    failMode: gating.length > 0 && gating.every((h) => h.failMode === 'closed') ? 'closed' : 'open',
    records: dedupeRecords(gating.flatMap((h) => (h.records === undefined ? [] : [h.records]))),
    ...(listed === undefined ? {} : { tools: listed }),
    policies,
    problems,
  };
}

// why the hooks gating `server` do not hold what the session refused across events (a hook that sees its tool results
// keeps it in a state folder the agent's shell can write), with the fix; undefined when held: every such hook's host
// sandbox keeps the shell out, or claude code's resident server keeps it in its own memory (it learns from results)
function memoryProblem(server: ConfiguredServer, gating: readonly HookReport[]): string | undefined {
  if (gating.some((h) => h.learns === true)) return undefined;
  const why = gating.find((h) => h.phase === 'post' && h.refusalMemory !== undefined)?.refusalMemory;
  if (why === undefined) return undefined;
  const fix = sandboxFix[server.host];
  return `its linkgate hooks judge each event, but not against what the session refused before: ${why}; ${proxyFix(server)}${fix === undefined ? '' : `, ${fix}`} (docs/hooks.md)`;
}

// the fix for what hooks alone leave open: the printed set-up with the proxy in front of the server, hooks kept
function proxyFix(server: ConfiguredServer): string {
  return `put \`linkgate proxy\` in front of it (\`linkgate hook ${server.host} --print-config --server ${server.name} -- COMMAND\` prints it beside the hooks)`;
}

// observe only when observing is the one thing wrong
function verdict(problems: readonly string[], observing: boolean): Pick<ServerReport, 'state' | 'gated'> {
  if (problems.length === 0) return { state: 'gated', gated: true };
  return observing ? { state: 'observe', gated: false } : { state: 'not-gated', gated: false };
}

function dedupeRecords(list: readonly RecordsHealth[]): RecordsHealth[] {
  return [...new Map(list.map((r) => [r.file, r])).values()];
}

function dedupe(policies: readonly PolicyStatus[]): PolicyStatus[] {
  const seen = new Map<string, PolicyStatus>();
  for (const p of policies) seen.set(`${p.file ?? ''}\n${p.allowedSigners ?? ''}`, p);
  return [...seen.values()];
}
