import { homedir } from 'node:os';
import type { DoctorReport, PolicyStatus, ServerReport } from './doctor-report.ts';
import { doctorHosts } from './doctor-report.ts';
import { policyProblem } from './policy-status.ts';

/** `linkgate doctor`'s report for people: per host its servers, then the linkgate hooks, then one summary line. */
export function formatDoctorText(report: DoctorReport, home: string = homedir()): string {
  const short = (file: string) => (file.startsWith(`${home}/`) ? `~/${file.slice(home.length + 1)}` : file);
  const lines: string[] = [];
  for (const host of doctorHosts) {
    const servers = report.servers.filter((s) => s.host === host);
    lines.push(`${host}${servers.length === 0 ? ': no mcp servers configured' : ''}`);
    for (const s of servers) {
      lines.push(`  ${mark(s)} ${s.name} (${s.scope}, ${short(s.file)}): ${gateText(s)}${failText(s)}`);
      lines.push(...details(s.policies, s.problems, short, report.requireSigned));
      for (const n of s.notGated ?? []) lines.push(`      not gated: ${n}`);
      for (const r of s.records)
        if (r.writable)
          lines.push(
            `      records ${short(r.file)}${r.agentWritable === undefined ? '' : ` (no evidence: ${r.agentWritable})`}`,
          );
      if (s.gate === 'hook' && s.tools !== undefined)
        lines.push(
          'names' in s.tools
            ? `      tools ${s.tools.names.length === 0 ? '(none)' : s.tools.names.join(', ')}${s.tools.changing === true ? ' for now (its list may change: matchers judged for every tool name)' : ''}`
            : `      tools not listed (${s.tools.unknown}): matchers judged for every tool name`,
        );
    }
    // where a server is called gated, what doctor could not see of the host's start is said once for the host
    const unseen = servers.find((s) => s.unseen !== undefined)?.unseen;
    if (unseen !== undefined) lines.push(`  note: ${unseen}`);
  }
  if (report.hooks.length > 0) lines.push('linkgate hooks');
  for (const h of report.hooks) {
    const runs = h.runs ? `runs${h.mode === 'observe' ? ', observe mode' : ''}` : 'will not run';
    lines.push(`  ${h.runs ? '✓' : '✗'} ${h.host} ${h.event} (${short(h.file)}): ${runs}; fails ${h.failMode}`);
    lines.push(...details([h.policy], h.problems, short, report.requireSigned));
    for (const w of h.warnings) lines.push(`      warning: ${w}`);
  }
  for (const p of report.problems) lines.push(`✗ ${p}`);
  const enabled = report.servers.filter((s) => s.state !== 'disabled');
  const count = (state: string) => enabled.filter((s) => s.state === state).length;
  const disabled = report.servers.length - enabled.length;
  const notRunning = report.hooks.filter((h) => !h.runs).length;
  const observing = count('observe');
  // the servers a rollout still has to fix, by name
  const named = (state: string) =>
    enabled
      .filter((s) => s.state === state)
      .map((s) => `${s.name} (${s.host})`)
      .join(', ');
  if (count('not-gated') > 0) lines.push(`not gated: ${named('not-gated')}`);
  const partly = count('partly-gated');
  if (partly > 0) lines.push(`partly gated (refusals not held across events): ${named('partly-gated')}`);
  if (observing > 0) lines.push(`observe only: ${named('observe')}`);
  lines.push(
    `${enabled.length} server${enabled.length === 1 ? '' : 's'}: ${count('gated')} gated` +
      `${partly > 0 ? `, ${partly} partly gated` : ''}` +
      `${observing > 0 ? `, ${observing} observe only${report.allowObserve ? ' (allowed)' : ''}` : ''}, ${count('not-gated')} not gated` +
      `${disabled > 0 ? `, ${disabled} disabled` : ''}; ${report.hooks.length} linkgate hook${report.hooks.length === 1 ? '' : 's'}` +
      `${notRunning > 0 ? `, ${notRunning} will not run` : ''}`,
  );
  if (count('gated') + partly > 0)
    lines.push(
      "gated as the hosts' files and this environment say: the flags and environment a host starts with are not seen",
    );
  return `${lines.join('\n')}\n`;
}

// the policy lines, then the problems a policy line does not already say
function details(
  policies: readonly PolicyStatus[],
  problems: readonly string[],
  short: (file: string) => string,
  requireSigned: boolean,
): string[] {
  const said = new Set(policies.map((p) => policyProblem(p, requireSigned)));
  return [
    ...policies.filter((p) => p.review !== 'missing').map((p) => `      policy ${policyText(p, short)}`),
    ...problems.filter((p) => !said.has(p) || policies.some((q) => q.review === 'missing')).map((p) => `      ${p}`),
  ];
}

function mark(s: ServerReport): string {
  if (s.state === 'disabled') return '-';
  if (s.state === 'observe') return '~';
  if (s.state === 'partly-gated') return '!';
  return s.gated ? '✓' : '✗';
}

function gateText(s: ServerReport): string {
  if (s.state === 'disabled') return 'disabled in the host (never started)';
  const front = s.gate === 'proxy' ? 'linkgate proxy' : 'the linkgate hook';
  if (s.state === 'gated') return `gated by ${front}`;
  if (s.state === 'observe') return `observed by ${front}, not gated (observe mode)`;
  if (s.state === 'partly-gated') return `partly gated by ${front}: each event, not what the session refused before`;
  if (s.gate === 'proxy') return 'linkgate proxy in front, but it does not gate';
  if (s.gate === 'hook') return 'linkgate hook configured, but it does not gate';
  return 'not gated';
}

function failText(s: ServerReport): string {
  if ((s.state !== 'gated' && s.state !== 'partly-gated') || s.failMode === undefined) return '';
  return s.failMode === 'closed' ? '; fails closed' : '; fails open if the hook cannot start';
}

function policyText(p: PolicyStatus, short: (file: string) => string): string {
  const file = p.file === undefined ? (p.review === 'unknown' ? '(not known)' : '(none)') : short(p.file);
  const signers = p.allowedSigners === undefined ? '' : ` against ${short(p.allowedSigners)}`;
  const review = {
    verified: `review verified${signers}`,
    unverified: `review does not verify${signers}: ${p.message}`,
    'not-checked': p.message === '' ? 'review not checked (no allowed signers)' : p.message,
    'does-not-load': `does not load: ${p.message}`,
    missing: 'missing',
    unknown: p.message,
  }[p.review];
  return `${file}: ${review}`;
}
