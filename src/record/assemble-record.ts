import type { Decision } from '../decision/decision.ts';
import { decisionJson } from '../decision/decision-json.ts';
import { judgeVerdict, type ReadOutcome } from './judge-verdict.ts';
import type { LinkRecord, LinkStages } from './link-record.ts';

/** The parts a record is made of; `enforced` is false in observe mode. */
export interface RecordParts {
  stages: LinkStages;
  decisions: { link: Decision; read: Decision | null };
  outcome: ReadOutcome;
  enforced: boolean;
}

/** Builds one record in the DESIGN §4c member order; observe mode adds `mode` and `wouldDeny`, never changing a decision. */
export function assembleRecord(parts: RecordParts): LinkRecord {
  const { verdict, next } = judgeVerdict(parts);
  const decisions = {
    link: decisionJson(parts.decisions.link),
    read: parts.decisions.read === null ? null : decisionJson(parts.decisions.read),
  };
  const record: LinkRecord = {
    uri: parts.stages.discovered.uri,
    verdict,
    next,
    stages: {
      discovered: parts.stages.discovered,
      requested: parts.stages.requested,
      received: parts.stages.received,
      delivered: parts.stages.delivered,
    },
    decisions,
  };
  if (!parts.enforced) {
    record.mode = 'observe';
    record.wouldDeny = decisions.link.effect === 'deny' || decisions.read?.effect === 'deny';
  }
  return record;
}
