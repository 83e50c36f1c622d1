// The GitHub Copilot SDK's in-process session hooks (`@github/copilot-sdk`, `createSession({hooks})`), judged by the same
// steps as `linkgate hook copilot-cli`, plus what only the SDK's hooks can do: replace a tool's result. Observed with
// @github/copilot-sdk 1.0.14 offline (test/frameworks/copilot-sdk.test.ts): `onPreToolUse` gets `{sessionId, toolName,
// toolArgs}` (an MCP tool named `<server>-<tool>`, which cannot be split back), `onPreMcpToolCall` then gets the server
// and tool apart (`{serverName, toolName, arguments}`, no way to refuse), and `onPostToolUse` gets `toolResult` with the
// server's own items in `contents` (links with their declared types) beside `textResultForLlm`, the text the model
// reads (links dropped, embedded text inlined); an answer `{modifiedResult}` replaces what the model reads. These
// callbacks never throw: any failure denies the call or withholds the whole result.
import { isRecord } from '../decision/json-value.ts';
import type { FlowMode } from '../flow/link-steps.ts';
import { checkMode } from '../flow/mode-option.ts';
import { toolResponse } from '../hook/codex-host.ts';
import { copilotCliHost } from '../hook/copilot-cli-host.ts';
import { handleHookEvent } from '../hook/handle-hook-event.ts';
import type { HookContext } from '../hook/hook-context.ts';
import type { HookAnswer, HookEvent } from '../hook/hook-event.ts';
import { defaultStateDir } from '../hook/session-state.ts';
import { copilotCli } from '../hosts/copilot-cli.ts';
import type { LoadPolicyOptions } from '../policy/load-policy.ts';
import type { Policy } from '../policy/policy.ts';
import type { RecordSink } from '../record/record-sink.ts';
import { lazyGate } from './lazy-gate.ts';
import { LinkLedger } from './link-ledger.ts';
import { errorLine } from '../decision/error-line.ts';

/** The host name written into each record these hooks write (`record.host.name`). */
export const copilotSdkHostName = 'copilot-sdk';

/** What the hooks judge with: the policy (a file loaded once, at the first event, or a loaded one), and where records go. */
export interface CopilotSdkHooksOptions {
  /** the policy file (yaml), loaded at the first event; a policy that does not load fails every event closed */
  policy: string | Policy;
  /** how the file is loaded (review signatures); only with a policy file */
  policyOptions?: LoadPolicyOptions;
  /** receives every finished record; the caller closes it after the session ends */
  records: RecordSink;
  /** folder of the per-session state (default: `$XDG_CACHE_HOME/linkgate/hook`, else `~/.cache/linkgate/hook`) */
  stateDir?: string;
  /** `observe` answers nothing and records what enforcing would have done; default `enforce` */
  mode?: FlowMode;
}

/** The session's id as the SDK hands it to every hook (`invocation`). */
export interface CopilotSdkInvocation {
  sessionId: string;
}

/** The `ToolResultObject` these hooks answer (`modifiedResult`), written structurally; other members are kept as they came. */
export interface CopilotSdkToolResult {
  textResultForLlm: string;
  binaryResultsForLlm: { data: string; mimeType: string; type: 'image' | 'resource'; description?: string }[];
  resultType: 'success';
  sessionLog: string;
  /** the server's items after judging (what the text was built from) */
  contents: unknown[];
}

/** What `onPreToolUse` answers for a refused call (the SDK's `PreToolUseHookOutput`). */
export interface CopilotSdkDeny {
  permissionDecision: 'deny';
  permissionDecisionReason: string;
}

/** The value for the SDK's `hooks` session option: the tool hooks the gate needs, written structurally. */
export interface CopilotSdkHooks {
  /** refuses the Copilot's own `web_fetch` of a refused url (`permissionDecision: "deny"`) */
  onPreToolUse(input: unknown, invocation?: CopilotSdkInvocation): Promise<CopilotSdkDeny | undefined>;
  /** notes which server and tool an MCP call goes to (the post hook's tool name cannot be split) */
  onPreMcpToolCall(input: unknown, invocation?: CopilotSdkInvocation): Promise<undefined>;
  /** judges an MCP tool's result: refused links and withheld bodies replaced by the notice (`modifiedResult`) */
  onPostToolUse(
    input: unknown,
    invocation?: CopilotSdkInvocation,
  ): Promise<{ modifiedResult: CopilotSdkToolResult } | undefined>;
  /**
   * Writes the last record of each link a tool listed (its discovery record's decision), for every session so far:
   * call it when the session ended, before closing `records`. Not enumerable, so the SDK never sees it as a hook.
   */
  readonly flush: () => Promise<void>;
}

