import type { Decision } from '../decision/decision.ts';
import type { ItemEvidence } from '../gate/decide-read.ts';
import { normalizeMime } from '../content/kinds.ts';
import { maskUri } from '../link/mask-uri.ts';
import type { UriReading } from '../link/reused-url.ts';
import { isoTime } from './iso-time.ts';
import { isRecord } from '../decision/json-value.ts';
import type {
  DeliveredStage,
  DiscoveredStage,
  DroppedItem,
  FrontEnd,
  ReceivedItem,
  ReceivedStage,
} from './link-record.ts';

/** Longest error message kept in a record, characters (after masking). */
export const maxRecordedMessageChars = 200;

/** The received stage of a JSON-RPC error answer; the message is masked and cut to one line. */
export function receivedFromError(
  error: { code: number; message: string },
  elapsedMs: number,
  at: Date,
): ReceivedStage {
  return {
    at: isoTime(at),
    elapsedMs,
    resultType: null,
    error: { code: error.code, message: maskText(error.message) },
    inputRequests: null,
    itemCount: 0,
    textItems: 0,
    blobItems: 0,
    bytes: 0,
    items: [],
    ttlMs: null,
    cacheScope: null,
    cache: null,
  };
}

/** The received stage of a result: counts, bytes and hashes from the evidence; never body text or `requestState`. */
export function receivedFromResult(
  result: Readonly<Record<string, unknown>>,
  evidence: readonly ItemEvidence[],
  elapsedMs: number,
  at: Date,
  cache: { ageMs: number; ttlMs: number } | null = null,
): ReceivedStage {
  const contents = contentsOf(result);
  // the evidence of an item is found by its index: mostly the item at the same place (no map made per read)
  const evidenceOf = (index: number): ItemEvidence | undefined => {
    const same = evidence[index];
    if (same?.index === index) return same;
    return evidence.findLast((e) => e.index === index);
  };
  const items: ReceivedItem[] = contents.map((item, index) => {
    const e = evidenceOf(index);
    if (e !== undefined) {
      const received: ReceivedItem = {
        index,
        carrier: e.carrier,
        bytes: e.bytes,
        declaredMime: e.declaredMime,
        kind: e.kind,
        sha256: null,
      };
      // the digest stays as lazy as the evidence's: it is computed when the record is written out (a sink), never
      // for a record nobody reads (a proxy or decorator with no records file)
      const digest = Object.getOwnPropertyDescriptor(e, 'sha256');
      if (digest !== undefined) Object.defineProperty(received, 'sha256', digest);
      return received;
    }
    // no evidence (the engine failed): keep what the shape alone tells, decode nothing
    return {
      index,
      carrier: carrierOf(item),
      bytes: estimatedBytes(item),
      declaredMime: declaredMimeOf(item),
      kind: null,
      sha256: null,
    };
  });
  const resultType = typeof result['resultType'] === 'string' ? result['resultType'] : 'complete';
  // counted in one pass, no array made per count
  let textItems = 0;
  let blobItems = 0;
  let bytes = 0;
  for (const i of items) {
    if (i.carrier === 'text') textItems += 1;
    else if (i.carrier === 'blob') blobItems += 1;
    bytes += i.bytes;
  }
  return {
    at: isoTime(at),
    elapsedMs,
    resultType,
    error: null,
    inputRequests: inputRequestMethods(result),
    itemCount: items.length,
    textItems,
    blobItems,
    bytes,
    items,
    ttlMs: typeof result['ttlMs'] === 'number' ? result['ttlMs'] : null,
    cacheScope: typeof result['cacheScope'] === 'string' ? result['cacheScope'] : null,
    cache,
  };
}

/** Which items may be passed on under a read decision: all on allow, the `allow` items on partial, none on deny. */
export function deliverableIndices(read: Decision, itemCount: number): { deliver: number[]; dropped: DroppedItem[] } {
  const deliver: number[] = [];
  const dropped: DroppedItem[] = [];
  // an allowed read delivers every item: its items' decisions are not looked at (no map made per read)
  if (read.effect === 'allow') {
    for (let index = 0; index < itemCount; index++) deliver.push(index);
    return { deliver, dropped };
  }
  const byIndex = new Map((read.items ?? []).map((i) => [i.index, i]));
  for (let index = 0; index < itemCount; index++) {
    const item = byIndex.get(index);
    const effect = read.effect === 'deny' ? 'deny' : (item?.effect ?? 'deny');
    if (effect === 'allow') deliver.push(index);
    else dropped.push({ index, effect, codes: [...new Set((item?.reasons ?? read.reasons).map((r) => r.code))] });
  }
  return { deliver, dropped };
}

/** The delivered stage for the items passed on; null when nothing was passed on. */
export function deliveredStage(
  received: ReceivedStage,
  contents: readonly unknown[],
  deliver: readonly number[],
  dropped: readonly DroppedItem[],
  at: Date,
): DeliveredStage | null {
  if (deliver.length === 0) return null;
  let bytes = 0;
  let characters = 0;
  for (const index of deliver) {
    bytes += received.items[index]?.bytes ?? 0;
    const item = contents[index];
    if (isRecord(item) && typeof item['text'] === 'string') characters += item['text'].length;
  }
  return { at: isoTime(at), items: [...deliver], bytes, characters, dropped: [...dropped] };
}

