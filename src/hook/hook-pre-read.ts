import { deny, reason } from '../decision/deny.ts';
import { quoteValue } from '../decision/quote-value.ts';
import {
  cappedLink,
  discoverLink,
  linkRefused,
  readFailed,
  sendRead,
  skipRead,
  startLink,
} from '../flow/link-steps.ts';
import { gateNotice, stepSubject } from '../flow/gate-notice.ts';
import { MessageLedger } from '../flow/message-ledger.ts';
import { type HookContext, type HookStep, linkContext, modeOf, nowOf, save, saveProvisional } from './hook-context.ts';
import type { HookAnswer, HookEvent } from './hook-event.ts';
import { readNotice } from './read-notice.ts';
import type { SessionState } from './session-state.ts';

/** Server id the host's own web fetch tool is judged as (name it in `links.servers` to let it through a server list). */
export const webFetchServer = 'web-fetch';

/** The provisional record's reason: the read was let through and no post event reached the hook after it. */
const noOutcome = 'no outcome of the read reached the hook: the host refused it or it failed before its post event';

/** One event of a resource read: the read call, its id across the pre and post events, and the session's state. */
export interface ReadEvent {
  event: HookEvent;
  call: { server: string | null; uri: string };
  /** the tool-use id, or the server and uri when the host gives none */
  callId: string;
  state: SessionState;
  context: HookContext;
}

/** Before the host reads: the link decision; a refused link is denied with the notice, else the read is pending. */
export async function readRequested(r: ReadEvent): Promise<HookAnswer> {
  const { event, call, context } = r;
  const { step, keptAll } = await decideReadLink(call.server, call.uri, r.state, context);
  if (linkRefused(step)) {
    const record = skipRead(step, 'the link was denied');
    await save(context, event, step, record);
    const notice = await readNotice('refused to read', step, step.linkDecision, record.next, r, keptAll);
    return { kind: 'deny', reason: notice };
  }
  const requested = sendRead(context.gate, step, nowOf(context));
  await r.state.putPending(r.callId, { ...step, requested });
  // until the post event says how the read went, the record says no outcome reached the hook
  const failure = { kind: 'failed', why: noOutcome, message: noOutcome } as const;
  await saveProvisional(context, event, step, readFailed(context.gate, step, requested, failure).record);
  return { kind: 'none' };
}

/** A read's first step, and whether the session's state kept every link its events returned (`ReadState.keptAll`). */
export interface ReadLink {
  step: HookStep;
  keptAll: boolean;
}

/** The flow's first step for reading `uri` from `server`, with what the session saw of the link (one listing). */
export async function decideReadLink(
  readServer: string | null,
  uri: string,
  state: SessionState,
  context: HookContext,
): Promise<ReadLink> {
  const { seen, lost, overflow, keptAll } = await state.forRead(uri, context.budget);
  // a uri several servers returned reads from each of them (two file servers sharing a folder), as the reading server
  // returned it first; from a server that did not return it, it is judged as the first server's link. An event added
  // later (one posted with the resident server's secret) adds a server, never takes one away: entries are never
  // replaced (`SessionState.addSeen`)
  const origin = seen.find((entry) => entry.server === readServer) ?? seen[0];
  // a uri the session never kept may be a link the state could not keep (over its per-event cap): it is judged as a
  // link of a server that returned such links, another one than the reader when there is one (never looser)
  const keptBy = origin?.server ?? overflow.find((s) => s !== readServer) ?? overflow[0];
  // a host that finds the server by the uri reads from the server that returned or listed it
  const server = readServer ?? keptBy ?? 'default';
  const link = origin?.link ?? { type: 'resource_link', uri, name: uri };
  const input = {
    link,
    discovered: origin?.discovered ?? discoverLink(link, null, linkContext(keptBy ?? server, null), nowOf(context)),
    linkServer: keptBy ?? server,
    readFrom: server,
    seen: origin !== undefined,
    mode: modeOf(context),
  };
  // a state that lost what it held (`markLost`) cannot tell a link no tool returned from one another server did
  if (lost !== undefined) {
    const why = `the session's state does not hold the uri and lost what it held: ${quoteValue(lost)}`;
    const denied = deny(context.gate.policy, reason('hook.state-lost', 'hook.state', 'link', why));
    return { step: { ...cappedLink(input, denied), discoveredBy: null }, keptAll };
  }
  const step = await startLink(context.gate, input);
  return { step: { ...step, discoveredBy: origin?.toolUseId ?? null }, keptAll };
}

/** Before the host's own web fetch: the link rules for each url, judged as server `web-fetch`. */
export async function judgeWebFetch(
  event: HookEvent,
  urls: readonly string[],
  context: HookContext,
): Promise<HookAnswer> {
  if (context.gate.policy.document.hook?.webFetch === false) return { kind: 'none' };
  const tool = (event.call.kind === 'web-fetch' ? event.call.tool : undefined) ?? 'WebFetch';
  for (const url of urls) {
    const link = { type: 'resource_link', uri: url, name: url };
    // the host's own fetcher reads it, not an MCP server: no `readFrom`
    const step = await startLink(context.gate, {
      link,
      discovered: discoverLink(link, null, linkContext(webFetchServer, tool), nowOf(context)),
      linkServer: webFetchServer,
      readFrom: null,
      mode: modeOf(context),
    });
    // observe mode records the fetch it would have refused and lets it run
    if (step.linkDecision.effect !== 'deny') continue;
    const record = skipRead(step, 'the link was denied');
    await save(context, event, step, record);
    if (!linkRefused(step)) continue;
    // the event's ledger is the fetched url (the name a notice would show is that url, which it never shows)
    const subject = { ...stepSubject(step), refused: MessageLedger.of([url]) };
    return { kind: 'deny', reason: gateNotice('refused to fetch', subject, step.linkDecision, record.next) };
  }
  return { kind: 'none' };
}
