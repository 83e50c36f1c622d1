import type { HookContext } from './hook-context.ts';
import { resourcesListed, toolReturned } from './hook-discovery.ts';
import type { HookAnswer, HookEvent } from './hook-event.ts';
import { readFailed, readReturned } from './hook-post-read.ts';
import { judgeWebFetch, readRequested } from './hook-pre-read.ts';
import { openSessionState } from './session-state.ts';

/**
 * Judges one host hook event (DESIGN §4f), routed per host step: links returned by tools go into session state and
 * their embedded resources are judged (`hook-discovery.ts`, `hook-embedded.ts`), reads are decided before (link
 * decision, `hook-pre-read.ts`) and after (read decision over what the host received, `hook-post-read.ts`), the host's
 * web fetch gets the link rules. Throws only for i/o faults, which the command turns into exit 2 (fail closed).
 */
export async function handleHookEvent(event: HookEvent, context: HookContext): Promise<HookAnswer> {
  const { call } = event;
  if (call.kind === 'other') return { kind: 'none' };
  if (call.kind === 'web-fetch')
    return event.phase === 'pre' ? judgeWebFetch(event, call.urls, context) : { kind: 'none' };
  if (call.kind === 'mcp' || call.kind === 'list') {
    if (event.phase !== 'post') return { kind: 'none' };
    return call.kind === 'mcp'
      ? toolReturned(event, call.server, call.tool, context)
      : resourcesListed(event, call.server, context);
  }
  const state = await openSessionState(context, event.session);
  const callId = event.toolUseId ?? `${call.server ?? ''}\n${call.uri}`;
  const read = { event, call, callId, state, context };
  if (event.phase === 'pre') return readRequested(read);
  if (event.phase === 'failure') return readFailed(read);
  return readReturned(read);
}
