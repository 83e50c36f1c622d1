import type { Decision } from '../decision/decision.ts';

/** How far a link got toward the model's context (DESIGN §2); exactly one per record. */
export type Verdict = 'body-obtained' | 'partially-interpreted' | 'link-only' | 'unverifiable';

/** Which boundary a person should check next (DESIGN §2). */
export type NextBoundary =
  | 'host-link-handling'
  | 'policy'
  | 'origin-server'
  | 'mime-decoding'
  | 'context-assembly'
  | 'cache';

/** Where to look next and why; `hint` is one lowercase line with no body text. */
export interface NextStep {
  boundary: NextBoundary;
  hint: string;
}

/** A self-reported implementation name and version (never trusted, only recorded). */
export interface PeerInfo {
  name: string;
  version: string;
}

/** The kinds of front end that write records (DESIGN §1): which one found the link and ran the flow. */
export const frontEnds = ['proxy', 'hook', 'decorator', 'client-helper', 'probe'] as const;

/** Which front end wrote a record: `linkgate proxy`, `linkgate hook`, `gateTransport`, `gateToolResult`, `linkgate probe`. */
export type FrontEnd = (typeof frontEnds)[number];

/** Stage 1: the link was found; `uri` is masked (no userinfo, no query values). */
export interface DiscoveredStage {
  /** ISO 8601 time the link was found */
  at: string;
  /** tool that returned the link, or null when the read did not come from a tool result */
  tool: string | null;
  /** JSON-RPC id of the tools/call response, or null */
  responseId: string | number | null;
  /**
   * 0-based index in the tool result's `content[]` (for a prompt's or sampling request's link, its position among the
   * blocks of all its messages, `messageBlocks`), or null
   */
  contentIndex: number | null;
  /**
   * content item type (`resource_link`), `elicitation` for a url a URL-mode elicitation asked the host to open, or null
   * when the read did not come from a tool result
   */
  contentType: string | null;
  uri: string;
  /** declared mimeType, as the server wrote it, or null */
  mimeType: string | null;
  /** declared size in bytes, or null */
  size: number | null;
  /** the host's id for the connection that returned the link (a local label, not identifying) */
  server: string;
  /** negotiated MCP protocol revision, or null when unknown */
  protocolVersion: string | null;
  client: PeerInfo | null;
  serverInfo: PeerInfo | null;
  /** the front end that found the link and wrote the record (absent in records written before it was recorded) */
  frontEnd?: FrontEnd;
}

/** How the body was asked for: `resources/read` on the link's server, or the host's own gated `http(s)` fetch. */
export type ReadTransport = 'resources/read' | 'https-direct';

/** What a record keeps of one credential at one fetch hop: its name and fate, never its value. */
export interface RequestedHopCredential {
  /** lower-case header name, or `?name` for a query parameter of the first url (`?access_token`) */
  header: string;
  /** credential kind of the credential stage (`authorization`, `cookie`, …) */
  kind: string;
  /** true when the header went on this hop; false when it was stripped */
  attached: boolean;
  /** reason codes of the strip, empty when attached */
  codes: string[];
}

/** One request of a direct fetch's redirect chain, as the record keeps it. */
export interface RequestedHop {
  /** masked url: no userinfo, no query values */
  url: string;
  method: string;
  /** http status, or null when the hop was refused or got no response */
  status: number | null;
  /** the hop's own link decision; a `deny` stopped the chain here */
  effect: 'allow' | 'deny' | 'partial';
  /** reason codes of the hop's link decision */
  codes: string[];
  /** the checked ip address connected to, or null when no connection was made */
  address: string | null;
  credentials: RequestedHopCredential[];
}

