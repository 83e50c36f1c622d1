import { isRecord } from '../json-value.ts';

/** What one item of a host's MCP tool output stands for, to the gate. */
export type RenderedItem =
  | { kind: 'link'; link: Record<string, unknown> }
  | { kind: 'embedded'; resource: Record<string, unknown> }
  /** a binary body the host saved to a file and points the model at */
  | { kind: 'saved-file'; path: string; uri: string }
  | { kind: 'none' };

// Claude Code renders an MCP tool result as text before hooks see it (observed on 2.1.332): a `resource_link` becomes
// `[Resource link: <name>] <uri>`, an embedded text resource `[Resource from <server> at <uri>] <text>`, and an
// embedded binary one a header, then `[Image source: <path of the saved bytes>]`
const renderedLink = /^\[Resource link: ([^\]\n]*)\] (\S+)$/;
const renderedResource = /^\[Resource from (.+?) at (\S+)\] ([\s\S]*)$/;
const renderedSavedFile = /^\[Image source: ([^\]\n]+)\]$/;
// Gemini CLI (0.61, observed) renders a `resource_link` as `Resource Link: <name> at <uri>`
const geminiLink = /^Resource Link: (.*) at (\S+)$/;

/**
 * Classifies one content item, native (`resource_link`, `resource`, `image`/`audio` with base64 `data`) or as a host
 * rendered it to text; `lastUri` is the uri of the nearest resource header before it (a saved file's resource).
 */
export function renderedItem(item: unknown, lastUri: string): RenderedItem {
  if (!isRecord(item)) return { kind: 'none' };
  const type = item['type'];
  if (type === 'resource_link') return { kind: 'link', link: item };
  if (type === 'resource' && isRecord(item['resource'])) return { kind: 'embedded', resource: item['resource'] };
  if ((type === 'image' || type === 'audio') && typeof item['data'] === 'string') {
    const resource: Record<string, unknown> = { uri: lastUri, blob: item['data'] };
    if (typeof item['mimeType'] === 'string') resource['mimeType'] = item['mimeType'];
    return { kind: 'embedded', resource };
  }
  if (type !== 'text' || typeof item['text'] !== 'string') return { kind: 'none' };
  const text = item['text'];
  const link = renderedLink.exec(text);
  if (link !== null) return { kind: 'link', link: { type: 'resource_link', name: link[1], uri: link[2] } };
  const gemini = geminiLink.exec(text);
  if (gemini !== null) return { kind: 'link', link: { type: 'resource_link', name: gemini[1], uri: gemini[2] } };
  const resource = renderedResource.exec(text);
  // an empty body is the header of a binary resource whose bytes follow as a saved file
  if (resource !== null && resource[3] !== '') {
    return { kind: 'embedded', resource: { uri: resource[2], text: resource[3] } };
  }
  const saved = renderedSavedFile.exec(text);
  if (saved !== null) return { kind: 'saved-file', path: saved[1] as string, uri: lastUri };
  return { kind: 'none' };
}

/** The uri a resource header item names (`[Resource from <server> at <uri>] …`), or null. */
export function headerUri(item: unknown): string | null {
  if (!isRecord(item) || typeof item['text'] !== 'string') return null;
  return renderedResource.exec(item['text'])?.[2] ?? null;
}
