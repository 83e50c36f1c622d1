import type { Decision } from '../decision/decision.ts';
import type { ItemEvidence } from '../gate/decide-read.ts';
import type { HopCredential } from './credential-headers.ts';
import type { FetchEnding } from './fetch-ending.ts';

/** One request of a redirect chain (the record's `requested` stage lists them in order). */
export interface FetchHop {
  /** masked url: no userinfo, no query values */
  url: string;
  /** method sent, or that would have been sent when the hop was refused */
  method: string;
  /** http status, or null when the hop was refused or got no response */
  status: number | null;
  /** the link decision of this hop; a deny here stopped the chain */
  decision: Decision;
  /** the checked address the connection went to, or null when none was made */
  address: string | null;
  /** which credential headers went on this hop and why the others were stripped */
  credentials: HopCredential[];
}

/** The outcome of one direct fetch; enough for the record's `requested` and `received` stages, never a credential. */
export interface FetchResult {
  /** the name of this transport in records */
  transport: 'https-direct';
  /** the overall decision: a refused hop's, a fetch failure's, or the content checks' on the received bytes */
  decision: Decision;
  /** how the fetch ended: refused, timeout, http error, complete, or failed */
  ending: FetchEnding;
  hops: FetchHop[];
  /** masked url of the response whose body was read, or null when no final response came */
  finalUrl: string | null;
  /** http status of the final response, or null */
  status: number | null;
  /** the final response's `content-type` as sent, or null */
  contentType: string | null;
  /** body bytes received and kept (never more than `read.maxBytes`) */
  bytes: number;
  /** true when the body went over `read.maxBytes` and was cut */
  truncated: boolean;
  /** milliseconds from the start of the fetch to its end */
  elapsedMs: number;
  /** per-item evidence of the content checks (one item: the body), empty when they did not run */
  evidence: ItemEvidence[];
  /** the body, only when the decision lets it through (allow, or partial with the item not denied) */
  body?: Uint8Array;
}
