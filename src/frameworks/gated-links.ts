// The shared core of the frameworks' gated read tools (the model's way to read a link it was given). An agent's MCP
// connections each go through `gateTransport`; this notes the `resource_link`s of the tool results they pass on (after
// the gate: a refused link reached the model as a notice, so it is never one of them), and reads one of those links,
// and nothing else, as a `resources/read` over the connection that returned it, so the read meets the gate's link and
// read decisions and leaves its record like any other. One `GatedLinks` per agent; each framework's file wraps `read`
// in that framework's tool shape.
import type {
  JsonRpcMessage,
  McpTransport,
  MessageExtraInfo,
  MessageHandler,
  TransportSendOptions,
} from '../sdk/mcp-transport.ts';
import { isRecord } from '../decision/json-value.ts';
import { quoteValue } from '../decision/quote-value.ts';
import { discoverLinks } from '../flow/discover-links.ts';
import { isJsonRpcId, type JsonRpcId } from '../flow/json-rpc-shape.ts';
import { uriOf } from '../link/resource-link.ts';
import { type GateTransport, gateErrorCode, gateTransport, maxRememberedLinks } from '../sdk/gate-transport.ts';
import { connectionByteCap } from '../sdk/connection-byte-cap.ts';
import { oversizeOf } from '../sdk/oversize-answer.ts';
import { RefusedAddresses } from '../sdk/refused-addresses.ts';
import type { GateTransportOptions } from '../sdk/transport-session.ts';
import { errorLine } from '../decision/error-line.ts';

/** The gate's options shared by every connection of the agent (`server` is given per connection). */
export type GatedLinksOptions = Omit<GateTransportOptions, 'server'>;

/** The JSON schema of a read tool's parameters: `{ uri }`, nothing else (strict mode in every framework). */
export interface ReadLinkParameters {
  type: 'object';
  properties: { uri: { type: 'string'; description: string } };
  required: string[];
  additionalProperties: false;
}

/** The parameters of every framework's read tool. */
export const readLinkParameters: ReadLinkParameters = {
  type: 'object',
  properties: { uri: { type: 'string', description: 'the uri of a resource_link a tool returned' } },
  required: ['uri'],
  additionalProperties: false,
};

/** The read tool's description, for the model. */
export const readLinkDescription =
  'Reads the resource a resource_link of a tool result points to (only links a tool returned), through linkgate';

/** The agent's gated MCP connections and the links their tool results passed on. */
export interface GatedLinks {
  /**
   * `gateTransport(inner, { ...options, server })`, noting the links of the tool results it passes on; give it to the
   * framework's MCP client as that server's transport (one per server, each with its own name)
   */
  transport(server: string, inner: McpTransport): GateTransport;
  /**
   * The body of a link a tool result of one of these connections passed on, read through the gate over that
   * connection, as text for the model: the delivered `contents` as JSON, or the gate's notice when the read was
   * refused, withheld or failed. A uri no tool result passed on is refused without asking any server (no record).
   * Never rejects.
   */
  read(uri: string): Promise<string>;
}

/** Most time a read tool waits beyond the policy's read deadline for the gate's own answer, milliseconds. */
export const readGraceMs = 5000;

/** The agent's gated connections, for a framework's read tool (`aiSdkReadLinkTool`, `mastraReadLinkTool`, …). */
export function gatedLinks(options: GatedLinksOptions): GatedLinks {
  // uri -> the connection whose tool result passed it on last; the oldest forgotten first
  const discovered = new Map<string, LinkNotingTransport>();
  const note = (uri: string, from: LinkNotingTransport) => {
    discovered.delete(uri);
    discovered.set(uri, from);
    if (discovered.size > maxRememberedLinks) discovered.delete(discovered.keys().next().value as string);
  };
  const deadlineMs = options.gate.policy.document.read.readTimeoutMs + readGraceMs;
  // one agent, one model: each connection searches for what any of them refused (a link refused on one connection,
  // its address in prose of another's later result, reached the model)
  const refused = options.refused ?? new RefusedAddresses(connectionByteCap(options.gate.policy));
  return {
    transport: (server, inner) => {
      const gated = gateTransport(inner, { ...options, server, refused });
      serverErrorsAsTheirs(inner);
      return new LinkNotingTransport(gated, note);
    },
    async read(uri) {
      const from = discovered.get(uri);
      if (from === undefined) return notDiscoveredNotice;
      return from.readLink(uri, deadlineMs);
    },
  };
}

/** The notice for a uri no tool result passed on (the read tool never asks a server for it); like every notice, no uri. */
export const notDiscoveredNotice =
  'linkgate refused the read: link.not-discovered (no tool result of this session returned this uri)';

/** What a read answered, as the text the model gets: the contents as JSON, or why nothing was delivered (no uri). */
export function readAnswerText(answer: { result?: unknown; error?: unknown }): string {
  if (answer.error !== undefined) {
    const error = isRecord(answer.error) ? answer.error : {};
    const message = typeof error['message'] === 'string' ? error['message'] : 'the read failed';
    // the gate's refusal or withholding (-32080) is its notice already; a server's own error says what failed
    if (error['code'] === gateErrorCode) return message;
    return `linkgate did not deliver the read: the server answered ${quoteValue(message)}`;
  }
  const contents = isRecord(answer.result) ? answer.result['contents'] : undefined;
  return JSON.stringify(Array.isArray(contents) ? contents : []);
}

