import type { Decision } from '../decision/decision.ts';
import { isRecord } from '../decision/json-value.ts';
import { quoteValue } from '../decision/quote-value.ts';
import { decisionMetaKey } from './decision-meta.ts';
import { schemeOf, shownDecision } from './gate-notice.ts';
import type { Gate } from '../gate/create-gate.ts';
import type { LinkContext } from '../record/build-stages.ts';
import type { LinkRecord } from '../record/link-record.ts';
import {
  discoverLink,
  type FlowMode,
  type LinkStep,
  linkRefused,
  skipRead,
  startLink,
  uriReading,
} from './link-steps.ts';
import { recordRef } from './record-ref.ts';

// A URL-mode elicitation asks the host to open a url the server chose (an auth page, say): the url reaches the user's
// browser, so it is a link like any other and gets the link decision. It comes as a server's `elicitation/create`
// request (2025-11-25) or inside an `input_required` result of `tools/call`, `prompts/get` or `resources/read`
// (`inputRequests`, MCP 2026-07-28). A refused url is never handed to the host: the request is declined for the host
// (2025) or the result is replaced by the gate's answer (2026); the notice names the scheme, never the url. Each url a
// front end judges also gets a record, as a link does (`elicitationSteps`, `elicitationRecord`): observe mode leaves
// the trace of a would-be refusal, and enforce mode the record a refusal's notice names.

/** The `contentType` of the discovered stage of a url a URL-mode elicitation asked the host to open. */
export const elicitationContentType = 'elicitation';

/** The link an elicitation url is judged as: a `resource_link` named `elicitation`. */
function elicitationLink(found: UrlElicitation): Record<string, string> {
  return { type: 'resource_link', uri: found.url, name: 'elicitation' };
}

/** A URL-mode elicitation found in a message: the url to judge. */
export interface UrlElicitation {
  readonly url: string;
}

/** The URL-mode elicitations of an `elicitation/create` request's params (one, or none). */
export function urlElicitationOf(params: unknown): UrlElicitation[] {
  if (!isRecord(params) || params['mode'] !== 'url') return [];
  // a url-mode request without a string url cannot be opened safely either: judged as the empty uri (denied)
  return [{ url: typeof params['url'] === 'string' ? params['url'] : '' }];
}

/** Whether a result is an `input_required` result (MCP 2026-07-28). */
export function isInputRequired(result: unknown): result is Record<string, unknown> {
  return isRecord(result) && result['resultType'] === 'input_required';
}

// what an `input_required` answer is made of (a result, or a Tasks-extension task awaiting input): anything else a
// server adds beside its elicitations (content, structuredContent, messages, a task's result) is not passed on, so
// nothing reaches the host unjudged through an answer whose only judged part is its urls
const inputRequiredMembers = new Set(['resultType', 'inputRequests', 'requestState', '_meta']);
const taskAwaitingInputMembers = new Set([
  ...inputRequiredMembers,
  'taskId',
  'status',
  'statusMessage',
  'createdAt',
  'lastUpdatedAt',
  'ttl',
  'ttlMs',
  'pollInterval',
  'pollIntervalMs',
]);

/** An `input_required` result (or a task awaiting input) with only the members such an answer is made of. */
export function inputRequiredOnly(result: Record<string, unknown>, task: boolean): Record<string, unknown> {
  const members = task ? taskAwaitingInputMembers : inputRequiredMembers;
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(result)) if (members.has(key)) kept[key] = result[key];
  return kept;
}

/** The URL-mode elicitations among an `input_required` result's `inputRequests`. */
export function inputRequestUrls(result: Record<string, unknown>): UrlElicitation[] {
  const requests = result['inputRequests'];
  if (!isRecord(requests)) return [];
  const found: UrlElicitation[] = [];
  for (const request of Object.values(requests))
    if (isRecord(request) && request['method'] === 'elicitation/create')
      found.push(...urlElicitationOf(request['params']));
  return found;
}

