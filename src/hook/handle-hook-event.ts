import { randomUUID } from 'node:crypto';
import {
  discoverLink,
  judgeRead,
  type LinkStep,
  linkRefused,
  type FlowMode,
  readFailed as failedRead,
  sendRead,
  skipRead,
  startLink,
} from '../flow/link-steps.ts';
import type { Gate } from '../gate/create-gate.ts';
import { isRecord } from '../decision/json-value.ts';
import type { LinkContext } from '../record/build-stages.ts';
import type { LinkRecord } from '../record/link-record.ts';
import { gateNotice } from '../flow/gate-notice.ts';
import { judgeEmbedded } from '../flow/judge-embedded.ts';
import type { EmbeddedRecord } from '../record/embedded-record.ts';
import { renderedItem } from './rendered-item.ts';
import { SavedFiles } from './saved-files.ts';
import type { HookAnswer, HookEvent } from './hook-event.ts';
import { SessionState, type SeenLink } from './session-state.ts';
import { listedResources, readContents, readError, unwrapToolOutput } from './tool-output.ts';

/** Server id the host's own web fetch tool is judged as (name it in `links.servers` to let it through a server list). */
export const webFetchServer = 'web-fetch';

/** What handling one event needs: the gate, where session state lives, and where records go. */
export interface HookContext {
  gate: Gate;
  /** folder of the per-session state */
  stateDir: string;
  /** receives each finished record */
  record: (record: LinkRecord) => Promise<void>;
  /** receives the record of each embedded resource judged (absent: not kept) */
  recordEmbedded?: (record: EmbeddedRecord) => Promise<void>;
  /** the host's name, written into each record with the session and tool-use ids (absent: records carry no `host`) */
  host?: string;
  /** `observe` records what enforcing would have done and withholds or deletes nothing; default `enforce` */
  mode?: FlowMode;
  /** clock (tests pass their own) */
  now?: () => Date;
}

/** A link step with the tool-use id of the call that returned the link (null: none, or the session never saw it). */
type HookStep = LinkStep & { discoveredBy?: string | null };

/**
 * Judges one host hook event (DESIGN §4f): links returned by tools go into session state, reads are decided before
 * (link decision) and after (read decision over what the host received), the host's web fetch gets the link rules.
 * Throws only for i/o faults, which the command turns into exit 2 (fail closed).
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
  const state = await SessionState.open(context.stateDir, event.session);
  const callId = event.toolUseId ?? `${call.server ?? ''}\n${call.uri}`;
  if (event.phase === 'pre') return readRequested(event, call, callId, state, context);
  if (event.phase === 'failure') return readFailed(event, callId, state, context);
  return readReturned(event, call, callId, state, context);
}

/** Writes `record`, with the host, session and tool-use ids when the context names a host. */
async function save(context: HookContext, event: HookEvent, step: HookStep, record: LinkRecord): Promise<void> {
  if (context.host === undefined) return context.record(record);
  const toolUseIds = { discovered: step.discoveredBy ?? null, requested: event.toolUseId };
  await context.record({ ...record, host: { name: context.host, session: event.session, toolUseIds } });
}

function modeOf(context: HookContext): FlowMode {
  return context.mode ?? 'enforce';
}

function nowOf(context: HookContext): Date {
  return context.now?.() ?? new Date();
}

function linkContext(server: string, tool: string | null): LinkContext {
  return { server, tool, responseId: null, protocolVersion: null, client: null, serverInfo: null };
}

/** The members of a link item the gate judges; everything else a server sent is dropped before it is kept. */
function keptLink(item: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const link: Record<string, unknown> = { type: 'resource_link', uri: item['uri'], name: item['name'] };
  for (const key of ['title', 'description', 'mimeType', 'size'] as const)
    if (item[key] !== undefined) link[key] = item[key];
  return link;
}