// the MCP calls noted by `onPreMcpToolCall`, by session and the name the other hooks see; bounded per hooks object
const maxNotedCalls = 4096;

/**
 * In-process hooks for the Copilot SDK (`client.createSession({ …, hooks: copilotSdkHooks({…}) })`): a web fetch of a
 * refused url is denied before it runs; an MCP tool's result holding a refused link or a body the policy does not allow
 * reaches the model with the notice in their place; one record per link; every failure answered closed.
 */
export function copilotSdkHooks(options: CopilotSdkHooksOptions): CopilotSdkHooks {
  const gateOf = lazyGate(options);
  const mode = checkMode(options.mode);
  const ledger = new LinkLedger(options.records);
  // the MCP calls the pre-MCP hook named, by session and the name the Copilot gives the tool (`server-tool`); two
  // servers whose names run together (`a-b`+`c`, `a`+`b-c`) make one name, whose results are then withheld
  const mcpCalls = new Map<string, { server: string; tool: string; ambiguous: boolean }>();
  const judge = async (event: HookEvent): Promise<HookAnswer> => {
    const context: HookContext = {
      gate: await gateOf(),
      stateDir: options.stateDir ?? defaultStateDir(process.env),
      host: copilotSdkHostName,
      mode,
      record: (record) => ledger.finished(record),
      recordDiscovered: (record) => ledger.discovered(record),
      recordEmbedded: (record) => ledger.embedded(record),
    };
    return handleHookEvent(event, context);
  };
  const hooks = {
    async onPreToolUse(input: unknown): Promise<CopilotSdkDeny | undefined> {
      try {
        if (!isRecord(input)) throw new TypeError('the hook input is not an object');
        const event = copilotCliHost.parse(input);
        if (event === null) return undefined;
        const answer = await judge(event);
        if (mode === 'observe' || answer.kind !== 'deny') return undefined;
        return { permissionDecision: 'deny' as const, permissionDecisionReason: answer.reason };
      } catch (error) {
        if (mode === 'observe') return undefined;
        return {
          permissionDecision: 'deny' as const,
          permissionDecisionReason: `linkgate hook failed: ${errorLine(error)}`,
        };
      }
    },
    async onPreMcpToolCall(input: unknown, invocation?: CopilotSdkInvocation): Promise<undefined> {
      if (!isRecord(input)) return undefined;
      const { serverName: server, toolName: tool } = input;
      const session = sessionOf(input, invocation);
      if (typeof server !== 'string' || typeof tool !== 'string' || session === null) return undefined;
      if (mcpCalls.size >= maxNotedCalls) mcpCalls.delete(mcpCalls.keys().next().value as string);
      const key = `${session}\n${copilotCli.tools.mcpTool(server, tool)}`;
      const before = mcpCalls.get(key);
      const ambiguous = before !== undefined && (before.ambiguous || before.server !== server || before.tool !== tool);
      mcpCalls.set(key, { server, tool, ambiguous });
      return undefined;
    },
    async onPostToolUse(
      input: unknown,
      invocation?: CopilotSdkInvocation,
    ): Promise<{ modifiedResult: CopilotSdkToolResult } | undefined> {
      try {
        if (!isRecord(input)) throw new TypeError('the hook input is not an object');
        const result = input['toolResult'];
        if (!isRecord(result)) throw new TypeError('field `toolResult` must be an object');
        const contents = result['contents'];
        const name = input['toolName'];
        const session = sessionOf(input, invocation);
        const noted = mcpCalls.get(`${session}\n${String(name)}`);
        // a tool with no server items (the Copilot's own tools) has nothing the gate judges; an MCP call the pre-MCP
        // hook named with none has a text the hook cannot judge: withheld (below), never passed unjudged
        if (contents === undefined && noted === undefined) return undefined;
        if (contents === undefined) throw new TypeError('an mcp tool result has no `toolResult.contents`');
        if (noted?.ambiguous === true)
          throw new TypeError(`two mcp servers make the tool name \`${String(name)}\`: which one answered is unknown`);
        if (typeof name !== 'string' || name === '') throw new TypeError('field `toolName` must be a non-empty string');
        if (session === null) throw new TypeError('field `sessionId` must be a non-empty string');
        if (!Array.isArray(contents)) throw new TypeError('field `toolResult.contents` must be an array');
        // a call `onPreMcpToolCall` did not name is judged under its own name as the server (never passed unjudged)
        const call = noted ?? { server: name, tool: name };
        // the text the model reads, when it holds more than the items' text: judged as one more text item (a JSON
        // text's links and every refused address searched in it), never passed on unjudged
        // (the Copilot appends the server's `structuredContent` as JSON after the items' text: judged as the result's
        // `structuredContent`, the text rebuilt from what is left of it)
        const structured = result['structuredContent'];
        const text = result['textResultForLlm'];
        const built = modelText(textOf(contents), structured);
        const extra = typeof text === 'string' && text !== built ? [{ type: 'text', text }] : [];
        const event: HookEvent = {
          session,
          phase: 'post',
          toolUseId: null,
          call: { kind: 'mcp', ...call },
          response: toolResponse({
            content: [...(contents as unknown[]), ...extra],
            ...(structured === undefined ? {} : { structuredContent: structured }),
          }),
          savedDir: null,
        };
        const answer = await judge(event);
        // a binary the model is handed that stands for no item the hook judged (an image's data, an embedded blob)
        // was never judged: never handed on
        const stray = strayBinaries(result['binaryResultsForLlm'], contents);
        if (mode === 'observe' || (answer.kind !== 'replace' && stray === 0)) return undefined;
        if (answer.kind !== 'replace') return { modifiedResult: withoutStray(result, contents, stray) };
        const output = withoutPassedText(answer.output, contents.length, extra);
        return { modifiedResult: replacedResult(result, withStrayNotice(output, stray)) };
      } catch (error) {
        if (mode === 'observe') return undefined;
        const notice = `linkgate withheld this tool result: the hook failed: ${errorLine(error)}`;
        return { modifiedResult: replacedResult({}, { content: [{ type: 'text', text: notice }] }) };
      }
    },
  };
  return Object.defineProperty(hooks, 'flush', {
    value: () => ledger.flush(),
    enumerable: false,
  }) as CopilotSdkHooks;
}

