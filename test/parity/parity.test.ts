// One hostile server, every front end, one verdict: the parity server's answers go through the Transport decorator
// (SDK 1.x and 2.x Clients), the client helper, the proxy (raw host over stdio), `linkgate probe` and each hook
// (Claude Code, Codex, Gemini CLI, fed the host's own event shapes for the same answers, as recorded from the real
// binaries in test/real-host/observed/), and every front end's records must give each case the same verdict and
// reason codes. What a host cannot show the gate is listed in `hostLimits`, each with the cell it gives instead.
// LINKGATE_PARITY_TABLE=1 prints the table: rows = front ends, columns = cases.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { hostAdapters } from '../../src/hook/hook-hosts.ts';
import { runHook } from '../../src/hook/run-hook.ts';
import { quoteValue } from '../../src/decision/quote-value.ts';
import { recordRef } from '../../src/flow/record-ref.ts';
import { maskUri } from '../../src/link/mask-uri.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { EmbeddedRecord } from '../../src/record/embedded-record.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { gateToolResult } from '../../src/sdk/gate-tool-result.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { jsonLinesOf, runProbe, tsServer } from '../e2e/run-probe.ts';
import { rawProxyHost } from '../helpers/raw-proxy-host.ts';
import { embeddedCases, type LinkCase, linkCases } from './parity-cases.ts';
import { renderedLinkFor } from '../../src/hook/rendered-item.ts';
import { isEmbeddedRecordLine, recordKindOf } from '../../src/record/record-kind.ts';
import { finishedInto } from '../sdk/finished-records.ts';

type Json = Record<string, unknown>;
const permissive = z.looseObject({});
const policyPath = 'test/fixtures/policies/parity.yaml';
const serverFile = 'test/parity/parity-server.ts';
const server = 'parity';
const caseNames = [...linkCases.map((c) => c.name), ...embeddedCases.map((c) => c.name)];

/** What one front end recorded, and the tool result's items as it handed them to the host (model) in its own shape. */
interface Observed {
  links: LinkRecord[];
  embedded: EmbeddedRecord[];
  /** native `content[]` items, or a host's rendered items (text lines); absent for a front end that hands none (probe) */
  delivered?: unknown[];
}

const frontEnds = [
  'decorator (SDK 1.x)',
  'decorator (SDK 2.x)',
  'client helper',
  'proxy',
  'probe',
  'hook claude-code',
  'hook codex',
  'hook gemini-cli',
] as const;
type FrontEnd = (typeof frontEnds)[number];

/** The front end every other one is compared with. */
const reference: FrontEnd = 'proxy';

// Codex CLI 0.171 fires no post event for a read that failed (research note §6)
const codexNoPost =
  'Codex fires no PostToolUse for a failed read: the hook never learns how the read ended, and writes no record (the proxy does)';

/**
 * Cells where a host does not show the gate what the other front ends see, so a hook cannot give the same verdict:
 * each with the cell it gives instead and why. A limit that stops applying fails the test (the cell then matches).
 */
