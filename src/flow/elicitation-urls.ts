import type { Decision } from '../decision/decision.ts';
import { isRecord } from '../decision/json-value.ts';
import { quoteValue } from '../decision/quote-value.ts';
import { decisionMetaKey } from './decision-meta.ts';
import type { Gate } from '../gate/create-gate.ts';

// A URL-mode elicitation asks the host to open a url the server chose (an auth page, say): the url reaches the user's
// browser, so it is a link like any other and gets the link decision. It comes as a server's `elicitation/create`
// request (2025-11-25) or inside an `input_required` result of `tools/call`, `prompts/get` or `resources/read`
// (`inputRequests`, MCP 2026-07-28). A refused url is never handed to the host: the request is declined for the host
// (2025) or the result is replaced by the gate's answer (2026); the notice names the scheme, never the url.

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

/** The line that stands for a refused elicitation url: its scheme, the reason codes and the policy; never the url. */
export function refusedElicitationNotice(decision: Decision, scheme: string): string {
  const codes = [...new Set(decision.reasons.map((r) => r.code))].join(', ') || decision.effect;
  return `linkgate refused the url the server asked the host to open (scheme ${quoteValue(scheme)}): ${codes} [policy \`${decision.policy.id}\` ${decision.policy.version}]`;
}

/** The tool result that replaces an `input_required` answer whose elicitation url was refused: the notice, as an error. */
export function refusedElicitationResult(decision: Decision, scheme: string): Record<string, unknown> {
  const text = refusedElicitationNotice(decision, scheme);
  return {
    resultType: 'complete',
    content: [{ type: 'text', text, _meta: { [decisionMetaKey]: decision } }],
    isError: true,
  };
}

function schemeOf(url: string): string {
  return /^[A-Za-z][A-Za-z0-9+.-]*(?=:)/.exec(url.trimStart())?.[0]?.toLowerCase() ?? '';
}
