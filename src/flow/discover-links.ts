import { isRecord } from '../decision/json-value.ts';
import { uriOf } from '../link/resource-link.ts';

/** A `resource_link` item found in a tool result, as sent (`startLink` checks it), with its 0-based index in `content[]`. */
export interface FoundLink {
  index: number;
  /** the item as the server sent it: not yet checked to be a `ResourceLink` */
  link: Readonly<Record<string, unknown>>;
}

/** An embedded `resource` item found in a tool result (checked without a read). */
export interface FoundEmbedded {
  index: number;
  resource: Readonly<Record<string, unknown>>;
}

/** The links and embedded resources of a raw tool result; only `content[]` items count, never URIs inside text. */
export function discoverLinks(result: unknown): { links: FoundLink[]; embedded: FoundEmbedded[] } {
  const links: FoundLink[] = [];
  const embedded: FoundEmbedded[] = [];
  const content = isRecord(result) && Array.isArray(result['content']) ? result['content'] : [];
  content.forEach((item: unknown, index: number) => {
    if (!isRecord(item)) return;
    if (item['type'] === 'resource_link') links.push({ index, link: item });
    else if (item['type'] === 'resource' && isRecord(item['resource']))
      embedded.push({ index, resource: item['resource'] });
  });
  return { links, embedded };
}

/** The declared parts of a link the record keeps, whatever shape the server sent. */
export function linkFacts(link: unknown): { uri: string; mimeType?: string; size?: number } {
  const facts: { uri: string; mimeType?: string; size?: number } = { uri: uriOf(link) };
  if (!isRecord(link)) return facts;
  if (typeof link['mimeType'] === 'string') facts.mimeType = link['mimeType'];
  if (typeof link['size'] === 'number') facts.size = link['size'];
  return facts;
}
