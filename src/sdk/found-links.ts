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

/** The links of tool results by uri, newest last, at most `maxRememberedLinks`; a later read keeps their context. */
export class FoundLinks {
  private readonly byUri = new Map<string, FoundLink>();

  /**
   * Remembers the links of one tool result; returns them (`found`, in content order) and the unread links pushed out
   * because the map was full (`evicted`).
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
      this.byUri.delete(uri);
      this.byUri.set(uri, f);
      if (this.byUri.size > maxRememberedLinks) {
        const oldest = this.byUri.entries().next();
        if (oldest.done !== true) {
          this.byUri.delete(oldest.value[0]);
          if (!oldest.value[1].read) evicted.push(oldest.value[1]);
        }
      }
    }
    return { found, evicted };
  }

  /** The link a read of `uri` is for, marked read: the remembered one, or a bare link with no tool-result context. */
  forRead(uri: string, at: Date): FoundLink {
    const f = this.byUri.get(uri) ?? {
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

  /** Takes every remembered link that was never read, and forgets them all. */
  takeUnread(): FoundLink[] {
    const unread = [...this.byUri.values()].filter((f) => !f.read);
    this.byUri.clear();
    return unread;
  }
}
