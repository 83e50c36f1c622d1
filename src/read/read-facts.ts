// Facts for read-stage custom rules, exactly the names `ruleFacts.read` lists.
import { freezeFacts, type RuleFacts } from '../policy/rule-facts.ts';

/** The inputs of read-stage facts; `kinds` and `mimeTypes` hold one entry per contents item. */
export interface ReadFactsInput {
  server: string;
  readFrom: string;
  uri: string;
  /** `complete` when absent; `error` for a JSON-RPC error */
  resultType: string;
  /** milliseconds, null when not reported */
  elapsedMs: number | null;
  itemCount: number;
  /** decoded bytes of all well-shaped items, by their sizes (computed before decoding) */
  totalBytes: number;
  kinds: readonly string[];
  /** declared mime type per item, `` when absent */
  mimeTypes: readonly string[];
}

/** Builds the frozen, null-prototype facts a read-stage rule sees. */
export function buildReadFacts(input: ReadFactsInput): RuleFacts {
  return freezeFacts({
    server: input.server,
    readFrom: input.readFrom,
    uri: input.uri,
    resultType: input.resultType,
    elapsedMs: input.elapsedMs,
    itemCount: input.itemCount,
    totalBytes: input.totalBytes,
    kinds: input.kinds,
    mimeTypes: input.mimeTypes,
  });
}