const hostLimits: Partial<Record<FrontEnd, Record<string, { cell: string; why: string }>>> = {
  'hook claude-code': {
    'declared-exe': {
      cell: 'link-only · content.executable,content.type-not-allowed',
      why: 'Claude Code renders a link without its declared mimeType: the declared-type rule cannot refuse it before the read, the body is refused after it',
    },
    'declared-size': {
      cell: 'body-obtained · (none)',
      why: 'Claude Code renders a link without its declared size: the declared-size rule cannot apply (the proxy enforces it)',
    },
    'input-required': {
      cell: 'unverifiable · read.error',
      why: 'Claude Code fails its read tool on a result without contents (PostToolUseFailure): the hook sees a failed read',
    },
    'unknown-type': {
      cell: 'link-only · read.empty',
      why: 'Claude Code drops the resultType and hands the hook `{contents: []}`: an empty result',
    },
    'wrong-id': {
      cell: 'unverifiable · read.error',
      why: "the host does the read: its own request timeout ends it (PostToolUseFailure), not linkgate's deadline",
    },
    'never-answers': {
      cell: 'unverifiable · read.error',
      why: "the host does the read: its own request timeout ends it (PostToolUseFailure), not linkgate's deadline",
    },
    'embedded-script': {
      cell: 'embedded-withheld · content.executable',
      why: 'Claude Code renders an embedded text resource without its mimeType: no declared type to mismatch',
    },
    'embedded-elf-as-png': {
      cell: 'embedded-withheld · content.executable',
      why: 'Claude Code renders an embedded image as a saved file without its mimeType: no declared type to mismatch',
    },
  },
  'hook codex': {
    'not-found': { cell: '—', why: codexNoPost },
    'server-error': { cell: '—', why: codexNoPost },
    'input-required': { cell: '—', why: codexNoPost },
    'wrong-id': { cell: '—', why: codexNoPost },
    'never-answers': { cell: '—', why: codexNoPost },
    'unknown-type': {
      cell: 'link-only · read.empty',
      why: 'Codex drops the resultType and hands the hook `{contents: []}`: an empty result',
    },
  },
  'hook gemini-cli': {
    'declared-exe': {
      cell: 'link-only · content.shape',
      why: 'Gemini CLI renders a link without its mimeType and passes `[Binary Data (TYPE)]` instead of the bytes: the hook withholds a body it cannot judge',
    },
    'declared-size': {
      cell: 'body-obtained · (none)',
      why: 'Gemini CLI renders a link without its declared size: the declared-size rule cannot apply (the proxy enforces it)',
    },
    png: {
      cell: 'link-only · content.shape',
      why: 'Gemini CLI passes `[Binary Data (TYPE)]` instead of a read blob: the hook cannot judge it, so it is withheld (fail closed)',
    },
    'elf-as-png': {
      cell: 'link-only · content.shape',
      why: 'Gemini CLI passes `[Binary Data (TYPE)]` instead of a read blob: withheld without its bytes being seen',
    },
    'html-as-text': {
      cell: 'link-only · content.executable',
      why: 'Gemini CLI passes a read body as text without its mimeType: no declared type to mismatch',
    },
    'input-required': {
      cell: 'link-only · read.empty',
      why: 'Gemini CLI answers a result without contents with its own `No content returned from resource.`: an empty result',
    },
    'unknown-type': {
      cell: 'link-only · read.empty',
      why: 'Gemini CLI drops the resultType and answers `No content returned from resource.`: an empty result',
    },
    'wrong-id': {
      cell: 'unverifiable · read.error',
      why: "the host does the read: its own request timeout ends it (an `error` in AfterTool), not linkgate's deadline",
    },
    'never-answers': {
      cell: 'unverifiable · read.error',
      why: "the host does the read: its own request timeout ends it (an `error` in AfterTool), not linkgate's deadline",
    },
    'embedded-text': {
      cell: '—',
      why: "Gemini CLI renders an embedded text resource as plain text: the hook cannot tell it from the tool's own text (the proxy judges it)",
    },
    'embedded-text-spaces': {
      cell: '—',
      why: "Gemini CLI renders an embedded text resource as plain text: the hook cannot tell it from the tool's own text (the proxy judges it)",
    },
    'embedded-script': {
      cell: '—',
      why: 'Gemini CLI renders an embedded text resource as plain text: a script in one reaches the model unjudged through the hook (the proxy withholds it)',
    },
  },
};

/**
 * Cells a hook gets wrong today because its host mapping (issue 22 item 2, the hook and Codex engineers' part) has not
 * landed: each with the cell it gives now. When the mapping lands the cell changes and this test fails until the entry
 * goes: it never hides a difference.
 */
const awaiting: Partial<Record<FrontEnd, Record<string, { cell: string; why: string }>>> = {};

/** `verdict · codes` of a record (every reason code of both decisions, once each, sorted); `—` when none was written. */
function cellOf(record: LinkRecord | EmbeddedRecord | undefined): string {
  if (record === undefined) return '—';
  if ('kind' in record) return `${record.verdict} · ${codesText(record.decision.reasons)}`;
  return `${record.verdict} · ${codesText([...record.decisions.link.reasons, ...(record.decisions.read?.reasons ?? [])])}`;
}

function codesText(reasons: readonly { code: string }[]): string {
  const codes = [...new Set(reasons.map((r) => r.code))].sort();
  return codes.length === 0 ? '(none)' : codes.join(',');
}

/**
 * The row of one front end: each case's cell, found by the masked uri of its link or embedded resource; an embedded
 * record without a uri (a host that drops it) stands for the next embedded case of the same declared type.
 */
function rowOf(observed: Observed): Map<string, string> {
  const row = new Map<string, string>();
  for (const c of linkCases) row.set(c.name, cellOf(observed.links.find((r) => r.uri === maskUri(c.link.uri))));
  const unnamed = observed.embedded.filter((r) => r.uri === null || r.uri === '');
  for (const c of embeddedCases) {
    let record = observed.embedded.find((r) => r.uri === maskUri(c.resource.uri));
    if (record === undefined && c.resource.bytes !== undefined) {
      const at = unnamed.findIndex((r) => r.mimeType === c.resource.mimeType);
      if (at !== -1) record = unnamed.splice(at, 1)[0];
    }
    row.set(c.name, cellOf(record));
  }
  return row;
}

