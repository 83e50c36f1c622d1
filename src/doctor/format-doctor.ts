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
      lines.push(`  ${mark(s)} ${s.name} (${s.scope}, ${short(s.file)}): ${gateText(s)}`);
      lines.push(...details(s.policies, s.problems, short));
    }
  }
  if (report.hooks.length > 0) lines.push('linkgate hooks');
  for (const h of report.hooks) {
    lines.push(`  ${h.runs ? '✓' : '✗'} ${h.host} ${h.event} (${short(h.file)}): ${h.runs ? 'runs' : 'will not run'}`);
    lines.push(...details([h.policy], h.problems, short));
    for (const w of h.warnings) lines.push(`      warning: ${w}`);
  }
  for (const p of report.problems) lines.push(`✗ ${p}`);
  const enabled = report.servers.filter((s) => s.gate !== 'disabled');
  const gated = enabled.filter((s) => s.gated).length;
  const disabled = report.servers.length - enabled.length;
  const notRunning = report.hooks.filter((h) => !h.runs).length;
  lines.push(
    `${enabled.length} server${enabled.length === 1 ? '' : 's'}: ${gated} gated, ${enabled.length - gated} not gated` +
      `${disabled > 0 ? `, ${disabled} disabled` : ''}; ${report.hooks.length} linkgate hook${report.hooks.length === 1 ? '' : 's'}` +
      `${notRunning > 0 ? `, ${notRunning} will not run` : ''}`,
  );
  return `${lines.join('\n')}\n`;
}

// the policy lines, then the problems a policy line does not already say
function details(
  policies: readonly PolicyStatus[],
  problems: readonly string[],
  short: (file: string) => string,
): string[] {
  const said = new Set(policies.map(policyProblem));
  return [
    ...policies.filter((p) => p.review !== 'missing').map((p) => `      policy ${policyText(p, short)}`),
    ...problems.filter((p) => !said.has(p) || policies.some((q) => q.review === 'missing')).map((p) => `      ${p}`),
  ];
}

function mark(s: ServerReport): string {
  if (s.gate === 'disabled') return '-';
  return s.gated ? '✓' : '✗';
}

function gateText(s: ServerReport): string {
  if (s.gate === 'disabled') return 'disabled in the host (never started)';
  if (s.gate === 'proxy') return s.gated ? 'gated by linkgate proxy' : 'linkgate proxy in front, but it does not gate';
  if (s.gate === 'hook')
    return s.gated ? 'gated by the linkgate hook' : 'linkgate hook configured, but it does not gate';
  return 'not gated';
}

function policyText(p: PolicyStatus, short: (file: string) => string): string {
  const file = p.file === undefined ? '(none)' : short(p.file);
  const signers = p.allowedSigners === undefined ? '' : ` against ${short(p.allowedSigners)}`;
  const review = {
    verified: `review verified${signers}`,
    unverified: `review does not verify${signers}: ${p.message}`,
    'not-checked': 'review not checked (no allowed signers)',
    'does-not-load': `does not load: ${p.message}`,
    missing: 'missing',
  }[p.review];
  return `${file}: ${review}`;
}
