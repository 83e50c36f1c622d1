// One record per link for a front end that sees a session's events in process (the Claude Agent SDK's hooks): a link a
// tool result lists gets a discovery record as the result goes out (`kind: "discovered"`, a refused link's with its
// refusal), the read's record supersedes it, and at the session's end each link never read gets its last record, so
// a link listed and never read is recorded too and no link is recorded twice. The front end says when sessions end
// (`flush`).
import type { DiscoveredRecord } from '../record/discovered-record.ts';
import type { LinkRecord } from '../record/link-record.ts';
import type { RecordSink } from '../record/record-sink.ts';

/** Most links a ledger waits on at once, over all sessions; the oldest is forgotten first (its discovery record stays). */
export const maxLedgerLinks = 4096;

/** Where a front end's records go through the ledger: each is written to the sink in the order it comes. */
export class LinkLedger {
  // [session, uri] -> the link's discovery record, while no later record of the link was written
  private readonly waiting = new Map<string, DiscoveredRecord>();

  constructor(private readonly sink: RecordSink) {}

  /** A link's discovery record: written, and kept until a later record of the link or `flush`. */
  async discovered(record: DiscoveredRecord): Promise<void> {
    await this.sink.write(record);
    const session = record.host?.session;
    if (session === undefined) return;
    const key = JSON.stringify([session, record.uri]);
    this.waiting.delete(key);
    this.waiting.set(key, record);
    if (this.waiting.size > maxLedgerLinks) this.waiting.delete(this.waiting.keys().next().value as string);
  }

  /**
   * A finished record. One written as a tool result went out, before any read (a refused link: no tool call read it),
   * is the link's discovery record; any other supersedes the link's discovery record.
   */
  async finished(record: LinkRecord): Promise<void> {
    const ids = record.host?.toolUseIds;
    if (ids !== undefined && ids.requested === null && ids.discovered !== null)
      return this.discovered({ kind: 'discovered', ...record });
    await this.sink.write(record);
    if (record.host !== undefined) this.waiting.delete(JSON.stringify([record.host.session, record.uri]));
  }

  /** The sessions ended: each link they listed and never read gets its last record (its discovery record's decision). */
  async flush(): Promise<void> {
    const links = [...this.waiting.values()];
    this.waiting.clear();
    for (const { kind: _discovered, ...last } of links) await this.sink.write(last);
  }
}
