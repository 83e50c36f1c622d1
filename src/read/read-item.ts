// The shape of one `contents` item of a read result (MCP TextResourceContents | BlobResourceContents).
import { normalizeMime } from '../content/kinds.ts';
import { base64DecodedLength } from './strict-base64.ts';

/** How an item carried its body: `text` (a string), `blob` (base64), or `none` (malformed). */
export type Carrier = 'text' | 'blob' | 'none';

/** A well-shaped item: exactly one string body, its size known before any decoding. */
export interface ShapedItem {
  ok: true;
  index: number;
  carrier: 'text' | 'blob';
  uri: string;
  /** normalized declared mimeType, or null when absent */
  declaredMime: string | null;
  /** the text, or the base64 string of a blob (not yet validated beyond its length) */
  payload: string;
  /** decoded size in bytes: utf-8 bytes of text, or the size implied by the base64 length */
  bytes: number;
}

/** A malformed item with the one-line reason; `bytes` is 0 because nothing was decoded. */
export interface MalformedItem {
  ok: false;
  index: number;
  carrier: Carrier;
  uri: string | null;
  declaredMime: string | null;
  message: string;
}

/** Result of inspecting one item. */
export type InspectedItem = ShapedItem | MalformedItem;

/** Inspects one untrusted item: an object with a string `uri`, an optional string `mimeType` and exactly one of string `text`/`blob`. Never throws, never decodes. */
export function inspectItem(value: unknown, index: number): InspectedItem {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, index, carrier: 'none', uri: null, declaredMime: null, message: 'the item is not an object' };
  }
  const item = value as Record<string, unknown>;
  const uri = typeof item['uri'] === 'string' ? item['uri'] : null;
  const rawMime = Object.hasOwn(item, 'mimeType') ? item['mimeType'] : undefined;
  const normalized = typeof rawMime === 'string' ? normalizeMime(rawMime) : '';
  const declaredMime = normalized === '' ? null : normalized;
  const hasText = Object.hasOwn(item, 'text');
  const hasBlob = Object.hasOwn(item, 'blob');
  const carrier: Carrier = hasText && !hasBlob ? 'text' : hasBlob && !hasText ? 'blob' : 'none';
  if (hasText && hasBlob) return malformed(index, carrier, uri, declaredMime, 'the item has both `text` and `blob`');
  if (!hasText && !hasBlob)
    return malformed(index, carrier, uri, declaredMime, 'the item has neither `text` nor `blob`');
  if (uri === null) return malformed(index, carrier, uri, declaredMime, 'the item has no string `uri`');
  if (rawMime !== undefined && typeof rawMime !== 'string')
    return malformed(index, carrier, uri, declaredMime, 'the item has a `mimeType` that is not a string');
  const payload = hasText ? item['text'] : item['blob'];
  if (typeof payload !== 'string')
    return malformed(
      index,
      carrier,
      uri,
      declaredMime,
      `the item has a \`${hasText ? 'text' : 'blob'}\` that is not a string`,
    );
  if (hasText) {
    return { ok: true, index, carrier: 'text', uri, declaredMime, payload, bytes: Buffer.byteLength(payload, 'utf8') };
  }
  const bytes = base64DecodedLength(payload);
  if (bytes === null)
    return malformed(index, carrier, uri, declaredMime, 'the item has a `blob` whose length is not valid base64');
  return { ok: true, index, carrier: 'blob', uri, declaredMime, payload, bytes };
}

function malformed(
  index: number,
  carrier: Carrier,
  uri: string | null,
  declaredMime: string | null,
  message: string,
): MalformedItem {
  return { ok: false, index, carrier, uri, declaredMime, message };
}
