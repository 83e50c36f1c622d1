import { isRecord } from '../decision/json-value.ts';
import { uriOf } from '../link/resource-link.ts';
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
  /**
   * its link decision, made once (`TransportSession.stepOf`): the discovery record, the result, a read and the close
   * share it; the step itself when the gate decided at once (`startLinkNow`), else its promise. Kept on the link with
   * what it depended on (`decidedUnder`, `decidedExpired`), not in an object of its own: a tool result's 500 links
   * cost no object each for it
   */
  decided?: LinkStep | Promise<LinkStep> | undefined;
  /** the policy `decided` was made under */
  decidedUnder?: Policy | undefined;
  /** whether the policy's review had expired when `decided` was made */
  decidedExpired?: boolean | undefined;
}

// a found link with every member it will hold, the three of its decision still unset: made with all of them, so
// setting them later grows no property store (a tool result's 500 links, 500 allocations fewer)
function foundLink(
  link: StartLinkInput['link'],
  contentIndex: number | null,
  tool: string | null,
  responseId: JsonRpcId | null,
  at: Date,
  read: boolean,
): FoundLink {
  return {
    link,
    contentIndex,
    tool,
    responseId,
    at,
    read,
    decided: undefined,
    decidedUnder: undefined,
    decidedExpired: undefined,
  };
}

/**
 * The links of tool results, one entry per listing (a link two results list, or one result twice, is two discoveries,
 * each ending in its own record: DESIGN §4c), oldest first, at most `maxRememberedLinks`; a read of a uri is for its
 * newest listing, whose context it keeps.
 */
export class FoundLinks {
  // every listing still remembered and its uri, in a ring of `maxRememberedLinks` slots: the listing numbered `n`
  // (counted from the first, `added` in all) at slot `n % maxRememberedLinks`, the `size` newest kept. A queue, not a
  // Map keyed by listing (a Map's oldest entry is found past every entry deleted before it, so evicting one listing
  // per new one from a full map costs more with every eviction), and a ring, not an array copied down as it fills
  // (two arrays grown and copied every `maxRememberedLinks` listings cost more than the listings themselves)
  private listed: FoundLink[] = [];
  private uris: string[] = [];
  private added = 0;
  private size = 0;
  // the newest listing of each uri among those numbered below `indexed`: the listings after it are indexed only when
  // a uri is looked up (a read, a body's link), so a tool result's 500 links cost no map entry each (nor a map lookup
  // and delete each, once the ring is full) when none of them is read before they are pushed out
  private readonly newest = new Map<string, FoundLink>();
  private indexed = 0;

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
    for (const { index, link } of links)
      this.add(foundLink(link, index, tool, responseId, at(), false), found, evicted);
    return { found, evicted };
  }

  /**
   * `remember` of the `resource_link` items of a tool result's `result`, found as `discoverLinks` finds them (only
   * `content[]` items, each item's `type` read once), found `at`: no entry per link made only to be read again.
   * `listsEvicted` false: the listings pushed out are not listed (nothing records them), `evicted` is empty.
   */
  rememberResult(
    result: unknown,
    tool: string | null,
    responseId: JsonRpcId,
    at: Date,
    listsEvicted = true,
  ): { found: FoundLink[]; evicted: FoundLink[] } {
    const evicted: FoundLink[] = [];
    const pushedOut = listsEvicted ? evicted : null;
    const found: FoundLink[] = [];
    const content = isRecord(result) && Array.isArray(result['content']) ? result['content'] : [];
    // forEach, as `discoverLinks`: a hole in the array is no item
    content.forEach((item: unknown, index: number) => {
      if (isRecord(item) && item['type'] === 'resource_link')
        this.add(foundLink(item, index, tool, responseId, at, false), found, pushedOut);
    });
    return { found, evicted };
  }

  /**
   * Keeps a link of a read's JSON body (`keptBodyLinks`: every link object, every refused link) as a link the server
   * returned, found `at`, read already (it is in the read's record: no record of its own): a later read of its uri is
   * judged as this link. A uri a listing kept already keeps that listing (the oldest, as the hook's state keeps it).
   * Returns the unread listings it pushed out of a full ledger (recorded as a tool result's are).
   */
  keepFromBody(link: StartLinkInput['link'], responseId: JsonRpcId, at: Date): FoundLink[] {
    const evicted: FoundLink[] = [];
    if (this.newestOf(uriOf(link)) !== undefined) return evicted;
    this.add(foundLink(link, null, null, responseId, at, true), [], evicted);
    return evicted;
  }

  // one listing remembered: onto `found`, the unread listing it pushed out of a full ring onto `evicted` (if any)
  private add(f: FoundLink, found: FoundLink[], evicted: FoundLink[] | null): void {
    const uri = uriOf(f.link);
    found.push(f);
    const slot = this.added % maxRememberedLinks;
    if (this.size === maxRememberedLinks) {
      // the oldest listing, in the slot the new one takes: in the map only once indexed (and there only while it is
      // its uri's newest)
      const listing = this.listed[slot] as FoundLink;
      if (this.added - maxRememberedLinks < this.indexed) {
        const listedUri = this.uris[slot] as string;
        if (this.newest.get(listedUri) === listing) this.newest.delete(listedUri);
      }
      this.size -= 1;
      if (!listing.read) evicted?.push(listing);
    }
    // (until the ring is full, the slot is the arrays' end: they grow to `maxRememberedLinks` and no further)
    this.listed[slot] = f;
    this.uris[slot] = uri;
    this.added += 1;
    this.size += 1;
  }

  // the newest remembered listing of `uri`: the listings not yet indexed are indexed first, oldest first (a newer
  // listing of a uri takes its place), from the oldest one still remembered
  private newestOf(uri: string): FoundLink | undefined {
    for (let n = Math.max(this.indexed, this.added - this.size); n < this.added; n += 1) {
      const slot = n % maxRememberedLinks;
      this.newest.set(this.uris[slot] as string, this.listed[slot] as FoundLink);
    }
    this.indexed = this.added;
    return this.newest.get(uri);
  }

  /**
   * The link a read of `uri` is for, marked read: its newest listing, or a bare link with no tool-result context, found
   * `at()` (the clock is read only for a bare link).
   */
  forRead(uri: string, at: () => Date): FoundLink {
    const f = this.newestOf(uri) ?? foundLink({ type: 'resource_link', uri, name: uri }, null, null, null, at(), true);
    f.read = true;
    return f;
  }

  /** Takes every remembered listing that was never read, oldest first, and forgets them all. */
  takeUnread(): FoundLink[] {
    const unread: FoundLink[] = [];
    for (let n = this.added - this.size; n < this.added; n += 1) {
      const f = this.listed[n % maxRememberedLinks] as FoundLink;
      if (!f.read) unread.push(f);
    }
    this.listed = [];
    this.uris = [];
    this.added = 0;
    this.size = 0;
    this.indexed = 0;
    this.newest.clear();
    return unread;
  }
}
