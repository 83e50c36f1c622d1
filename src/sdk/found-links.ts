import { linkFacts } from '../flow/discover-links.ts';
import type { LinkStep, StartLinkInput } from '../flow/link-steps.ts';
import type { Policy } from '../policy/policy.ts';
import type { JsonRpcId } from '../flow/json-rpc-shape.ts';
import { maxRememberedLinks } from './requests-in-flight.ts';

/** One link the decorator saw, by where it came from; `read` is set once a read was attempted. */
export interface FoundLink {
  link: StartLinkInput['link'];
  contentIndex: number | null;
  tool: string | null;
  responseId: JsonRpcId | null;
  at: Date;
  /** set once a read was attempted, so the link is not recorded again as unread */
  read: boolean;
  /** its link decision, made once (`TransportSession.stepOf`): the discovery record, the result, a read and the close share it */
  decided?: DecidedStep;
}

/** A found link's step and what its decision depended on: the policy, and whether its review had expired. */
export interface DecidedStep {
  readonly step: Promise<LinkStep>;
  readonly policy: Policy;
  readonly reviewExpired: boolean;
}

/**
 * The links of tool results, one entry per listing (a link two results list, or one result twice, is two discoveries,
 * each ending in its own record: DESIGN §4c), oldest first, at most `maxRememberedLinks`; a read of a uri is for its
 * newest listing, whose context it keeps.
 */
export class FoundLinks {
  // every listing still remembered, oldest first, with its uri
  private readonly listings = new Map<FoundLink, string>();
  // the newest listing of each uri
  private readonly newest = new Map<string, FoundLink>();

  /**
   * Remembers the links of one tool result; returns them (`found`, in content order) and the unread listings pushed
   * out because the map was full (`evicted`).
   */
  remember(
    links: readonly { index: number; link: StartLinkInput['link'] }[],
    tool: string | null,
    responseId: JsonRpcId,
    at: () => Date,
  ): { found: FoundLink[]; evicted: FoundLink[] } {
    const evicted: FoundLink[] = [];
    const found: FoundLink[] = [];
    for (const { index, link } of links) {
      const uri = linkFacts(link).uri;
      const f: FoundLink = { link, contentIndex: index, tool, responseId, at: at(), read: false };
      found.push(f);
      this.listings.set(f, uri);
      this.newest.set(uri, f);
      if (this.listings.size > maxRememberedLinks) {
        const oldest = this.listings.entries().next();
        if (oldest.done !== true) {
          const [listing, listedUri] = oldest.value;
          this.listings.delete(listing);
          if (this.newest.get(listedUri) === listing) this.newest.delete(listedUri);
          if (!listing.read) evicted.push(listing);
        }
      }
    }
    return { found, evicted };
  }

  /** The link a read of `uri` is for, marked read: its newest listing, or a bare link with no tool-result context. */
  forRead(uri: string, at: Date): FoundLink {
    const f = this.newest.get(uri) ?? {
      link: { type: 'resource_link', uri, name: uri },
      contentIndex: null,
      tool: null,
      responseId: null,
      at,
      read: true,
    };
    f.read = true;
    return f;
  }

  /** Takes every remembered listing that was never read, oldest first, and forgets them all. */
  takeUnread(): FoundLink[] {
    const unread = [...this.listings.keys()].filter((f) => !f.read);
    this.listings.clear();
    this.newest.clear();
    return unread;
  }
}