let gate: Gate;
let dir: string;
const rows = new Map<FrontEnd, Map<string, string>>();
const observedBy = new Map<FrontEnd, Observed>();
const observedInObserve = new Map<FrontEnd, Observed>();

function collector(): { observed: Observed; sink: ReturnType<typeof callbackSink> } {
  const observed: Observed & { delivered: unknown[] } = { links: [], embedded: [], delivered: [] };
  const sink = callbackSink(finishedInto(observed.links), (r) => void observed.embedded.push(r));
  return { observed, sink };
}

const serverCommand = () => {
  const [command, ...args] = tsServer(serverFile);
  return { command: command as string, args, stderr: 'ignore' as const };
};

/**
 * The host of a decorator run: calls the tool, reads every link in order (errors are the host's to see; a model may
 * ask for a uri it was never shown as a link), flushes. Returns the tool result's items as the host received them.
 */
async function hostReads(client: {
  request: (request: Json & { method: string }, schema: typeof permissive) => Promise<unknown>;
}): Promise<unknown[]> {
  const result = await client.request({ method: 'tools/call', params: { name: 'cases', arguments: {} } }, permissive);
  for (const c of linkCases)
    await client.request({ method: 'resources/read', params: { uri: c.link.uri } }, permissive).catch(() => undefined);
  return (result as { content: unknown[] }).content;
}

type Mode = 'enforce' | 'observe';

async function decoratorV1(mode: Mode = 'enforce'): Promise<Observed> {
  const { observed, sink } = collector();
  const transport = gateTransport(new StdioClientTransport(serverCommand()), { gate, server, sink, mode });
  const client = new Client({ name: 'parity-host', version: '1.0.0' });
  await client.connect(transport);
  try {
    observed.delivered = await hostReads(client);
    await transport.flush();
  } finally {
    await client.close();
  }
  return observed;
}

async function decoratorV2(): Promise<Observed> {
  const { observed, sink } = collector();
  const stdio = new StdioV2(serverCommand());
  const transport = gateTransport(stdio, { gate, server, sink });
  const client = new ClientV2({ name: 'parity-host', version: '2.0.0' });
  await client.connect(transport);
  try {
    observed.delivered = await hostReads(client);
    await transport.flush();
  } finally {
    await client.close();
  }
  return observed;
}

async function clientHelper(mode: Mode = 'enforce'): Promise<Observed> {
  const { observed, sink } = collector();
  const client = new Client({ name: 'parity-host', version: '1.0.0' });
  await client.connect(new StdioClientTransport(serverCommand()));
  try {
    const toolResult = await client.request(
      { method: 'tools/call', params: { name: 'cases', arguments: {} } },
      permissive,
    );
    // each read gets its full deadline, whatever the others take
    const budgetMs = gate.policy.document.read.readTimeoutMs * (linkCases.length + 1);
    const options = { gate, server, tool: 'cases', sink, budgetMs, concurrency: 4, mode };
    const gated = await gateToolResult(client, toolResult, options);
    observed.delivered = gated.content;
  } finally {
    await client.close();
  }
  return observed;
}

/** The proxy in this process over in-memory stdio, a host writing raw JSON-RPC lines, the server as a child. */
async function proxy(mode: Mode = 'enforce'): Promise<Observed> {
  const { observed, sink } = collector();
  const host = rawProxyHost({ gate, server, sink, mode, command: tsServer(serverFile) });
  await host.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'raw-host', version: '1.0.0' },
  });
  host.notify('notifications/initialized');
  const tool = await host.request('tools/call', { name: 'cases', arguments: {} });
  observed.delivered = ((tool['result'] as Json)['content'] as unknown[]) ?? [];
  for (const c of linkCases) await host.request('resources/read', { uri: c.link.uri });
  await host.close();
  return observed;
}

async function probe(): Promise<Observed> {
  const run = await runProbe(['--policy', policyPath, '--tool', 'cases', '--json', '--', ...tsServer(serverFile)]);
  expect(run.code, run.stderr).toBe(0);
  const lines = jsonLinesOf(run);
  return {
    links: lines.filter((l) => recordKindOf(l) === 'link') as unknown as LinkRecord[],
    embedded: lines.filter(isEmbeddedRecordLine) as unknown as EmbeddedRecord[],
  };
}

/** What the server answered, asked directly: the tool result and each read's result or error (none: no answer). */
interface ServerAnswers {
  toolResult: { content: Json[] };
  reads: Map<string, { result: Json } | { error: { code: number; message: string } } | null>;
}