// what a binary may stand for, by kind, declared type and data: an image item (`image`, its mimeType) and an embedded
// blob (`resource`, the resource's mimeType); a binary whose data equals a judged item's under another kind or type
// would hand the model what was judged as one type as another (a PNG allowed as an image, read as text/plain)
function binaryData(items: readonly unknown[]): Set<string> {
  const data = new Set<string>();
  for (const item of items) {
    if (!isRecord(item)) continue;
    if (item['type'] === 'image' && typeof item['data'] === 'string')
      data.add(binaryKey('image', item['mimeType'], item['data']));
    const resource = item['resource'];
    if (item['type'] === 'resource' && isRecord(resource) && typeof resource['blob'] === 'string')
      data.add(binaryKey('resource', resource['mimeType'], resource['blob']));
  }
  return data;
}

// a binary's kind, declared type and data as one key (a type that is no string matches nothing but itself missing)
const binaryKey = (type: unknown, mimeType: unknown, data: string) =>
  `${String(type)}\u0000${typeof mimeType === 'string' ? mimeType : ''}\u0000${data}`;

// whether `binary` (one of `binaryResultsForLlm`) stands for a judged item of `data` (`binaryData`)
function standsFor(binary: unknown, data: ReadonlySet<string>): boolean {
  return (
    isRecord(binary) &&
    typeof binary['data'] === 'string' &&
    data.has(binaryKey(binary['type'], binary['mimeType'], binary['data']))
  );
}

/** How many of `binaries` (`binaryResultsForLlm`) stand for no image or embedded blob of `contents`. */
function strayBinaries(binaries: unknown, contents: readonly unknown[]): number {
  if (!Array.isArray(binaries)) return 0;
  const data = binaryData(contents);
  return binaries.filter((b) => !standsFor(b, data)).length;
}

