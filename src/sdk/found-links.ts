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
  // every listing still remembered, oldest first from `head` on, and its uri at the same index: a queue, not a Map
  // keyed by listing (a Map's oldest entry is found past every entry deleted before it, so evicting one listing per
  // new one from a full map costs more with every eviction)
  private listed: FoundLink[] = [];
  private uris: string[] = [];
  private head = 0;
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
    for (const { index, link } of links)
      this.add(foundLink(link, index, tool, responseId, at(), false), found, evicted);
    this.compact();
    return { found, evicted };
  }

  /**
   * `remember` of the `resource_link` items of a tool result's `result`, found as `discoverLinks` finds them (only
   * `content[]` items, each item's `type` read once), found `at`: no entry per link made only to be read again.
   */
  rememberResult(
    result: unknown,
    tool: string | null,
    responseId: JsonRpcId,
    at: Date,
  ): { found: FoundLink[]; evicted: FoundLink[] } {
    const evicted: FoundLink[] = [];
    const found: FoundLink[] = [];
    const content = isRecord(result) && Array.isArray(result['content']) ? result['content'] : [];
    // forEach, as `discoverLinks`: a hole in the array is no item
    content.forEach((item: unknown, index: number) => {
      if (isRecord(item) && item['type'] === 'resource_link')
        this.add(foundLink(item, index, tool, responseId, at, false), found, evicted);
    });
    this.compact();
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
    if (this.newest.has(uriOf(link))) return evicted;
    this.add(foundLink(link, null, null, responseId, at, true), [], evicted);
    this.compact();
    return evicted;
  }

  // one listing remembered: onto `found`, the unread listing it pushed out of a full queue onto `evicted`
  private add(f: FoundLink, found: FoundLink[], evicted: FoundLink[]): void {
    const uri = uriOf(f.link);
    found.push(f);
    this.listed.push(f);
    this.uris.push(uri);
    this.newest.set(uri, f);
    if (this.listed.length - this.head > maxRememberedLinks) {
      const listing = this.listed[this.head] as FoundLink;
      const listedUri = this.uris[this.head] as string;
      this.head += 1;
      if (this.newest.get(listedUri) === listing) this.newest.delete(listedUri);
      if (!listing.read) evicted.push(listing);
    }
  }

  // the queue drops what it evicted once that is as much as it keeps
  private compact(): void {
    if (this.head >= maxRememberedLinks) {
      this.listed = this.listed.slice(this.head);
      this.uris = this.uris.slice(this.head);
      this.head = 0;
    }
  }

  /**
   * The link a read of `uri` is for, marked read: its newest listing, or a bare link with no tool-result context, found
   * `at()` (the clock is read only for a bare link).
   */
  forRead(uri: string, at: () => Date): FoundLink {
    const f =
      this.newest.get(uri) ?? foundLink({ type: 'resource_link', uri, name: uri }, null, null, null, at(), true);
    f.read = true;
    return f;
  }

  /** Takes every remembered listing that was never read, oldest first, and forgets them all. */
  takeUnread(): FoundLink[] {
    const unread = this.listed.slice(this.head).filter((f) => !f.read);
    this.listed = [];
    this.uris = [];
    this.head = 0;
    this.newest.clear();
    return unread;
  }
}
