import type { FlowMode, LinkStep } from '../flow/link-steps.ts';
import type { Gate } from '../gate/create-gate.ts';
import type { LinkContext } from '../record/build-stages.ts';
import { type DiscoveredRecord, discoveredRecord } from '../record/discovered-record.ts';
import type { EmbeddedRecord } from '../record/embedded-record.ts';
import type { LinkRecord } from '../record/link-record.ts';
import type { EventBudget } from './event-budget.ts';
import type { HookEvent } from './hook-event.ts';
import type { SessionStates } from './session-state.ts';

/** What handling one event needs: the gate, where session state lives, and where records go. */
export interface HookContext {
  gate: Gate;
  /** folder of the per-session state */
  stateDir: string;
  /** where each session's state is kept instead of files under `stateDir` (in-process hooks: memory; absent: files) */
  states?: SessionStates;
  /** receives each finished record */
  record: (record: LinkRecord) => Promise<void>;
  /**
   * receives the provisional record of a read the hook let through before the host reads (`kind: "requested"`), so a
   * read the host refuses or that fails before a post event still leaves a record; the post event's supersedes it
   * (absent: not kept)
   */
  recordProvisional?: (record: LinkRecord & { kind: 'requested' }) => Promise<void>;
  /**
   * receives the discovery record of each link a tool result lists that its link decision lets through
   * (`kind: "discovered"`), as the result goes out; a later record of the link supersedes it (absent: not kept)
   */
  recordDiscovered?: (record: DiscoveredRecord) => Promise<void>;
  /** receives the record of each embedded resource judged (absent: not kept) */
  recordEmbedded?: (record: EmbeddedRecord) => Promise<void>;
  /** the host's name, written into each record with the session and tool-use ids (absent: records carry no `host`) */
  host?: string;
  /** `observe` records what enforcing would have done and withholds or deletes nothing; default `enforce` */
  mode?: FlowMode;
  /**
   * the mode of the one check of a tool result against the addresses the session refused earlier (`refused-named.ts`);
   * default `mode` (the resident server keeps state in `observe` mode and still withholds such a result)
   */
  namingMode?: FlowMode;
  /** clock (tests pass their own) */
  now?: () => Date;
  /** the event's work budget, checked in every loop over items, links and state entries (absent: caps only) */
  budget?: EventBudget;
}

/** A link step with the tool-use id of the call that returned the link (null: none, or the session never saw it). */
export type HookStep = LinkStep & { discoveredBy?: string | null };

/** Writes `record`, with the host, session and tool-use ids when the context names a host. */
export async function save(context: HookContext, event: HookEvent, step: HookStep, record: LinkRecord): Promise<void> {
  await context.record(withHost(context, event, step, record));
}

/** Writes the provisional record of a read let through (`kind: "requested"`), when the context keeps them. */
export async function saveProvisional(
  context: HookContext,
  event: HookEvent,
  step: HookStep,
  record: LinkRecord,
): Promise<void> {
  await context.recordProvisional?.({ kind: 'requested', ...withHost(context, event, step, record) });
}

/** Writes the discovery record of a link a tool result listed (`kind: "discovered"`), when the context keeps them. */
export async function saveDiscovered(
  context: HookContext,
  event: HookEvent,
  step: HookStep,
  record: LinkRecord,
): Promise<void> {
  await context.recordDiscovered?.(discoveredRecord(withHost(context, event, step, record)));
}

function withHost(context: HookContext, event: HookEvent, step: HookStep, record: LinkRecord): LinkRecord {
  if (context.host === undefined) return record;
  const toolUseIds = { discovered: step.discoveredBy ?? null, requested: event.toolUseId };
  return { ...record, host: { name: context.host, session: event.session, toolUseIds } };
}

/** The context's mode, `enforce` unless it says `observe`. */
export function modeOf(context: HookContext): FlowMode {
  return context.mode ?? 'enforce';
}

/** The context's clock, read once. */
export function nowOf(context: HookContext): Date {
  return context.now?.() ?? new Date();
}

/** Where a link was found, as far as a hook event says: the server and tool, no JSON-RPC context. */
export function linkContext(server: string, tool: string | null): LinkContext {
  return { server, tool, responseId: null, protocolVersion: null, client: null, serverInfo: null, frontEnd: 'hook' };
}