/** The code a server's own error sent with the gate's code (-32080) is handed on with: JSON-RPC's internal error. */
export const serverGateCodeAs = -32603;

/**
 * Hands the gate (which set `inner.onmessage`) each error answer a server sent with the gate's own code (-32080) as the
 * server's: code `serverGateCodeAs`, its message said to be the server's. The read tool shows a -32080 message as the
 * gate's notice, so a server writing its own verdict there ("linkgate allowed the read …") would speak as the gate.
 */
function serverErrorsAsTheirs(inner: McpTransport): void {
  const gate = inner.onmessage;
  if (gate === undefined) return;
  const asTheirs = (message: unknown): unknown => {
    if (!isRecord(message) || message['method'] !== undefined || !isRecord(message['error'])) return message;
    const error = message['error'];
    // the answer the capped read buffer made for a line over the cap is the gate's own (`content.too-large`)
    if (error['code'] !== gateErrorCode || oversizeOf(message) !== undefined) return message;
    const said = typeof error['message'] === 'string' ? error['message'] : '';
    return { ...message, error: { ...error, code: serverGateCodeAs, message: `the server's own error: ${said}` } };
  };
  inner.onmessage = (message, extra) => {
    const batch: unknown = message;
    gate((Array.isArray(batch) ? batch.map(asTheirs) : asTheirs(message)) as JsonRpcMessage, extra);
  };
}

/** Tool calls whose answers a connection waits for, at most; the oldest is forgotten first. */
const maxPendingCalls = 1024;

/**
 * A gated transport that notes the links of the tool results it passes on, and sends the read tool's own reads: those
 * answers go to the read tool, never to the framework's client (which did not send them).
 */
class LinkNotingTransport implements GateTransport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: MessageHandler | undefined;
  private readonly calls = new Set<JsonRpcId>();
  private readonly reads = new Map<JsonRpcId, (answer: { result?: unknown; error?: unknown }) => void>();
  private nextRead = 0;

  constructor(
    private readonly gated: GateTransport,
    private readonly note: (uri: string, from: LinkNotingTransport) => void,
  ) {
    gated.onmessage = (message: JsonRpcMessage, extra?: MessageExtraInfo) => {
      const id = message.id;
      if (isJsonRpcId(id) && message.method === undefined) {
        const reader = this.reads.get(id);
        if (reader !== undefined) {
          this.reads.delete(id);
          return reader(message);
        }
        if (this.calls.delete(id) && isRecord(message.result))
          for (const { link } of discoverLinks(message.result).links) {
            const uri = uriOf(link);
            if (uri !== '') this.note(uri, this);
          }
      }
      this.onmessage?.(message, extra);
    };
    gated.onerror = (error) => this.onerror?.(error);
    gated.onclose = () => {
      this.endReads('the connection closed before an answer');
      this.onclose?.();
    };
    if ('hasPerRequestStream' in gated)
      Object.defineProperty(this, 'hasPerRequestStream', { get: () => gated.hasPerRequestStream });
  }

  start(): Promise<void> {
    return this.gated.start();
  }

  async send(message: JsonRpcMessage | JsonRpcMessage[], options?: TransportSendOptions): Promise<void> {
    for (const m of Array.isArray(message) ? message : [message])
      if (m.method === 'tools/call' && isJsonRpcId(m.id)) {
        this.calls.add(m.id);
        if (this.calls.size > maxPendingCalls) this.calls.delete(this.calls.values().next().value as JsonRpcId);
      }
    await this.gated.send(message, options);
  }

  async close(): Promise<void> {
    this.endReads('the connection closed before an answer');
    await this.gated.close();
  }

  flush(): Promise<void> {
    return this.gated.flush();
  }

  get sessionId(): string | undefined {
    return this.gated.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.gated.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.gated.setSupportedProtocolVersions?.(versions);
  }

  /** Reads `uri` over this connection through the gate, as the model's text; `deadlineMs` bounds the wait. */
  readLink(uri: string, deadlineMs: number): Promise<string> {
    // a string id the SDK clients never use (they number their requests)
    const id = `linkgate-read-${(this.nextRead += 1)}`;
    return new Promise<string>((resolve) => {
      const timer = setTimeout(() => {
        this.reads.delete(id);
        resolve(`linkgate did not complete the read: no answer within ${deadlineMs} ms`);
      }, deadlineMs);
      this.reads.set(id, (answer) => {
        clearTimeout(timer);
        resolve(readAnswerText(answer));
      });
      this.gated.send({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri } }).catch((error: unknown) => {
        this.reads.get(id)?.({ error: { message: errorLine(error) } });
      });
    });
  }

  private endReads(why: string) {
    for (const reader of this.reads.values()) reader({ error: { message: why } });
    this.reads.clear();
  }
}
