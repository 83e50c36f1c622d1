import type { LinkRecord } from './link-record.ts';

/** Every DESIGN §4c invariant a record breaks, as lowercase lines; `[]` when it holds them all. */
export function recordViolations(record: LinkRecord): string[] {
  const out: string[] = [];
  const { stages, decisions, verdict } = record;
  const observe = record.mode === 'observe';
  if (record.uri !== stages.discovered.uri) out.push('`uri` differs from `stages.discovered.uri`');
  if (observe) {
    const shouldWouldDeny = decisions.link.effect === 'deny' || decisions.read?.effect === 'deny';
    if (record.wouldDeny !== shouldWouldDeny) out.push('`wouldDeny` does not match the decisions');
  } else {
    if (record.wouldDeny !== undefined) out.push('`wouldDeny` outside observe mode');
    if (decisions.link.effect === 'deny') {
      if (stages.requested !== null) out.push('link denied but `requested` is filled');
      if (verdict !== 'link-only') out.push(`link denied but verdict is \`${verdict}\``);
    }
    if (verdict === 'body-obtained' && decisions.read?.effect !== 'allow')
      out.push('`body-obtained` without a read `allow`');
    if (verdict === 'partially-interpreted' && decisions.read?.effect !== 'partial')
      out.push('`partially-interpreted` without a read `partial`');
  }
  if (verdict === 'body-obtained' || verdict === 'partially-interpreted') {
    if (stages.received === null) out.push(`\`${verdict}\` without \`received\``);
    if (stages.delivered === null) out.push(`\`${verdict}\` without \`delivered\``);
  }
  if ((verdict === 'link-only' || verdict === 'unverifiable') && stages.delivered !== null) {
    out.push(`\`${verdict}\` with \`delivered\` filled`);
  }
  if (verdict === 'body-obtained' && record.next !== null && record.next.boundary === 'context-assembly') {
    out.push('`body-obtained` pointing at context assembly');
  }
  if (verdict === 'body-obtained' && stages.received?.truncated === true)
    out.push('`body-obtained` with a body cut at the cap');
  const requested = stages.requested;
  if (requested !== null) {
    const direct = requested.transport === 'https-direct';
    if (direct && requested.hops === undefined) out.push('a direct fetch without `hops`');
    if (!direct && requested.hops !== undefined) out.push(`\`hops\` on transport \`${requested.transport}\``);
  }
  for (const d of [decisions.link, decisions.read]) {
    if (d !== null && d.effect !== 'allow' && d.reasons.length === 0)
      out.push(`a \`${d.effect}\` decision without reasons`);
  }
  return out;
}
