import { z } from 'zod';
import type { Gate } from '../gate/create-gate.ts';
import type { LinkContext } from '../record/build-stages.ts';
import { telemetrySink } from '../record/link-telemetry.ts';
import { checkOnRecordError, type OnRecordError } from '../record/record-error.ts';
import type { RecordSink } from '../record/record-sink.ts';
import type { FrontEnd } from '../record/link-record.ts';
import { isRecord } from '../decision/json-value.ts';
import type { DirectFetchOptions } from '../fetch/direct-fetcher.ts';
import type { ReadCache } from '../flow/read-cache.ts';
import type { InputAnswerer, LinkReader, ReadAnswer } from '../flow/link-reader.ts';
import type { DiscoveredLinks } from '../flow/discovered-links.ts';
import { type GatedToolResult, runToolResultFlow } from '../flow/run-tool-result-flow.ts';
import { tagParams, type TransportTap } from './transport-tap.ts';
import { gateErrorCode } from './gate-answers.ts';
import { oversizeOfError } from './oversize-answer.ts';
import { positiveOption } from '../flow/positive-option.ts';
import { checkMode } from '../flow/mode-option.ts';

/** Default number of link reads in flight at once per tool result. */
export const defaultReadConcurrency = 4;

/** Anything with the SDK Client's `request` (SDK 1.x `Client`, or a test double). */
export interface RequestingClient {
  request(
    request: { method: string; params?: Record<string, unknown> },
    resultSchema: z.ZodType,
    options?: { signal?: AbortSignal; timeout?: number; allowInputRequired?: boolean },
  ): Promise<unknown>;
  getServerVersion?(): { name: string; version: string } | undefined;
}

/** Options of `gateToolResult`; limits are whole numbers ≥ 1 with their unit in the name. */
export interface GateToolResultOptions {
  gate: Gate;
  /** the host's id for this connection (a local label), default `default` */
  server?: string;
  /** the tool whose result this is */
  tool?: string;
  /** JSON-RPC id of the tools/call response, when known */
  responseId?: string | number;
  /** `observe` records every decision with `wouldDeny` and enforces none; default `enforce` */
  mode?: 'enforce' | 'observe';
  /** link reads in flight at once */
  concurrency?: number;
  /** total time for all reads of this tool result, milliseconds; default the policy's `readTimeoutMs` × 3 */
  budgetMs?: number;
  signal?: AbortSignal;
  cache?: ReadCache;
  /** opaque label of the authorization context, for `private` cache entries */
  authContext?: string;
  sink?: RecordSink;
  /** a tap on the client's transport: gives records the read request ids and protocol revision */
  tap?: TransportTap;
  protocolVersion?: string;
  clientInfo?: { name: string; version: string };
  answerInput?: InputAnswerer;
  /** the front end records name (`stages.discovered.frontEnd`), default `client-helper`; `linkgate probe` sets `probe` */
  frontEnd?: FrontEnd;
  /** resolver, trust anchors, connections and credential headers for links the policy has the host fetch directly (`fetch.enabled`) */
  fetch?: DirectFetchOptions;
  /** notes the tool result's links, so a later `gatedRead` knows where each uri came from */
  discovered?: DiscoveredLinks;
  /**
   * enforce mode, when a record cannot be written: `withhold` (default) returns none of the result, `content` being one
   * text item saying why; `report` returns it as judged. Either way `recordError` says what failed.
   */
  onRecordError?: OnRecordError;
}

const permissiveResult = z.looseObject({});

/** A raw reader over an SDK-style client: `resources/read` through `request` with a schema that keeps every field. */
export function clientReader(client: RequestingClient, tap?: TransportTap): LinkReader {
  return async (rawParams, signal) => {
    const { params, tag } = tagParams(rawParams);
    const request = { method: 'resources/read', params };
    try {
      // the SDK's own ReadResourceResult schema would strip `resultType` and reject `input_required`; SDK 2.x
      // fulfils or raises an `input_required` itself unless asked to hand it back (1.x ignores the option)
      const result = await client.request(request, permissiveResult, {
        signal,
        timeout: 2 ** 31 - 1,
        allowInputRequired: true,
      });
      return { result: restoreResultType(result), requestId: tap?.takeRequestId(tag) ?? null };
    } catch (error) {
      const requestId = tap?.takeRequestId(tag) ?? null;
      const tooLarge = oversizeOfError(error);
      if (!signal.aborted && tooLarge !== undefined)
        return { error: { code: gateErrorCode, message: 'the answer passed the connection cap' }, requestId, tooLarge };
      if (signal.aborted || !isServerError(error)) throw error;
      return { error: { code: error.code, message: error.message }, requestId } satisfies ReadAnswer;
    }
  };
}

/**
 * The result as the server sent it. SDK 2.x consumes the `resultType` discriminator before the caller sees a
 * result: on a 2025-11-25 connection it deletes it and hands `{inputRequests, requestState}` back as if complete,
 * which would read as an empty body. Only an `input_required` result carries `inputRequests` or `requestState`
 * (MCP 2026-07-28), so such a result without `contents` gets its `resultType` back.
 */
export function restoreResultType(result: unknown): Record<string, unknown> {
  if (!isRecord(result)) return {};
  if (Object.hasOwn(result, 'resultType') || Object.hasOwn(result, 'contents')) return result;
  if (Object.hasOwn(result, 'inputRequests') || Object.hasOwn(result, 'requestState'))
    return { ...result, resultType: 'input_required' };
  return result;
}

/**
 * Runs the whole flow (DESIGN §1) for every `resource_link` of a raw tool result (direct fetch where the policy
 * enables it), reading through the client; never throws for server behaviour. The flow is `runToolResultFlow`; this
 * adapter checks the options and builds the reader and the connection's context; the flow writes the records.
 */
export async function gateToolResult(
  client: RequestingClient,
  toolResult: unknown,
  options: GateToolResultOptions,
): Promise<GatedToolResult> {
  const { gate } = options;
  const concurrency = positiveOption(options.concurrency ?? defaultReadConcurrency, 'option `concurrency`');
  const budgetMs = positiveOption(options.budgetMs ?? gate.policy.document.read.readTimeoutMs * 3, 'option `budgetMs`');
  const context: LinkContext = {
    server: options.server ?? 'default',
    tool: options.tool ?? null,
    responseId: options.responseId ?? null,
    protocolVersion: options.protocolVersion ?? options.tap?.protocolVersion() ?? null,
    client: options.clientInfo ?? null,
    serverInfo: client.getServerVersion?.() ?? null,
    frontEnd: options.frontEnd ?? 'client-helper',
  };
  options.discovered?.note(context.server, toolResult, context.tool);
  return runToolResultFlow(toolResult, {
    gate,
    read: clientReader(client, options.tap),
    context,
    mode: checkMode(options.mode),
    concurrency,
    budgetMs,
    signal: options.signal,
    cache: options.cache,
    authContext: options.authContext,
    answerInput: options.answerInput,
    fetch: options.fetch,
    sink: telemetrySink(options.sink),
    onRecordError: checkOnRecordError(options.onRecordError),
  });
}

function isServerError(error: unknown): error is { code: number; message: string } {
  if (!(error instanceof Error) || typeof (error as { code?: unknown }).code !== 'number') return false;
  const code = (error as unknown as { code: number }).code;
  // -32000 connection closed and -32001 request timeout are raised by the SDK itself, not by the server
  return code !== -32000 && code !== -32001;
}