/** Stage 2: a `resources/read` was sent, or a direct fetch started, after an allowed link decision. */
export interface RequestedStage {
  at: string;
  /** JSON-RPC id of the read request, or null when the transport did not expose it (always null for a direct fetch) */
  requestId: string | number | null;
  /** the connection the read went to (for a direct fetch: the connection that returned the link) */
  server: string;
  /** the read deadline, milliseconds */
  deadlineMs: number;
  transport: ReadTransport;
  /** the hops of a direct fetch in order (absent for `resources/read`) */
  hops?: RequestedHop[];
}

/** What the record keeps of one received contents item: sizes and hashes, never the body. */
export interface ReceivedItem {
  index: number;
  carrier: 'text' | 'blob' | 'none';
  /** decoded bytes (utf-8 bytes for text) */
  bytes: number;
  /** declared mimeType of the item, normalized, or null */
  declaredMime: string | null;
  /** sniffed kind from the content checks, or null when no evidence was produced */
  kind: string | null;
  /** `sha256:<hex>` of the decoded bytes, or null when not decoded */
  sha256: string | null;
}

/** Stage 3: a result or error came back (or a cached complete result was reused). */
export interface ReceivedStage {
  at: string;
  /** milliseconds from sending the read to its answer (0 for a cache hit) */
  elapsedMs: number;
  /** `complete`, `input_required`, another value the server sent, or null for an error */
  resultType: string | null;
  /** JSON-RPC error, message masked and cut to one line */
  error: { code: number; message: string } | null;
  /** method names of the server's input requests (`elicitation/create`), never their text */
  inputRequests: string[] | null;
  itemCount: number;
  textItems: number;
  blobItems: number;
  /** decoded bytes of all items together (direct fetch: body bytes received and kept, even when no item was checked) */
  bytes: number;
  items: ReceivedItem[];
  /** server cache hint, milliseconds, or null when absent */
  ttlMs: number | null;
  cacheScope: string | null;
  /** set when the result was served from the read cache: its age and ttl, milliseconds */
  cache: { ageMs: number; ttlMs: number } | null;
  /** direct fetch only: masked url of the response whose body was read */
  finalUrl?: string;
  /** direct fetch only: http status of that response */
  httpStatus?: number;
  /**
   * true when the body was cut before the gate saw all of it: a direct fetch over `read.maxBytes` (`bytes` counts what
   * was kept), or a host that cut a read's output before its hook (Codex)
   */
  truncated?: boolean;
}

/** One contents item that was not passed on, with the reason codes that cut it. */
export interface DroppedItem {
  index: number;
  effect: 'deny' | 'partial';
  codes: string[];
}

/** Stage 4: what was passed on to the model's context. */
export interface DeliveredStage {
  at: string;
  /** indices of the contents items passed on */
  items: number[];
  /** decoded bytes passed on */
  bytes: number;
  /** characters of text passed on */
  characters: number;
  dropped: DroppedItem[];
}

/** The four stages; `null` means the stage was not reached. */
export interface LinkStages {
  discovered: DiscoveredStage;
  requested: RequestedStage | null;
  received: ReceivedStage | null;
  delivered: DeliveredStage | null;
}

/** Where a hook saw the link (DESIGN §4f): the host, its session id, and the ids of the tool calls that returned and read it. */
export interface HostRef {
  /** `linkgate hook HOST` name: `claude-code`, `codex`, `gemini-cli`, `cursor` */
  name: string;
  /** the host's session (conversation) id */
  session: string;
  /** the host's tool-use id of the call that returned the link, and of the read (null when the host sent none) */
  toolUseIds: { discovered: string | null; requested: string | null };
}

/** One record per link (DESIGN §2, §4c); never holds credentials, `requestState` or body text. */
export interface LinkRecord {
  /** masked uri */
  uri: string;
  verdict: Verdict;
  next: NextStep | null;
  stages: LinkStages;
  decisions: { link: Decision; read: Decision | null };
  /** present only in observe mode: the gate would have denied the link or the read */
  wouldDeny?: boolean;
  /** present only in observe mode */
  mode?: 'observe';
  /** present only from a hook: the host, session and tool calls */
  host?: HostRef;
}