async function askServer(): Promise<ServerAnswers> {
  const client = new Client({ name: 'parity-host', version: '1.0.0' });
  await client.connect(new StdioClientTransport(serverCommand()));
  try {
    const toolResult = (await client.request(
      { method: 'tools/call', params: { name: 'cases', arguments: {} } },
      permissive,
    )) as ServerAnswers['toolResult'];
    const reads: ServerAnswers['reads'] = new Map();
    for (const c of linkCases) {
      const timeout = gate.policy.document.read.readTimeoutMs;
      const answer = await client
        .request({ method: 'resources/read', params: { uri: c.link.uri } }, permissive, { timeout })
        .then(
          (result) => ({ result: result }),
          (error: { code?: number; message: string }) =>
            // -32001: the SDK's own request timeout, not the server's answer
            error.code === -32001 ? null : { error: { code: error.code ?? 0, message: error.message } },
        );
      reads.set(c.link.uri, answer);
    }
    return { toolResult, reads };
  } finally {
    await client.close();
  }
}

type HookHost = 'claude-code' | 'codex' | 'gemini-cli';

/** Runs a host's events, in order, through the hook's public entry; stops a read when its pre event is denied. */
class HookSession {
  readonly observed: Observed = { links: [], embedded: [] };
  readonly stateDir: string;
  constructor(
    readonly host: HookHost,
    readonly root: string,
    readonly mode: Mode = 'enforce',
  ) {
    this.stateDir = join(root, 'state');
  }
  async event(event: Json): Promise<string> {
    return runHook(hostAdapters[this.host], JSON.stringify(event), {
      gate,
      mode: this.mode,
      stateDir: this.stateDir,
      record: async (r) => void this.observed.links.push(r),
      recordEmbedded: async (r) => void this.observed.embedded.push(r),
    });
  }
}

/** Whether a pre-event answer refuses the call (each host's deny shape). */
function refused(answer: string): boolean {
  if (answer === '') return false;
  const parsed = JSON.parse(answer) as Json;
  const specific = parsed['hookSpecificOutput'] as Json | undefined;
  return specific?.['permissionDecision'] === 'deny' || parsed['decision'] === 'deny' || parsed['decision'] === 'block';
}

/** A replacement reason as the items a model reads: a JSON object line as that item, any other line as text. */
function reasonLines(reason: string): unknown[] {
  return reason.split('\n').map((line) => {
    try {
      const value = JSON.parse(line) as unknown;
      if (typeof value === 'object' && value !== null) return value;
    } catch {
      // text
    }
    return { type: 'text', text: line };
  });
}

const isImage = (mimeType: unknown) => typeof mimeType === 'string' && mimeType.startsWith('image/');

/**
 * Claude Code 2.1.332 (test/real-host/observed/claude-code and the research note §6): tool results reach the hook as
 * rendered text items; a read's binary bodies are saved under `<transcript>/tool-results/` and named in the item;
 * a read the server refuses as not found is `{contents: [], error}`; any other failed read is `PostToolUseFailure`.
 */
