import { setMaxListeners } from 'node:events';
import type { Decision } from '../decision/decision.ts';
import type { DirectFetchOptions } from '../fetch/direct-fetcher.ts';
import type { Gate } from '../gate/create-gate.ts';
import { isRecord } from '../decision/json-value.ts';
import type { LinkContext } from '../record/build-stages.ts';
import type { EmbeddedRecord } from '../record/embedded-record.ts';
import type { LinkRecord } from '../record/link-record.ts';
import { type OnRecordError, recordErrorMessage, recordErrorWithholds, sinkWrite } from '../record/record-error.ts';
import type { RecordSink } from '../record/record-sink.ts';
import { abortDeadline } from './abort-deadline.ts';
import { discoverLinks } from './discover-links.ts';
import { guardGate, minJudgementMs } from './guard-gate.ts';
import { withJsonText } from './json-text-links.ts';
import { judgeResultValues } from './refused-beside.ts';
import { judgeEmbeddedItems } from './judge-embedded.ts';
import type { InputAnswerer, LinkReader } from './link-reader.ts';
import type { FlowMode } from './link-steps.ts';
import type { ReadCache } from './read-cache.ts';
import { recordRef } from './record-ref.ts';
import type { RefusedRef } from './structured-links.ts';
import { type LinkFlowOptions, type LinkFlowResult, runLinkFlow, startLinkFlow } from './run-link-flow.ts';
import { MessageLedger } from './message-ledger.ts';
import { refusedLinkItem } from './refused-link.ts';
import { uriOf } from '../link/resource-link.ts';

/** Everything the flow needs for one tool result; limits are whole numbers ≥ 1, checked by the caller. */
export interface ToolResultFlowOptions {
  gate: Gate;
  read: LinkReader;
  context: LinkContext;
  mode: FlowMode;
  /** link reads in flight at once */
  concurrency: number;
  /** total time for all reads of this tool result, milliseconds */
  budgetMs: number;
  signal?: AbortSignal | undefined;
  cache?: ReadCache | undefined;
  authContext?: string | undefined;
  answerInput?: InputAnswerer | undefined;
  fetch?: DirectFetchOptions | undefined;
  /** receives every record, links in content order, then embedded resources */
  sink?: RecordSink | undefined;
  /** enforce mode, when a record cannot be written: `withhold` (default) passes on none of the result; `report` passes it on */
  onRecordError?: OnRecordError | undefined;
}

/** What an embedded `resource` item's content check decided. */
export interface EmbeddedCheck {
  contentIndex: number;
  decision: Decision;
}

/** The flow's output for one tool result: records in content order and the content a host may pass to the model. */
export interface GatedToolResult {
  records: LinkRecord[];
  /**
   * the tool result's `content[]`: each link followed by its delivered items as embedded `resource`s; in enforce mode
   * each link its link decision refused replaced by a text item naming it (`refusedLinkItem`), and each withheld
   * embedded item by a text item with the notice (`withheldItem`)
   */
  content: Record<string, unknown>[];
  embedded: EmbeddedCheck[];
  /** the record of each embedded resource, in content order */
  embeddedRecords: EmbeddedRecord[];
  /**
   * null when every record was written; else why not: in enforce mode with `onRecordError: 'withhold'` (the default)
   * `content` is then one text item saying so, nothing of the tool result
   */
  recordError: string | null;
}

/**
 * Runs `runLinkFlow` for every `resource_link` of a raw tool result, at most `concurrency` at once within one
 * budget, judges its embedded `resource` items, assembles the content a host may pass on and writes every record to
 * the sink; never throws for server behaviour, nor for a failing sink (`recordError`, and `onRecordError`).
 */
