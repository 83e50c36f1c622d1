import { readClaudeCode, type ConfigPlaces } from './claude-code-config.ts';
import { readCodex } from './codex-config.ts';
import { readCursor } from './cursor-config.ts';
import type {
  ConfiguredHook,
  ConfiguredServer,
  DoctorHost,
  DoctorReport,
  HookReport,
  HostInventory,
  PolicyStatus,
  ServerReport,
} from './doctor-report.ts';
import { doctorHosts } from './doctor-report.ts';
import { readGeminiCli } from './gemini-cli-config.ts';
import { coveredTool, matcherCovers } from './hook-coverage.ts';
import { type LinkgateInvocation, linkgateInvocation, shellWords } from './linkgate-invocation.ts';
import { allowedSignersEnv } from '../policy/load-policy.ts';
import { policyProblem, policyStatus, policyUsable } from './policy-status.ts';

const readers: Readonly<Record<DoctorHost, (places: ConfigPlaces) => Promise<HostInventory>>> = {
  'claude-code': readClaudeCode,
  codex: readCodex,
  'gemini-cli': readGeminiCli,
  cursor: readCursor,
};

/** Every host's configured servers and linkgate hooks under `places`, each judged: gated or not, and why. */
export async function runDoctor(places: ConfigPlaces): Promise<DoctorReport> {
  const inventories = await Promise.all(doctorHosts.map((host) => readers[host](places)));
  const problems = inventories.flatMap((i) => i.problems);
  // one load per policy and review: hooks of every event and many proxies usually share one
  const loaded = new Map<string, Promise<PolicyStatus>>();
  const status: PolicyOf = (invocation, env) => {
    const key = JSON.stringify([
      invocation.policy,
      invocation.allowedSigners,
      invocation.minSigners,
      env[allowedSignersEnv],
    ]);
    let found = loaded.get(key);
    if (found === undefined) loaded.set(key, (found = policyStatus(invocation, places.cwd, env)));
    return found;
  };
  const hooks: HookReport[] = [];
  for (const hook of inventories.flatMap((i) => i.hooks)) {
    const report = await hookReport(hook, places, status);
    if (report !== undefined) hooks.push(report);
  }
  const servers: ServerReport[] = [];
  for (const server of inventories.flatMap((i) => i.servers))
    servers.push(await serverReport(server, hooks, places, status));
  const ok =
    servers.every((s) => s.gated || s.gate === 'disabled') && hooks.every((h) => h.runs) && problems.length === 0;
  return { version: 1, cwd: places.cwd, servers, hooks, problems, ok };
}

// a hook handler that runs linkgate, judged; undefined for any other hook
type PolicyOf = (
  invocation: LinkgateInvocation,
  env: Readonly<Record<string, string | undefined>>,
) => Promise<PolicyStatus>;

async function hookReport(
  hook: ConfiguredHook,
  places: ConfigPlaces,
  status: PolicyOf,
): Promise<HookReport | undefined> {
  const invocation = linkgateInvocation(shellWords(hook.command), places.cwd, places.env['PATH']);
  if (invocation?.subcommand !== 'hook') return undefined;
  const policy = await status(invocation, places.env);
  const problems: string[] = [];
  if (hook.blocked !== undefined) problems.push(hook.blocked);
  if (invocation.host !== hook.host)
    problems.push(`runs \`linkgate hook ${invocation.host ?? ''}\` in ${hook.host}: the event formats differ`);
  if (!invocation.bundleExists) problems.push(`linkgate entry \`${invocation.bundle}\` is not there`);
  const policyLine = policyProblem(policy);
  if (policyLine !== undefined) problems.push(policyLine);
  const { blocked: _, ...configured } = hook;
  return {
    ...configured,
    bundle: invocation.bundle,
    bundleExists: invocation.bundleExists,
    policy,
    runs: problems.length === 0,
    problems,
  };
}

async function serverReport(
  server: ConfiguredServer,
  hooks: readonly HookReport[],
  places: ConfigPlaces,
  status: PolicyOf,
): Promise<ServerReport> {
  const base = {
    host: server.host,
    name: server.name,
    scope: server.scope,
    file: server.file,
    transport: server.argv.length > 0 ? ('stdio' as const) : ('remote' as const),
    target: server.argv.length > 0 ? server.argv.join(' ') : (server.url ?? ''),
  };
  if (!server.enabled) return { ...base, gate: 'disabled', gated: false, policies: [], problems: [] };

  const invocation = linkgateInvocation(server.argv, places.cwd, places.env['PATH']);
  if (invocation?.subcommand === 'proxy') {
    // the proxy reads LINKGATE_ALLOWED_SIGNERS from the environment the host gives it
    const policy = await status(invocation, { ...places.env, ...server.env });
    const problems: string[] = [];
    if (!invocation.bundleExists) problems.push(`linkgate entry \`${invocation.bundle}\` is not there`);
    const policyLine = policyProblem(policy);
    if (policyLine !== undefined) problems.push(policyLine);
    return { ...base, gate: 'proxy', gated: problems.length === 0, policies: [policy], problems };
  }

  const covering = (phase: 'pre' | 'post') =>
    hooks.filter(
      (h) =>
        h.host === server.host &&
        h.phase === phase &&
        matcherCovers(h.matcher, coveredTool(server.host, phase, server.name)),
    );
  const pre = covering('pre');
  const post = covering('post');
  if (pre.length === 0 && post.length === 0)
    return {
      ...base,
      gate: 'none',
      gated: false,
      policies: [],
      problems: [`no linkgate proxy in front of it and no linkgate hook of ${server.host} covers it`],
    };
  const problems: string[] = [];
  if (!pre.some((h) => h.runs)) problems.push(`no linkgate hook that runs sees its reads before they happen`);
  if (!post.some((h) => h.runs)) problems.push(`no linkgate hook that runs sees its tool results`);
  const policies: PolicyStatus[] = [...pre, ...post].filter((h) => h.runs).map((h) => h.policy);
  return {
    ...base,
    gate: 'hook',
    gated: problems.length === 0 && policies.every(policyUsable),
    policies: dedupe(policies),
    problems,
  };
}

function dedupe(policies: readonly PolicyStatus[]): PolicyStatus[] {
  const seen = new Map<string, PolicyStatus>();
  for (const p of policies) seen.set(`${p.file ?? ''}\n${p.allowedSigners ?? ''}`, p);
  return [...seen.values()];
}