async function toolReturned(event: HookEvent, server: string, tool: string, context: HookContext): Promise<HookAnswer> {
  const output = unwrapToolOutput(event.response);
  if (output.result === null) return { kind: 'none' };
  const items = output.result['content'] as unknown[];
  const at = nowOf(context);
  const saved = new SavedFiles(event.savedDir);
  const maxBytes = context.gate.policy.document.read.maxBytes;
  const seen: SeenLink[] = [];
  const withheld = new Map<number, string>();
  let lastUri = '';
  for (const [index, item] of items.entries()) {
    const rendered = renderedItem(item, lastUri, server);
    if (rendered.kind === 'header') lastUri = rendered.uri;
    if (rendered.kind === 'header' || rendered.kind === 'text') continue;
    if (rendered.kind === 'link') {
      if (typeof rendered.link['uri'] !== 'string') continue;
      const discovered = discoverLink(rendered.link, index, linkContext(server, tool), at);
      const entry: SeenLink = { server, link: keptLink(rendered.link), discovered, toolUseId: event.toolUseId };
      if (rendered.rendered !== undefined) entry.rendered = rendered.rendered;
      seen.push(entry);
      continue;
    }
    let resource: Record<string, unknown>;
    if (rendered.kind === 'embedded') resource = rendered.resource;
    else if (rendered.kind === 'saved-file') {
      // a path the host did not save for this session is text from the server: not read, not judged
      if (!(await saved.owns(rendered.path))) continue;
      const blob = await saved.readBase64(rendered.path, maxBytes);
      resource = { uri: rendered.uri };
      if (rendered.mimeType !== undefined) resource['mimeType'] = rendered.mimeType;
      if (blob !== null) resource['blob'] = blob;
    }
    // an item the hook cannot recognise carries no body it can judge: the gate withholds it (content.shape)
    else resource = { uri: lastUri };
    const judged = await judgeEmbedded(context.gate, resource, index, modeOf(context));
    await context.recordEmbedded?.(judged.record);
    // observe mode withholds and deletes nothing (no notice)
    if (judged.notice === null) continue;
    withheld.set(index, judged.notice);
    // the model is never pointed at a withheld saved file
    if (rendered.kind === 'saved-file') await saved.remove(rendered.path);
  }
  if (seen.length > 0) {
    const state = await SessionState.open(context.stateDir, event.session);
    await state.addSeen(event.toolUseId ?? randomUUID(), seen);
  }
  if (withheld.size === 0) return { kind: 'none' };
  const content = items.map((item, index) => {
    const notice = withheld.get(index);
    return notice === undefined ? item : { type: 'text', text: notice };
  });
  return {
    kind: 'replace',
    output: output.wrap({ ...output.result, content }),
    reason: [...withheld.values()].join('\n'),
  };
}

async function resourcesListed(event: HookEvent, server: string | null, context: HookContext): Promise<HookAnswer> {
  const at = nowOf(context);
  const seen: SeenLink[] = [];
  for (const entry of listedResources(event.response)) {
    const from = typeof entry['server'] === 'string' ? entry['server'] : server;
    if (from === null || typeof entry['uri'] !== 'string') continue;
    const link = keptLink({ ...entry, name: typeof entry['name'] === 'string' ? entry['name'] : entry['uri'] });
    const discovered = discoverLink(link, null, linkContext(from, null), at);
    seen.push({ server: from, link, discovered, toolUseId: event.toolUseId });
  }
  if (seen.length > 0) {
    const state = await SessionState.open(context.stateDir, event.session);
    await state.addSeen(event.toolUseId ?? randomUUID(), seen);
  }
  return { kind: 'none' };
}

/** The flow's first step for reading `uri` from `server`, with what the session saw of the link. */
async function decideReadLink(
  readServer: string | null,
  uri: string,
  state: SessionState,
  context: HookContext,
): Promise<HookStep> {
  const seen = await state.seen(uri);
  // a link returned by this very server first; else the first one seen (the read then goes to another server)
  const origin = seen.find((s) => s.server === readServer) ?? seen[0];
  // a host that finds the server by the uri reads from the server that returned or listed it
  const server = readServer ?? origin?.server ?? 'default';
  const link = origin?.link ?? { type: 'resource_link', uri, name: uri };
  const step = await startLink(context.gate, {
    link,
    discovered: origin?.discovered ?? discoverLink(link, null, linkContext(server, null), nowOf(context)),
    linkServer: origin?.server ?? server,
    readFrom: server,
    seen: origin !== undefined,
    mode: modeOf(context),
  });
  return { ...step, discoveredBy: origin?.toolUseId ?? null };
}

async function readRequested(
  event: HookEvent,
  call: { server: string | null; uri: string },
  callId: string,
  state: SessionState,
  context: HookContext,
): Promise<HookAnswer> {
  const step = await decideReadLink(call.server, call.uri, state, context);
  if (linkRefused(step)) {
    const record = skipRead(step, 'the link was denied');
    await save(context, event, step, record);
    return { kind: 'deny', reason: gateNotice('refused to read', call.uri, step.linkDecision, record.next) };
  }
  await state.putPending(callId, { ...step, requested: sendRead(context.gate, step, nowOf(context)) });
  return { kind: 'none' };
}

async function readFailed(
  event: HookEvent,
  callId: string,
  state: SessionState,
  context: HookContext,
): Promise<HookAnswer> {
  const pending = await state.takePending(callId);
  if (pending === undefined) return { kind: 'none' };
  const message =
    typeof event.response === 'string' ? `the host's read failed: ${event.response}` : "the host's read failed";
  const failure = {
    kind: 'failed',
    why: "the host's read failed",
    message: message.slice(0, 200).toLowerCase(),
  } as const;
  await save(context, event, pending, failedRead(context.gate, pending, pending.requested, failure).record);
  return { kind: 'none' };
}