export async function runToolResultFlow(toolResult: unknown, options: ToolResultFlowOptions): Promise<GatedToolResult> {
  const { concurrency } = options;
  const gate = guardGate(options.gate);
  // released when the reads end, so neither the timer nor a listener on the host's signal outlives this call
  const budgetDeadline = abortDeadline(options.budgetMs, options.signal, 'the tool result budget');
  const budget = budgetDeadline.signal;
  // each running read or fetch listens on the budget until it ends: at most `concurrency` listeners, which Node would
  // otherwise report as a leak (MaxListenersExceededWarning) past its default of 10
  setMaxListeners(concurrency, budget);
  const { links } = discoverLinks(toolResult);
  // the embedded resources judged beside the links (their bodies, and the labels their uris are), so a gate that
  // stays silent costs one deadline for both
  const items = isRecord(toolResult) && Array.isArray(toolResult['content']) ? toolResult['content'] : [];
  const embedding = judgeEmbeddedItems(gate, items, options.mode);

  const flows = new Array<LinkFlowResult>(links.length);
  const linkOptions: LinkFlowOptions = {
    gate,
    read: options.read,
    context: options.context,
    mode: options.mode,
    cache: options.cache,
    authContext: options.authContext,
    budget,
    answerInput: options.answerInput,
    fetch: options.fetch,
  };
  // every link decided side by side before the reads (`concurrency` at once), so a gate that stays silent costs one
  // deadline, not one per `concurrency` links; a policy that resolves names decides each as its read starts
  const steps = gate.policy.document.links.resolveNames
    ? []
    : links.map((found) => startLinkFlow(found.link, found.index, linkOptions));
  let nextLink = 0;
  const worker = async () => {
    for (let i = nextLink++; i < links.length; i = nextLink++) {
      const found = links[i];
      if (found === undefined) continue;
      flows[i] = await runLinkFlow(found.link, found.index, { ...linkOptions, step: steps[i] });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, links.length) }, worker));
  } finally {
    budgetDeadline.release();
  }

  const judged = await embedding;
  // a text item that is one JSON value gets the structured content's judgement, as in the decorator and the hooks,
  // and a text or embedded resource holding a refused link's uri becomes its notice
  const refs = new Map<string, RefusedRef>();
  flows.forEach((f, i) => {
    const link = links[i]?.link;
    if (f?.replacedBy === undefined || link === undefined) return;
    refs.set(f.record.uri, { ref: recordRef(f.record.stages.discovered), link, decision: f.record.decisions.link });
  });
  const judging = { server: options.context.server, mode: options.mode, refs };
  // (and the strings beside a link refused inside a JSON text, which may name its address: `judgeResultValues`)
  const { texts, beyond } = await judgeResultValues(gate, items, undefined, judging, true);
  for (const edit of texts)
    if (!judged.changed.has(edit.index)) judged.changed.set(edit.index, withJsonText(items[edit.index], edit));
  // each refused link's notice worded with every link the result refused (a name spelling one's address is left out)
  const ledger = MessageLedger.of([...refs.values(), ...beyond.values()].map((r) => uriOf(r.link)));
  const byContentIndex = new Map(links.map((l, i) => [l.index, { flow: flows[i], link: l.link }]));
  const content: Record<string, unknown>[] = [];
  items.forEach((item: unknown, index: number) => {
    if (!isRecord(item)) return;
    const { flow, link } = byContentIndex.get(index) ?? {};
    const replacedBy = flow?.replacedBy === undefined ? undefined : refusedFlowItem(flow, link, ledger);
    content.push(judged.changed.get(index) ?? replacedBy ?? item);
    for (const resource of flow?.contents ?? []) content.push({ type: 'resource', resource });
  });
  const records = flows.map((f) => f.record);
  let recordError: string | null = null;
  try {
    if (options.sink !== undefined) {
      // a sink that never answers fails like one that throws, within the gate's judgement deadline
      const sink = options.sink;
      const limitMs = Math.max(gate.policy.document.read.readTimeoutMs, minJudgementMs);
      for (const record of records) await sinkWrite(() => sink.write(record), limitMs);
      if (sink.writeEmbedded !== undefined)
        for (const record of judged.records) await sinkWrite(() => sink.writeEmbedded?.(record), limitMs);
    }
  } catch (error) {
    recordError = recordErrorMessage(error);
  }
  const embeddedChecks = judged.records.map((r) => ({ contentIndex: r.contentIndex, decision: r.decision }));
  // a records failure withholds the whole result (enforce mode, `onRecordError: 'withhold'`), or is reported with it
  const withheld = recordError !== null && recordErrorWithholds(options.mode, options.onRecordError);
  return {
    records,
    content: withheld ? [{ type: 'text', text: recordError ?? '' }] : content,
    embedded: embeddedChecks,
    embeddedRecords: judged.records,
    recordError,
  };
}

// the item standing for a link its flow refused, its notice worded with the links `ledger` holds (every one the result
// refused)
function refusedFlowItem(flow: LinkFlowResult, link: unknown, ledger: MessageLedger): Record<string, unknown> {
  const ref = recordRef(flow.record.stages.discovered);
  return refusedLinkItem(link, flow.record.decisions.link, ref, ledger);
}
