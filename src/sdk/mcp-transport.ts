// The MCP client Transport, written structurally: the members SDK 1.x (`@modelcontextprotocol/sdk`) and 2.x
// (`@modelcontextprotocol/client`) transports both have, so linkgate's type files import neither package and a project
// with only one of them installed type-checks. `onmessage` compares its parameters both ways (a method's type), so a
// 1.x or 2.x transport fits `McpTransport` and a `GateTransport` fits either SDK's `Transport`.

/** A JSON-RPC 2.0 message as a transport carries it: a request, notification, result or error (or a 1.x batch). */
export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: string | number | undefined;
  method?: string | undefined;
  params?: unknown;
  result?: unknown;
  error?: unknown;
  [key: string]: unknown;
}

/** What a transport says about a message it received (the HTTP request, auth info, …); passed on unread. */
export type MessageExtraInfo = object;

/** Options of one `send`: the members the gate passes on (both SDKs add more, all optional). */
export interface TransportSendOptions {
  relatedRequestId?: string | number | undefined;
  resumptionToken?: string | undefined;
  onresumptiontoken?: ((token: string) => void) | undefined;
}

/** A transport's message callback; a method's type, so each SDK's generic callback fits it and it fits theirs. */
export type MessageHandler = {
  handle(message: JsonRpcMessage, extra?: MessageExtraInfo): void;
}['handle'];

/** An MCP client transport (stdio, Streamable HTTP, in-memory, …) of SDK 1.x or 2.x. */
export interface McpTransport {
  start(): Promise<void>;
  /** a batch (an array) only where the transport takes one (SDK 1.x Streamable HTTP) */
  send(message: JsonRpcMessage | JsonRpcMessage[], options?: TransportSendOptions): Promise<void>;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: MessageHandler | undefined;
  sessionId?: string | undefined;
  setProtocolVersion?: ((version: string) => void) | undefined;
  /** 2.x: the protocol versions the client supports, for header checks */
  setSupportedProtocolVersions?: ((versions: string[]) => void) | undefined;
  /** 2.x: one underlying request per JSON-RPC request (Streamable HTTP) */
  readonly hasPerRequestStream?: boolean;
}

/** The SDK's `FetchLike`: a fetch a Streamable HTTP transport takes as its `fetch` option. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;