async function claudeCode(answers: ServerAnswers, mode: Mode = 'enforce'): Promise<Observed> {
  const root = mkdtempSync(join(dir, 'claude-code-'));
  const session = new HookSession('claude-code', root, mode);
  const saved = join(root, 'session', 'tool-results');
  mkdirSync(saved, { recursive: true });
  let files = 0;
  const save = (blob: string, mimeType: unknown) => {
    const path = join(saved, `mcp-resource-${files++}.${isImage(mimeType) ? 'png' : 'bin'}`);
    writeFileSync(path, Buffer.from(blob, 'base64'));
    return path;
  };
  const common = (name: string, tool: string, input: Json, id: string) => ({
    session_id: 'parity-claude-code',
    transcript_path: join(root, 'session.jsonl'),
    cwd: root,
    permission_mode: 'default',
    hook_event_name: name,
    tool_name: tool,
    tool_input: input,
    tool_use_id: id,
  });
  const rendered: Json[] = [];
  for (const item of answers.toolResult.content) {
    if (item['type'] === 'resource_link') {
      const description = typeof item['description'] === 'string' ? ` (${item['description']})` : '';
      rendered.push({
        type: 'text',
        text: `[Resource link: ${String(item['name'])}] ${String(item['uri'])}${description}`,
      });
    } else if (item['type'] === 'resource') {
      const r = item['resource'] as Json;
      const header = `[Resource from ${server} at ${String(r['uri'])}] `;
      if (typeof r['text'] === 'string') rendered.push({ type: 'text', text: `${header}${r['text']}` });
      else if (isImage(r['mimeType'])) {
        rendered.push({ type: 'text', text: header });
        rendered.push({ type: 'text', text: `[Image source: ${save(String(r['blob']), r['mimeType'])}]` });
      } else {
        const bytes = Buffer.from(String(r['blob']), 'base64').length;
        const path = save(String(r['blob']), r['mimeType']);
        rendered.push({
          type: 'text',
          text: `${header}Binary content (${String(r['mimeType'])}, ${bytes} bytes) saved to ${path}`,
        });
      }
    } else rendered.push(item);
  }
  const answer = await session.event({
    ...common('PostToolUse', `mcp__${server}__cases`, {}, 'toolu_cases'),
    tool_response: rendered,
  });
  // Claude Code hands the model `updatedToolOutput` in place of the result when the hook gives one
  session.observed.delivered =
    answer === ''
      ? rendered
      : ((JSON.parse(answer) as { hookSpecificOutput: { updatedToolOutput: unknown[] } }).hookSpecificOutput
          .updatedToolOutput ?? rendered);
  for (const [i, c] of linkCases.entries()) {
    const input = { server, uri: c.link.uri };
    const id = `toolu_read_${i}`;
    if (refused(await session.event(common('PreToolUse', 'ReadMcpResourceTool', input, id)))) continue;
    const answer = answers.reads.get(c.link.uri) ?? null;
    const post = common('PostToolUse', 'ReadMcpResourceTool', input, id);
    const failure = (error: string) =>
      session.event({ ...common('PostToolUseFailure', 'ReadMcpResourceTool', input, id), error });
    if (answer === null) await failure('MCP error -32001: Request timed out');
    else if ('error' in answer) {
      if (answer.error.code === -32002)
        await session.event({
          ...post,
          tool_response: {
            contents: [],
            error: `Resource not found: ${c.link.uri} — it may have been deleted or the URI is stale.`,
          },
        });
      else await failure(answer.error.message);
    } else if (!Array.isArray(answer.result['contents']))
      await failure("undefined is not an object (evaluating 'l.contents.map')");
    else {
      const contents = (answer.result['contents'] as Json[]).map((item) => {
        if (typeof item['blob'] !== 'string')
          return { uri: item['uri'], mimeType: item['mimeType'], text: item['text'] };
        const path = save(item['blob'], item['mimeType']);
        const bytes = Buffer.from(item['blob'], 'base64').length;
        const text = `[Resource from ${server} at ${String(item['uri'])}] Binary content (${String(item['mimeType'])}, ${bytes} bytes) saved to ${path}`;
        return { uri: item['uri'], mimeType: item['mimeType'], blobSavedTo: path, text };
      });
      await session.event({ ...post, tool_response: { contents }, duration_ms: 5 });
    }
  }
  return session.observed;
}

/**
 * Codex CLI 0.171 (research note §6): Claude-shaped events, MCP tools as `mcp__<server>__<tool>` with the raw
 * `{content}` result, reads as `read_mcp_resource {server, uri}` whose `tool_response` is a JSON string
 * `{server, uri, contents}` with blobs inline; a read that fails gets no post event.
 */
async function codex(answers: ServerAnswers, mode: Mode = 'enforce'): Promise<Observed> {
  const root = mkdtempSync(join(dir, 'codex-'));
  const session = new HookSession('codex', root, mode);
  const common = (name: string, tool: string, input: Json, id: string) => ({
    session_id: 'parity-codex',
    transcript_path: null,
    cwd: root,
    hook_event_name: name,
    model: 'mock-model',
    tool_name: tool,
    tool_input: input,
    tool_use_id: id,
  });
  const answer = await session.event({
    ...common('PostToolUse', `mcp__${server}__cases`, {}, 'call_cases'),
    tool_response: answers.toolResult,
  });
  // a `block` answer's reason is what the model reads instead: one line per item, text as text, the rest as JSON
  session.observed.delivered =
    answer === '' ? answers.toolResult.content : reasonLines((JSON.parse(answer) as { reason: string }).reason);
  for (const [i, c] of linkCases.entries()) {
    const input = { server, uri: c.link.uri };
    const id = `call_read_${i}`;
    if (refused(await session.event(common('PreToolUse', 'read_mcp_resource', input, id)))) continue;
    const answer = answers.reads.get(c.link.uri) ?? null;
    if (answer === null || 'error' in answer || !Array.isArray(answer.result['contents'])) continue;
    const response = JSON.stringify({ server, uri: c.link.uri, contents: answer.result['contents'] });
    await session.event({ ...common('PostToolUse', 'read_mcp_resource', input, id), tool_response: response });
  }
  return session.observed;
}

