import type { Decision } from '../decision/decision.ts';
import type { DirectFetchOptions } from '../fetch/direct-fetcher.ts';
import type { DiscoveredLinks } from '../flow/discovered-links.ts';
import { gateNotice, type NoticeSubject } from '../flow/gate-notice.ts';
import { recordRef } from '../flow/record-ref.ts';
import type { InputAnswerer, LinkReader } from '../flow/link-reader.ts';
import { positiveOption } from '../flow/positive-option.ts';
import type { ReadCache } from '../flow/read-cache.ts';
import { runLinkFlow } from '../flow/run-link-flow.ts';
import type { Gate } from '../gate/create-gate.ts';
import type { LinkContext } from '../record/build-stages.ts';
import type { LinkRecord } from '../record/link-record.ts';
import { telemetrySink } from '../record/link-telemetry.ts';
import type { RecordSink } from '../record/record-sink.ts';
import { clientReader, type RequestingClient } from './gate-tool-result.ts';
import { checkMode } from '../flow/mode-option.ts';

/** Options of `gatedRead`. */
export interface GatedReadOptions {
  gate: Gate;
  /** the host's id for the server the read goes to (a local label), default `default` */
  server?: string;
  /**
   * the links this host's tool results returned (`DiscoveredLinks.note`, or `gateToolResult`'s `discovered`): the read
   * is judged with the server that returned the uri (`links.requireSameServer`) and whether any did
   * (`hook.requireDiscovered`); absent: the uri is judged as returned by `server` itself
   */
  discovered?: DiscoveredLinks;
  /** `observe` records every decision with `wouldDeny` and enforces none; default `enforce` */
  mode?: 'enforce' | 'observe';
  /** longest the read may take, milliseconds; default the policy's `readTimeoutMs` (the read's own deadline applies too) */
  budgetMs?: number;
  signal?: AbortSignal;
  cache?: ReadCache;
  /** opaque label of the authorization context, for `private` cache entries */
  authContext?: string;
  sink?: RecordSink;
  answerInput?: InputAnswerer;
  /** how links are fetched directly when the policy enables it (`fetch.enabled`) */
  fetch?: DirectFetchOptions;
}

/** What a gated read gives the model: the delivered items, or none and the notice saying why; and the record. */
export interface GatedRead {
  /** the `contents` items that may reach the model (all of them in observe mode) */
  contents: Record<string, unknown>[];
  /** one line for the model when anything was refused or withheld (enforce mode), else null */
  notice: string | null;
  record: LinkRecord;
}

/**
 * The one read path for a host that gives the model a read tool: reads `uri` from `server` through the gate, the same
 * flow as every link of a tool result (link decision with where the uri came from, `resources/read` under the policy's
 * deadline, read decision, delivery, record). A refused link is never asked of the server. `source` is the SDK Client
 * (1.x or 2.x) connected to `server`, or a `LinkReader`. Never throws for server behaviour; a failing sink rejects.
 */
export async function gatedRead(
  source: RequestingClient | LinkReader,
  uri: string,
  options: GatedReadOptions,
): Promise<GatedRead> {
  const { gate } = options;
  const server = options.server ?? 'default';
  const budgetMs = positiveOption(options.budgetMs ?? gate.policy.document.read.readTimeoutMs, 'option `budgetMs`');
  const origin = options.discovered?.find(uri, server);
  const link = origin?.link ?? { type: 'resource_link', uri, name: uri };
  const context: LinkContext = {
    server: origin?.server ?? server,
    tool: origin?.tool ?? null,
    responseId: null,
    protocolVersion: null,
    client: null,
    serverInfo: typeof source === 'function' ? null : (source.getServerVersion?.() ?? null),
  };
  const budget = AbortSignal.any([AbortSignal.timeout(budgetMs), ...(options.signal ? [options.signal] : [])]);
  const flow = await runLinkFlow(link, origin?.contentIndex ?? null, {
    gate,
    read: typeof source === 'function' ? source : clientReader(source),
    context,
    readFrom: server,
    ...(options.discovered === undefined ? {} : { seen: origin !== undefined }),
    mode: checkMode(options.mode),
    cache: options.cache,
    authContext: options.authContext,
    budget,
    answerInput: options.answerInput,
    fetch: options.fetch,
  });
  const { record } = flow;
  await telemetrySink(options.sink).write(record);
  const name = origin !== undefined && typeof origin.link['name'] === 'string' ? origin.link['name'] : null;
  return {
    contents: flow.contents,
    notice: readNotice({ name, uri, ref: recordRef(record.stages.discovered) }, record),
    record,
  };
}

/** The notice for a read that delivered less than it received, in enforce mode; null when all of it passed. */
function readNotice(subject: NoticeSubject, record: LinkRecord): string | null {
  if (record.mode === 'observe' || record.verdict === 'body-obtained') return null;
  const { link, read } = record.decisions;
  const decision: Decision = link.effect === 'deny' || read === null ? link : read;
  const what =
    link.effect === 'deny'
      ? 'refused to read'
      : record.verdict === 'unverifiable'
        ? 'did not complete the read of'
        : record.verdict === 'partially-interpreted'
          ? 'withheld part of'
          : 'withheld the body of';
  return gateNotice(what, subject, decision, record.next);
}