async function readReturned(
  event: HookEvent,
  call: { server: string | null; uri: string },
  callId: string,
  state: SessionState,
  context: HookContext,
): Promise<HookAnswer> {
  const { gate } = context;
  const pending = await state.takePending(callId);
  // no pre event (lost, or the host ran only this hook): the link is judged now, and a deny withholds everything
  const step = pending ?? (await decideReadLink(call.server, call.uri, state, context));
  const raw = readContents(event.response);
  if (raw === null) throw new Error('field `tool_response.contents` is missing or not an array');
  const error = readError(event.response);
  if (error !== null && raw.length === 0 && !linkRefused(step)) {
    // the server answered an error (Claude Code: `{contents: [], error}`): nothing reached the model to judge
    const requested = pending?.requested ?? sendRead(gate, step, nowOf(context));
    const failure = {
      kind: 'failed',
      why: 'the server answered an error',
      message: `the server answered an error: ${error}`.slice(0, 200).toLowerCase(),
    } as const;
    await save(context, event, step, failedRead(gate, step, requested, failure).record);
    return { kind: 'none' };
  }

  const maxBytes = gate.policy.document.read.maxBytes;
  const files = new SavedFiles(event.savedDir);
  const saved: (string | null)[] = [];
  const contents: Record<string, unknown>[] = [];
  for (const item of raw) {
    const path = isRecord(item) && typeof item['blobSavedTo'] === 'string' ? item['blobSavedTo'] : null;
    saved.push(path);
    if (!isRecord(item)) {
      contents.push({});
      continue;
    }
    const judgedItem: Record<string, unknown> = {};
    for (const key of ['uri', 'mimeType'] as const) if (item[key] !== undefined) judgedItem[key] = item[key];
    if (path === null) {
      // the body as the host passed it: text, or a blob inline as base64 (Codex)
      for (const key of ['text', 'blob'] as const) if (item[key] !== undefined) judgedItem[key] = item[key];
    } else {
      // the body is the saved file (the item's `text` is the host's note about it); a file that cannot be read back,
      // or lies outside the host's folder, gives an item with no body, which the gate denies (content.shape)
      const blob = await files.readBase64(path, maxBytes);
      if (blob !== null) judgedItem['blob'] = blob;
    }
    contents.push(judgedItem);
  }

  if (linkRefused(step)) {
    for (const path of saved) if (path !== null) await files.remove(path);
    const record = skipRead(step, 'the link was denied');
    await save(context, event, step, record);
    const notice = gateNotice('withheld the body of', call.uri, step.linkDecision, record.next);
    return withholdAnswer(raw, new Set(raw.map((_, i) => i)), notice);
  }

  // the host did the read: the flow judges its result afterwards
  const now = nowOf(context);
  const requested = pending?.requested ?? sendRead(gate, step, now);
  const elapsedMs = event.durationMs ?? Math.max(0, now.getTime() - Date.parse(requested.at));
  const judged = await judgeRead(gate, step, { result: { contents } }, { requested, elapsedMs, now: () => now });
  await save(context, event, step, judged.record);
  if (judged.dropped.length === 0 || modeOf(context) === 'observe') return { kind: 'none' };

  const withheld = new Set(judged.dropped.map((d) => d.index));
  // the model is never pointed at a withheld saved file: it is removed, whatever made it unsafe
  for (const [index, path] of saved.entries()) if (path !== null && withheld.has(index)) await files.remove(path);
  return withholdAnswer(
    raw,
    withheld,
    gateNotice('withheld the body of', call.uri, judged.decision, judged.record.next),
  );
}

/** The read tool's output with each withheld item replaced by a text item carrying the notice. */
function withholdAnswer(raw: readonly unknown[], withheld: ReadonlySet<number>, notice: string): HookAnswer {
  const contents = raw.map((item, index) => {
    if (!withheld.has(index)) return item;
    const uri = isRecord(item) && typeof item['uri'] === 'string' ? item['uri'] : '';
    return { uri, mimeType: 'text/plain', text: notice };
  });
  return { kind: 'replace', output: { contents }, reason: notice };
}

async function judgeWebFetch(event: HookEvent, urls: readonly string[], context: HookContext): Promise<HookAnswer> {
  if (context.gate.policy.document.hook?.webFetch === false) return { kind: 'none' };
  for (const url of urls) {
    const link = { type: 'resource_link', uri: url, name: url };
    // the host's own fetcher reads it, not an MCP server: no `readFrom`
    const step = await startLink(context.gate, {
      link,
      discovered: discoverLink(link, null, linkContext(webFetchServer, 'WebFetch'), nowOf(context)),
      linkServer: webFetchServer,
      readFrom: null,
      mode: modeOf(context),
    });
    // observe mode records the fetch it would have refused and lets it run
    if (step.linkDecision.effect !== 'deny') continue;
    const record = skipRead(step, 'the link was denied');
    await save(context, event, step, record);
    if (!linkRefused(step)) continue;
    return { kind: 'deny', reason: gateNotice('refused to fetch', url, step.linkDecision, record.next) };
  }
  return { kind: 'none' };
}