/**
 * Gemini CLI 0.61 (test/real-host/observed/gemini-cli and its read tool's source): `BeforeTool`/`AfterTool`; an MCP
 * tool's result is `llmContent` parts (text wrapped as untrusted context, a link as `Resource Link: NAME at URI`, an
 * embedded text resource as plain text, an embedded blob as a note and `inlineData`); `read_mcp_resource {uri}` reads
 * only listed resources and passes text bodies, `[Binary Data (TYPE)]` for blobs, or `Error: …` with `error`.
 */
async function geminiCli(answers: ServerAnswers, mode: Mode = 'enforce'): Promise<Observed> {
  const root = mkdtempSync(join(dir, 'gemini-cli-'));
  const session = new HookSession('gemini-cli', root, mode);
  const common = (name: string, tool: string, input: Json) => ({
    session_id: 'parity-gemini-cli',
    transcript_path: join(root, 'chats', 'session.jsonl'),
    cwd: root,
    hook_event_name: name,
    timestamp: '2026-12-03T08:04:19.053Z',
    tool_name: tool,
    tool_input: input,
  });
  const mcpContext = { server_name: server, tool_name: 'cases', command: 'node', args: [] };
  const parts: Json[] = [];
  for (const item of answers.toolResult.content) {
    if (item['type'] === 'resource_link')
      parts.push({ text: `Resource Link: ${String(item['name'])} at ${String(item['uri'])}` });
    else if (item['type'] === 'resource') {
      const r = item['resource'] as Json;
      if (typeof r['text'] === 'string')
        parts.push({ text: `<untrusted_context>\n${r['text']}\n</untrusted_context>` });
      else {
        parts.push({
          text: `[Tool 'cases' provided the following embedded resource with mime-type: ${String(r['mimeType'])}]`,
        });
        parts.push({ inlineData: { mimeType: r['mimeType'], data: r['blob'] } });
      }
    } else parts.push({ text: `<untrusted_context>\n${String(item['text'])}\n</untrusted_context>` });
  }
  const answer = await session.event({
    ...common('AfterTool', `mcp_${server}_cases`, {}),
    mcp_context: mcpContext,
    tool_response: { llmContent: parts, returnDisplay: 'cases' },
  });
  // a `deny` answer's reason replaces the result the model reads
  session.observed.delivered = answer === '' ? parts : reasonLines((JSON.parse(answer) as { reason: string }).reason);
  const listed = linkCases.map((c) => `- ${server}:${c.link.uri} | ${c.link.name}`).join('\n');
  await session.event({
    ...common('AfterTool', 'list_mcp_resources', { serverName: server }),
    tool_response: { llmContent: `Available MCP Resources:\n${listed}\n`, returnDisplay: 'Listed' },
  });
  for (const c of linkCases) {
    const input = { uri: c.link.uri };
    if (refused(await session.event(common('BeforeTool', 'read_mcp_resource', input)))) continue;
    const answer = answers.reads.get(c.link.uri) ?? null;
    let response: Json;
    const failed = (message: string) => ({
      llmContent: `Error: Failed to read resource: ${message}`,
      returnDisplay: `Error: Failed to read resource: ${message}`,
      error: { message: `Failed to read resource: ${message}`, type: 'execution_failed' },
    });
    if (answer === null) response = failed('MCP error -32001: Request timed out');
    else if ('error' in answer) response = failed(answer.error.message);
    else {
      const contents = Array.isArray(answer.result['contents']) ? (answer.result['contents'] as Json[]) : [];
      let text = '';
      for (const item of contents) {
        if (typeof item['text'] === 'string' && item['text'] !== '') text += `${item['text']}\n`;
        else if (typeof item['blob'] === 'string') text += `[Binary Data (${String(item['mimeType'])})]\n`;
      }
      response = { llmContent: text || 'No content returned from resource.', returnDisplay: 'Successfully read' };
    }
    await session.event({ ...common('AfterTool', 'read_mcp_resource', input), tool_response: response });
  }
  return session.observed;
}

beforeAll(async () => {
  gate = createGate(await loadPolicy(policyPath));
  dir = mkdtempSync(join(tmpdir(), 'linkgate-parity-'));
  const runs: [FrontEnd, () => Promise<Observed>][] = [
    ['decorator (SDK 1.x)', decoratorV1],
    ['decorator (SDK 2.x)', decoratorV2],
    ['client helper', clientHelper],
    ['proxy', proxy],
    ['probe', probe],
  ];
  // one front end at a time: each starts its own server
  for (const [name, run] of runs) observedBy.set(name, await run());
  const answers = await askServer();
  observedBy.set('hook claude-code', await claudeCode(answers));
  observedBy.set('hook codex', await codex(answers));
  observedBy.set('hook gemini-cli', await geminiCli(answers));
  for (const [name, observed] of observedBy) rows.set(name, rowOf(observed));
  // observe mode: the same front ends, enforcing nothing
  observedInObserve.set('decorator (SDK 1.x)', await decoratorV1('observe'));
  observedInObserve.set('client helper', await clientHelper('observe'));
  observedInObserve.set('proxy', await proxy('observe'));
  observedInObserve.set('hook claude-code', await claudeCode(answers, 'observe'));
  observedInObserve.set('hook codex', await codex(answers, 'observe'));
  observedInObserve.set('hook gemini-cli', await geminiCli(answers, 'observe'));
  if (process.env['LINKGATE_PARITY_TABLE'] === '1') process.stdout.write(`\n${parityTable()}\n`);
}, 600_000);

afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** The verdict of a cell (its text before ` · `). */
const verdictOf = (cell: string) => cell.split(' · ')[0] ?? cell;

/**
 * Rows = front ends, columns = cases, each cell the verdict, marked `*` where the reason codes differ from the
 * reference's, `†` for a host limit and `‡` for a cell awaiting a hook's mapping; then the codes of every marked cell.
 */
function parityTable(): string {
  const header = ['front end', ...caseNames];
  const ref = rows.get(reference) as Map<string, string>;
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  const notes: string[] = [];
  for (const name of frontEnds) {
    const row = rows.get(name) as Map<string, string>;
    const cells = caseNames.map((c) => {
      const cell = row.get(c) ?? '—';
      const refCell = ref.get(c) ?? '—';
      const mark =
        hostLimits[name]?.[c] !== undefined
          ? '†'
          : awaiting[name]?.[c] !== undefined
            ? '‡'
            : cell === refCell
              ? ''
              : '*';
      const why = hostLimits[name]?.[c]?.why ?? awaiting[name]?.[c]?.why;
      if (cell !== refCell)
        notes.push(`${name} · ${c}: ${cell} (${reference}: ${refCell})${why === undefined ? '' : ` ${mark} ${why}`}`);
      return `${verdictOf(cell)}${mark}`;
    });
    lines.push(`| ${name} | ${cells.join(' | ')} |`);
  }
  const codes = caseNames.map((c) => `${c}: ${ref.get(c) ?? '—'}`);
  return [
    ...lines,
    '',
    `${reference} (reference), verdict · reason codes:`,
    ...codes,
    '',
    'cells that differ:',
    ...notes,
  ].join('\n');
}

describe('parity: one server answer, one verdict and the same reason codes from every front end', () => {
  test('the reference front end gives each case what it is there for', () => {
    const ref = rows.get(reference) as Map<string, string>;
    expect(ref.get('described')).toBe('body-obtained · (none)');
    expect(ref.get('png')).toBe('body-obtained · (none)');
    expect(ref.get('metadata')).toMatch(/^link-only · /);
    expect(ref.get('file-scheme')).toMatch(/^link-only · /);
    expect(ref.get('declared-exe')).toMatch(/^link-only · /);
    expect(ref.get('elf-as-png')).toMatch(/^link-only · .*content\.executable/);
    expect(ref.get('oversize')).toMatch(/^link-only · .*content\.too-large/);
    expect(ref.get('not-found')).toBe('unverifiable · read.error');
    expect(ref.get('server-error')).toBe('unverifiable · read.error');
    expect(ref.get('input-required')).toBe('unverifiable · read.input-required');
    expect(ref.get('never-answers')).toBe('unverifiable · read.timeout');
    expect(ref.get('embedded-text')).toBe('embedded-delivered · (none)');
    expect(ref.get('embedded-png')).toBe('embedded-delivered · (none)');
    expect(ref.get('embedded-script')).toMatch(/^embedded-withheld · .*content\.executable/);
    expect(ref.get('embedded-elf')).toMatch(/^embedded-withheld · .*content\.executable/);
    for (const observed of observedBy.values())
      for (const record of observed.links) expect(recordViolations(record), record.uri).toEqual([]);
  });

  test.each(frontEnds.filter((f) => f !== reference))(
    '%s: every case as the reference, or a listed exception',
    (name) => {
      const ref = rows.get(reference) as Map<string, string>;
      const row = rows.get(name) as Map<string, string>;
      const limits = hostLimits[name] ?? {};
      const got = Object.fromEntries(caseNames.map((c) => [c, row.get(c)]));
      const pending = awaiting[name] ?? {};
      const want = Object.fromEntries(caseNames.map((c) => [c, limits[c]?.cell ?? pending[c]?.cell ?? ref.get(c)]));
      expect(got).toEqual(want);
    },
  );
});

