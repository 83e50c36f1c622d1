import { isRecord } from '../decision/json-value.ts';
import { uriOf } from '../link/resource-link.ts';
import { discoverLinks } from './discover-links.ts';

/** Most links a `DiscoveredLinks` keeps; the oldest goes first. */
export const maxDiscoveredLinks = 4096;

/** A link a tool result returned: the item as sent, the server and tool that returned it, its index in `content[]`. */
export interface DiscoveredLink {
  link: Readonly<Record<string, unknown>>;
  server: string;
  tool: string | null;
  contentIndex: number;
}

/**
 * The links a host's tool results returned, so a later read (a read tool the model calls) is judged with where its uri
 * came from: `links.requireSameServer` against the server that returned it, `hook.requireDiscovered` when it never
 * was. At most `maxDiscoveredLinks`, the oldest forgotten first.
 */
export class DiscoveredLinks {
  private readonly byKey = new Map<string, DiscoveredLink>();

  /** Notes every `resource_link` item of a raw tool result `server` returned (from `tool`). */
  note(server: string, toolResult: unknown, tool: string | null = null): void {
    for (const { index, link } of discoverLinks(toolResult).links) {
      const uri = uriOf(link);
      if (uri === '' || !isRecord(link)) continue;
      const key = JSON.stringify([server, uri]);
      this.byKey.delete(key);
      this.byKey.set(key, { link, server, tool, contentIndex: index });
      if (this.byKey.size > maxDiscoveredLinks) this.byKey.delete(this.byKey.keys().next().value as string);
    }
  }

  /** Where `uri` was returned: by `readServer` itself first, else by the server that returned it last; undefined when never. */
  find(uri: string, readServer: string): DiscoveredLink | undefined {
    const own = this.byKey.get(JSON.stringify([readServer, uri]));
    if (own !== undefined) return own;
    let other: DiscoveredLink | undefined;
    for (const found of this.byKey.values()) if (uriOf(found.link) === uri) other = found;
    return other;
  }
}