// the notice for `stray` binaries left out as standing for no judged item
const strayNotice = (stray: number) =>
  `linkgate withheld ${stray} binary result(s) for the model that stand for no item of the tool result (only the items are judged)`;

// the judged output with the notice for the binaries left out
function withStrayNotice(output: unknown, stray: number): unknown {
  if (stray === 0) return output;
  const content: unknown[] = isRecord(output) && Array.isArray(output['content']) ? output['content'] : [];
  return { ...(isRecord(output) ? output : {}), content: [...content, { type: 'text', text: strayNotice(stray) }] };
}

// a result the gate passed, its stray binaries left out: the text the model reads as it came, the notice after it
function withoutStray(
  result: Record<string, unknown>,
  contents: readonly unknown[],
  stray: number,
): CopilotSdkToolResult {
  const structured = result['structuredContent'];
  const passed = { content: contents, ...(structured === undefined ? {} : { structuredContent: structured }) };
  const replaced = replacedResult(result, withStrayNotice(passed, stray));
  const text = typeof result['textResultForLlm'] === 'string' ? `${result['textResultForLlm']}\n` : '';
  return { ...replaced, textResultForLlm: `${text}${strayNotice(stray)}`, contents: [...contents] };
}

function sessionOf(input: Record<string, unknown>, invocation: CopilotSdkInvocation | undefined): string | null {
  const own = input['sessionId'];
  if (typeof own === 'string' && own !== '') return own;
  const session = invocation?.sessionId;
  return typeof session === 'string' && session !== '' ? session : null;
}

/** The text the model reads: the items' text, then the server's `structuredContent` as JSON after a blank line. */
function modelText(itemsText: string, structured: unknown): string {
  return structured === undefined ? itemsText : `${itemsText}\n\n${JSON.stringify(structured)}`;
}

/** The text the Copilot builds from `contents` (text items and embedded text, one per line; links dropped). */
function textOf(contents: readonly unknown[]): string {
  return contents.flatMap((item) => (isRecord(item) ? itemLines(item) : [])).join('\n');
}

function itemLines(item: Record<string, unknown>): string[] {
  if (item['type'] === 'text' && typeof item['text'] === 'string') return [item['text']];
  const resource = item['resource'];
  if (item['type'] === 'resource' && isRecord(resource) && typeof resource['text'] === 'string')
    return [resource['text']];
  return [];
}

// the judged items without the model's text judged beside them (`extra`) when it passed unchanged: the items' own
// text, rebuilt, stands for it; a notice in its place is kept
function withoutPassedText(output: unknown, count: number, extra: readonly { text: string }[]): unknown {
  if (extra.length === 0 || !isRecord(output) || !Array.isArray(output['content'])) return output;
  const content: unknown[] = output['content'];
  if (content.length !== count + 1) return output;
  const last = content[count];
  const passed = isRecord(last) && last['type'] === 'text' && last['text'] === extra[0]?.text;
  return { ...output, content: passed ? content.slice(0, count) : content };
}

/**
 * The result the model reads in place of `original`: the judged items as `contents`, and the text the Copilot builds
 * from them (text items and embedded text, one per line; links dropped, as it drops them); an image is passed only
 * when its item is still there, unchanged.
 */
function replacedResult(original: Record<string, unknown>, output: unknown): CopilotSdkToolResult {
  const content: unknown[] = isRecord(output) && Array.isArray(output['content']) ? output['content'] : [];
  const lines = content.flatMap((item) => (isRecord(item) ? itemLines(item) : []));
  const images = binaryData(content);
  const binaries: unknown[] = Array.isArray(original['binaryResultsForLlm']) ? original['binaryResultsForLlm'] : [];
  const kept = binaries.filter((b): b is CopilotSdkToolResult['binaryResultsForLlm'][number] => standsFor(b, images));
  // the judged `structuredContent` (links refused in it replaced by their notices) stands for the server's
  const structured = isRecord(output) && 'structuredContent' in output ? output['structuredContent'] : undefined;
  const text = modelText(lines.join('\n'), structured);
  const result: CopilotSdkToolResult = {
    textResultForLlm: text,
    sessionLog: text,
    binaryResultsForLlm: kept,
    resultType: 'success',
    contents: content,
  };
  const { structuredContent: _server, ...rest } = original;
  return { ...rest, ...result, ...(structured === undefined ? {} : { structuredContent: structured }) };
}