/** Hosts that drop a link's declared type and size before the hook sees it (`hostLimits`): judged on what they show. */
const dropsDeclared: ReadonlySet<FrontEnd> = new Set(['hook claude-code', 'hook gemini-cli']);

/** The link cases whose link decision is deny, judged on the link as `frontEnd`'s host shows it. */
async function refusedAtLink(frontEnd: FrontEnd): Promise<LinkCase[]> {
  const refused: LinkCase[] = [];
  for (const c of linkCases) {
    const { mimeType: _type, size: _size, ...bare } = c.link;
    const link = { type: 'resource_link', ...(dropsDeclared.has(frontEnd) ? bare : c.link) };
    if ((await gate.decide({ stage: 'link', server, readFrom: server, link })).effect === 'deny') refused.push(c);
  }
  return refused;
}

/** The uris a host is shown as links: native `resource_link` items, and link lines as Claude Code and Gemini CLI render them. */
function shownLinks(delivered: readonly unknown[]): string[] {
  const shown: string[] = [];
  for (const item of delivered) {
    if (typeof item !== 'object' || item === null) continue;
    const i = item as Json;
    if (i['type'] === 'resource_link') shown.push(String(i['uri']));
    const text = typeof i['text'] === 'string' ? i['text'] : '';
    for (const line of text.split('\n')) {
      if (line.startsWith('linkgate ')) continue;
      for (const c of linkCases) if (renderedLinkFor(line, c.link.uri) !== null) shown.push(c.link.uri);
    }
  }
  return shown;
}

/** The names and record refs in the flow's refused-link notices in what a host is shown. */
function refusedNotices(delivered: readonly unknown[]): { name: string; ref: string }[] {
  return delivered.flatMap((item) => {
    const text = typeof item === 'object' && item !== null ? (item as Json)['text'] : undefined;
    const named =
      typeof text === 'string'
        ? /^linkgate refused the link (`.*?`) \(scheme `.*?`\): .* \[record `(.*?)`;/.exec(text)
        : null;
    return named === null ? [] : [{ name: named[1] as string, ref: named[2] as string }];
  });
}

const sorted = (values: readonly string[]) => [...values].sort();

describe('parity: no front end hands a denied resource_link to the host or model in enforce mode', () => {
  test.each(frontEnds.filter((f) => f !== 'probe'))(
    '%s: each link its link decision denies is replaced by the notice naming it; every other link stays',
    async (name) => {
      const delivered = observedBy.get(name)?.delivered ?? [];
      const refused = await refusedAtLink(name);
      expect(refused.map((c) => c.name)).toEqual(expect.arrayContaining(['metadata', 'file-scheme']));
      const shown = shownLinks(delivered);
      expect(shown.filter((uri) => refused.some((c) => c.link.uri === uri))).toEqual([]);
      const notices = refusedNotices(delivered);
      expect(sorted(notices.map((n) => n.name))).toEqual(sorted(refused.map((c) => quoteValue(c.link.name))));
      // each notice names its link's record, never its address: no refused uri is readable in what the host gets
      const refs = new Set((observedBy.get(name)?.links ?? []).map((r) => recordRef(r.stages.discovered)));
      expect(notices.filter((n) => !refs.has(n.ref))).toEqual([]);
      const handed = JSON.stringify(delivered);
      for (const c of refused) {
        expect(handed, c.link.uri).not.toContain(JSON.stringify(c.link.uri).slice(1, -1));
        expect(handed, c.link.uri).not.toContain(JSON.stringify(maskUri(c.link.uri)).slice(1, -1));
      }
      expect(sorted(shown)).toEqual(sorted(linkCases.filter((c) => !refused.includes(c)).map((c) => c.link.uri)));
    },
  );

  const observeFrontEnds: FrontEnd[] = [
    'decorator (SDK 1.x)',
    'client helper',
    'proxy',
    'hook claude-code',
    'hook codex',
    'hook gemini-cli',
  ];
  test.each(observeFrontEnds)(
    '%s in observe mode: every link stays, no notice, and each denied one is recorded as a would-deny',
    async (name) => {
      const observed = observedInObserve.get(name) as Observed;
      const delivered = observed.delivered ?? [];
      expect(sorted(shownLinks(delivered))).toEqual(sorted(linkCases.map((c) => c.link.uri)));
      expect(refusedNotices(delivered)).toEqual([]);
      for (const c of await refusedAtLink(name)) {
        const record = observed.links.find((r) => r.uri === maskUri(c.link.uri));
        expect({ uri: c.link.uri, wouldDeny: record?.wouldDeny, link: record?.decisions.link.effect }).toEqual({
          uri: c.link.uri,
          wouldDeny: true,
          link: 'deny',
        });
      }
    },
  );
});