/** The `contents` array of a read result, or `[]` when absent or not an array. */
export function contentsOf(result: Readonly<Record<string, unknown>>): unknown[] {
  const contents = result['contents'];
  return Array.isArray(contents) ? contents : [];
}

/** Masks every uri-looking token in a message and cuts it to one line of `maxRecordedMessageChars`. */
export function maskText(text: string): string {
  const masked = text.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s`'"<>]+/gi, (token) => maskUri(token));
  return masked.replace(/\s+/g, ' ').trim().slice(0, maxRecordedMessageChars);
}

function inputRequestMethods(result: Readonly<Record<string, unknown>>): string[] | null {
  const requests = result['inputRequests'];
  if (!isRecord(requests)) return null;
  return Object.values(requests).map((r) => (isRecord(r) && typeof r['method'] === 'string' ? r['method'] : 'unknown'));
}

function carrierOf(item: unknown): ReceivedItem['carrier'] {
  if (!isRecord(item)) return 'none';
  const text = typeof item['text'] === 'string';
  const blob = typeof item['blob'] === 'string';
  if (text === blob) return 'none';
  return text ? 'text' : 'blob';
}

function estimatedBytes(item: unknown): number {
  if (!isRecord(item)) return 0;
  if (typeof item['text'] === 'string') return Buffer.byteLength(item['text'], 'utf8');
  if (typeof item['blob'] === 'string') {
    // decoded size from the base64 length alone, without decoding
    const b64 = item['blob'];
    const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
    return Math.max(0, Math.floor((b64.length * 3) / 4) - padding);
  }
  return 0;
}

function declaredMimeOf(item: unknown): string | null {
  return isRecord(item) && typeof item['mimeType'] === 'string' ? normalizeMime(item['mimeType']) : null;
}

/** What the host knows about the connection a link came from. */
export interface LinkContext {
  /** the host's id for the connection (a local label) */
  server: string;
  tool: string | null;
  responseId: string | number | null;
  protocolVersion: string | null;
  client: { name: string; version: string } | null;
  serverInfo: { name: string; version: string } | null;
  /** the front end that found the link; recorded as `stages.discovered.frontEnd` */
  frontEnd?: FrontEnd;
}

/** The discovered stage of a link found at `contentIndex` (null when the read did not come from a tool result). */
export function discoveredStage(
  link: { uri: string; mimeType?: string | undefined; size?: number | undefined },
  contentIndex: number | null,
  context: LinkContext,
  at: Date,
): DiscoveredStage {
  return discoveredOf(link.uri, link.mimeType, link.size, contentIndex, context, at);
}

/**
 * `discoveredStage` of the facts themselves (`mimeType` and `size` undefined when the item has none of that type):
 * the many links of one result cost their stage only, no facts object each. `reading`: the uri's WHATWG reading the
 * link decision takes too (`reused-url.ts`).
 */
export function discoveredOf(
  uri: string,
  mimeType: string | undefined,
  size: number | undefined,
  contentIndex: number | null,
  context: LinkContext,
  at: Date,
  reading?: UriReading,
): DiscoveredStage {
  const atText = isoTime(at);
  const { tool, responseId, server, protocolVersion, frontEnd } = context;
  const contentType = contentIndex === null ? null : 'resource_link';
  const masked = maskUri(uri, reading);
  const declared = mimeType === undefined ? null : mimeType.slice(0, 100);
  const sized = typeof size === 'number' ? size : null;
  const client = clients.of(context.client);
  const serverInfo = servers.of(context.serverInfo);
  // made with all its members at once, `frontEnd` last when there is one (a record's key order is its JSON's): a
  // member set afterwards grows the stage's store, a spread one costs more than the rest of the stage
  if (frontEnd === undefined) {
    return {
      at: atText,
      tool,
      responseId,
      contentIndex,
      contentType,
      uri: masked,
      mimeType: declared,
      size: sized,
      server,
      protocolVersion,
      client,
      serverInfo,
    };
  }
  return {
    at: atText,
    tool,
    responseId,
    contentIndex,
    contentType,
    uri: masked,
    mimeType: declared,
    size: sized,
    server,
    protocolVersion,
    client,
    serverInfo,
    frontEnd,
  };
}

type Peer = { readonly name: string; readonly version: string };

// the cut copy of a connection's peer, made once for the many links found on it (the one object a connection keeps)
// and shared by their records, frozen so no record can change another's
class PeerCopies {
  private from: Peer | null = null;
  private made: Peer | null = null;

  of(info: Peer | null): { name: string; version: string } | null {
    if (info === null) return null;
    if (info !== this.from || this.made === null) {
      // self-reported strings: cut so a hostile server cannot fill the record
      this.made = Object.freeze({ name: String(info.name).slice(0, 100), version: String(info.version).slice(0, 50) });
      this.from = info;
    }
    return this.made;
  }
}

const clients = new PeerCopies();
const servers = new PeerCopies();