/** The first refusal among the urls' link decisions (made side by side), or null when every url is allowed. */
export async function refusedElicitation(
  gate: Gate,
  server: string,
  found: readonly UrlElicitation[],
): Promise<{ decision: Decision; scheme: string } | null> {
  const decisions = await Promise.all(
    found.map((f) =>
      gate.decide({
        stage: 'link',
        server,
        readFrom: server,
        link: { type: 'resource_link', uri: f.url, name: 'elicitation' },
      }),
    ),
  );
  const index = decisions.findIndex((d) => d.effect === 'deny');
  const decision = decisions[index];
  if (decision === undefined) return null;
  return { decision, scheme: schemeOf(found[index]?.url ?? '') };
}

/** Where the urls of one message were found, for their records: the connection's context, when, and the mode. */
export interface ElicitationSource {
  context: LinkContext;
  at: Date;
  mode: FlowMode;
}

/**
 * The link step of each url (side by side): its link decision, with a discovered stage of content type `elicitation`
 * (no content index), from the connection that sent it. Never throws: a gate that fails is a deny (`startLink`).
 */
export function elicitationSteps(
  gate: Gate,
  found: readonly UrlElicitation[],
  source: ElicitationSource,
): Promise<LinkStep[]> {
  return Promise.all(
    found.map((f) => {
      const link = elicitationLink(f);
      const reading = uriReading(link);
      const discovered = {
        ...discoverLink(link, null, source.context, source.at, reading),
        contentType: elicitationContentType,
      };
      return startLink(gate, { link, discovered, reading, linkServer: source.context.server, mode: source.mode });
    }),
  );
}

/** The record of a judged elicitation url: `link-only` (the gate never sees the host open it), refused or not. */
export function elicitationRecord(step: LinkStep): LinkRecord {
  return skipRead(step, 'the server asked the host to open this url (url-mode elicitation); the gate reads no body');
}

/** A refused elicitation: its decision, its url's scheme and the ref of its record. */
export interface RefusedElicitation {
  decision: Decision;
  /** the decision as its notice may show it (`shownDecision`): what travels beside the notice */
  shown: Decision;
  scheme: string;
  ref: string | null;
}

/** The first url among `steps` whose link decision refuses it (enforce mode), or null when none is refused. */
export function refusedElicitationStep(steps: readonly LinkStep[]): RefusedElicitation | null {
  const step = steps.find(linkRefused);
  if (step === undefined) return null;
  const url = step.link?.uri ?? step.discovered.uri;
  return {
    decision: step.linkDecision,
    shown: shownDecision(step.linkDecision, url),
    scheme: schemeOf(url),
    ref: recordRef(step.discovered),
  };
}

/**
 * The line that stands for a refused elicitation url: its scheme, the reason codes, its record's ref (when it has a
 * record) and the policy; never the url.
 */
export function refusedElicitationNotice(decision: Decision, scheme: string, ref: string | null = null): string {
  const codes = [...new Set(decision.reasons.map((r) => r.code))].join(', ') || decision.effect;
  const record = ref === null ? '' : `record ${quoteValue(ref)}; `;
  return `linkgate refused the url the server asked the host to open (scheme ${quoteValue(scheme)}): ${codes} [${record}policy \`${decision.policy.id}\` ${decision.policy.version}]`;
}

/**
 * The tool result that replaces an `input_required` answer whose elicitation url was refused: the notice, as an
 * error, the decision as the notice may show it under its `_meta` (never the url, nor its host).
 */
export function refusedElicitationResult(refused: RefusedElicitation): Record<string, unknown> {
  const text = refusedElicitationNotice(refused.decision, refused.scheme, refused.ref);
  return {
    resultType: 'complete',
    content: [{ type: 'text', text, _meta: { [decisionMetaKey]: refused.shown } }],
    isError: true,
  };
}
