// One record per link for a front end that sees a session's events in process (the Claude Agent SDK's hooks): a link a
// tool result lists gets a discovery record as the result goes out (`kind: "discovered"`, a refused link's with its
// refusal), the read's record supersedes it, and at the session's end each link never read gets its last record, so
// a link listed and never read is recorded too and no link is recorded twice. The front end says when sessions end
// (`flush`).
import type { DiscoveredRecord } from '../record/discovered-record.ts';
import type { LinkRecord } from '../record/link-record.ts';
import type { EmbeddedRecord } from '../record/embedded-record.ts';
import type { RecordSink } from '../record/record-sink.ts';
import { minJudgementMs } from '../flow/guard-gate.ts';
import { RecordsDeadline } from '../sdk/records-deadline.ts';

/** Most links a ledger waits on at once, over all sessions; the oldest is forgotten first (its discovery record stays). */
export const maxLedgerLinks = 4096;

/** Where a front end's records go through the ledger: each is written to the sink in the order it comes. */
export class LinkLedger {
  // each listing of a link (session, uri, the tool use that listed it, its place) -> its discovery record, while no
  // later record of it was written; oldest first
  private readonly waiting = new Map<string, DiscoveredRecord>();
  // [session, uri] -> the keys of its waiting listings, oldest first: a read supersedes the newest
  private readonly listings = new Map<string, string[]>();

  // every write the sink is given ends by this deadline: a sink that never settles fails the write (the front end then
  // answers closed), never keeps a hook callback from answering
  private readonly deadline: RecordsDeadline;

  /** `deadlineMs`: the longest one sink write may take before it fails (default: the gate's floor for a judgement). */
  constructor(
    private readonly sink: RecordSink,
    deadlineMs: number = minJudgementMs,
  ) {
    this.deadline = new RecordsDeadline(deadlineMs);
  }

  /** An embedded resource's record, written to the sink (when it takes them) under the same deadline. */
  async embedded(record: EmbeddedRecord): Promise<void> {
    const sink = this.sink;
    if (sink.writeEmbedded !== undefined) await this.write(() => sink.writeEmbedded?.(record));
  }

  /** A link's discovery record: written, and kept until a later record of the link or `flush` (each listing apart). */
  async discovered(record: DiscoveredRecord): Promise<void> {
    await this.write(() => this.sink.write(record));
    const session = record.host?.session;
    if (session === undefined) return;
    const link = JSON.stringify([session, record.uri]);
    const key = JSON.stringify([link, record.host?.toolUseIds.discovered ?? null, contentIndexOf(record)]);
    // the same listing written again waits once, as its newest record
    if (this.waiting.delete(key)) this.drop(link, key);
    this.waiting.set(key, record);
    this.listings.set(link, [...(this.listings.get(link) ?? []), key]);
    if (this.waiting.size > maxLedgerLinks) {
      const oldest = this.waiting.keys().next().value as string;
      const first = this.waiting.get(oldest);
      this.waiting.delete(oldest);
      if (first !== undefined) this.drop(JSON.stringify([first.host?.session, first.uri]), oldest);
    }
  }

  /**
   * A finished record. One written as a tool result went out, before any read (a refused link: no tool call read it),
   * is the link's discovery record; any other supersedes the newest listing of the link.
   */
  async finished(record: LinkRecord): Promise<void> {
    const ids = record.host?.toolUseIds;
    if (ids !== undefined && ids.requested === null && ids.discovered !== null)
      return this.discovered({ kind: 'discovered', ...record });
    await this.write(() => this.sink.write(record));
    if (record.host === undefined) return;
    const link = JSON.stringify([record.host.session, record.uri]);
    const newest = this.listings.get(link)?.at(-1);
    if (newest === undefined) return;
    this.waiting.delete(newest);
    this.drop(link, newest);
  }

  /** The sessions ended: each listing never read gets its last record (its discovery record's decision). */
  async flush(): Promise<void> {
    const links = [...this.waiting.values()];
    this.waiting.clear();
    this.listings.clear();
    for (const { kind: _discovered, ...last } of links) await this.write(() => this.sink.write(last));
  }

  // one sink write, failing at the deadline
  private write(write: () => unknown): Promise<void> {
    return this.deadline.run(write);
  }

  // forgets `key` among the listings of `link`
  private drop(link: string, key: string): void {
    const keys = (this.listings.get(link) ?? []).filter((k) => k !== key);
    if (keys.length === 0) this.listings.delete(link);
    else this.listings.set(link, keys);
  }
}

// where in its tool result a record's link was listed (null when the record does not say)
function contentIndexOf(record: DiscoveredRecord): number | null {
  const stages = (record as { stages?: { discovered?: { contentIndex?: unknown } } }).stages;
  const index = stages?.discovered?.contentIndex;
  return typeof index === 'number' ? index : null;
}
