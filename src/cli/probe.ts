import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import { createGate } from '../gate/create-gate.ts';
import { cappedStdioTransport } from '../sdk/capped-stdio-transport.ts';
import { defaultReadConcurrency, gateToolResult } from '../sdk/gate-tool-result.ts';
import { tagParams, tapTransport } from '../sdk/transport-tap.ts';
import type { Policy } from '../policy/policy.ts';
import { maskText } from '../record/build-stages.ts';
import { formatRecordTable } from '../record/format-record-table.ts';
import type { CliIo } from './cli-io.ts';
import { commandRunner, defineCommand, didYouMeanText } from './command-definition.ts';
import { reportLoadError } from './report-error.ts';
import { writeLine } from './write-line.ts';
import { packageVersion } from './package-version.ts';
import { discoverLinks } from '../flow/discover-links.ts';
import { bundleOption, loadCommandPolicy, policyChoiceProblem } from './bundle-option.ts';
import { reviewLoadOptions, reviewOptions } from './review-options.ts';

/** Deadline for starting the server and completing `initialize`, milliseconds. */
export const connectTimeoutMs = 15_000;
/** Deadline for the `tools/call`, milliseconds. */
export const toolTimeoutMs = 30_000;
/** How long the server gets to exit after its stdin closes before it is killed, milliseconds. */
export const exitGraceMs = 500;
/** Tail of the server's stderr kept to explain a failed start, bytes. */
export const stderrTailBytes = 4096;

const permissive = z.looseObject({});

/** `linkgate probe` (docs/cli.md, docs/records.md): starts COMMAND as a stdio MCP server, calls one tool and records every link's flow. */
export const probeDefinition = defineCommand({
  name: 'probe',
  summary: 'start a stdio mcp server, call one tool, gate and record every link',
  synopsis:
    '(--policy FILE | --bundle DIR) --tool NAME [--args JSON] [--server ID] [--json] [--allowed-signers FILE [--min-signers N]] -- COMMAND [ARG…]',
  description: [
    'starts COMMAND as an mcp server over stdio, calls one tool, and sends every `resource_link` in its result through the gate (decide the link, read it, decide the read) and every embedded resource through the read decision; prints one record per link or embedded resource: a table on a terminal, json lines with `--json` (docs/records.md).',
  ],
  options: {
    policy: { type: 'string', value: 'FILE', description: 'the policy file (yaml); required unless `--bundle`' },
    ...bundleOption,
    tool: { type: 'string', value: 'NAME', required: true, description: 'the tool to call' },
    args: { type: 'string', value: 'JSON', default: '{}', description: "the tool's arguments, a json object" },
    server: {
      type: 'string',
      value: 'ID',
      default: 'probe',
      description: 'the server id the policy sees (`links.servers`, `server` and `readFrom` facts)',
    },
    json: { type: 'boolean', description: 'print one json record per line, then a summary line, instead of the table' },
    ...reviewOptions,
  },
  afterDashes: { name: 'COMMAND [ARG…]', description: 'the command line that starts the server' },
  example: 'linkgate probe --policy policies/default.yaml --tool show-links -- node dist/lib/demo/demo-server.js',
  exitCodes: {
    0: 'the tool answered and every link was recorded (whatever the verdicts)',
    2: 'usage error, the policy cannot be loaded, or the server or tool failed',
  },
  run: async ({ values, rest, usageError }, io) => {
    const [executable, ...executableArgs] = rest;
    if (executable === undefined || executable === '') return usageError('missing `-- COMMAND [ARG…]`');
    let toolArgs: unknown;
    try {
      toolArgs = JSON.parse(values.args);
    } catch (error) {
      const detail = error instanceof Error ? error.message.charAt(0).toLowerCase() + error.message.slice(1) : '';
      return usageError(`\`--args\` is not json (${detail}); pass a json object such as '{"count":4}'`);
    }
    if (toolArgs === null || typeof toolArgs !== 'object' || Array.isArray(toolArgs))
      return usageError(
        `\`--args\` must be a json object, got ${toolArgs === null ? 'null' : Array.isArray(toolArgs) ? 'an array' : `a ${typeof toolArgs}`}`,
      );
    if (values.server === '') return usageError('`--server` must not be empty');
    const review = reviewLoadOptions(values, io);
    if (typeof review === 'string') return usageError(review);
    const choice = policyChoiceProblem(values);
    if (choice !== undefined) return usageError(choice);
    let policy: Policy;
    try {
      policy = await loadCommandPolicy(io, values, review);
    } catch (error) {
      return reportLoadError(io, error);
    }
    return probe(
      {
        policy,
        tool: values.tool ?? '',
        toolArgs: toolArgs as Record<string, unknown>,
        server: values.server,
        json: values.json === true,
        executable,
        executableArgs,
      },
      io,
    );
  },
});

/** `linkgate probe` as a runnable command. */
export const probeCommand = commandRunner(probeDefinition);

interface ProbeRun {
  policy: Policy;
  tool: string;
  toolArgs: Record<string, unknown>;
  server: string;
  json: boolean;
  executable: string;
  executableArgs: string[];
}

/**
 * The MCP SDK 1.x, an optional peer dependency (hosts bring their own, 1.x or 2.x): loaded when the probe runs, so
 * every other command works without it, and named when it is missing.
 */
async function loadSdk() {
  try {
    const [{ Client: SdkClient }, { StdioClientTransport }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
    ]);
    return { Client: SdkClient, StdioClientTransport };
  } catch (error) {
    const missing = error as NodeJS.ErrnoException | null;
    if (missing?.code !== 'ERR_MODULE_NOT_FOUND' || !missing.message.includes('@modelcontextprotocol/sdk')) throw error;
    throw new Error(
      '`probe` needs the `@modelcontextprotocol/sdk` package (1.x): run `npm install @modelcontextprotocol/sdk`',
      { cause: error },
    );
  }
}

async function probe(run: ProbeRun, io: CliIo): Promise<number> {
  const { readTimeoutMs } = run.policy.document.read;
  const { Client, StdioClientTransport } = await loadSdk();
  // a message carrying a body at the cap is base64 (4/3) plus framing; anything larger closes the connection
  const transport = cappedStdioTransport(
    StdioClientTransport,
    {
      command: run.executable,
      args: run.executableArgs,
      // the command runs as the user asked, with the user's environment, like any command line
      env: definedOnly(io.env),
      cwd: io.cwd,
      stderr: 'pipe',
    },
    run,
  );
  let stderrTail = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-stderrTailBytes);
  });
  const tap = tapTransport(transport);
  const clientInfo = { name: 'linkgate-probe', version: packageVersion() };
  const client = new Client(clientInfo, { capabilities: {} });
  const unreachable = (what: string, error: unknown) => {
    const detail = error instanceof Error ? error.message : String(error);
    io.stderr.write(`linkgate: ${what}: ${detail.split('\n')[0] ?? ''}\n`);
    const tail = stderrTail.trim();
    if (tail !== '') io.stderr.write(`server stderr (last lines):\n${tail.split('\n').slice(-10).join('\n')}\n`);
    return 2;
  };
  // the SDK forgets the pid when it closes the transport itself (a message over the byte cap), so keep it
  let childPid: number | null = null;
  try {
    try {
      await client.connect(tap.transport, { timeout: connectTimeoutMs });
    } catch (error) {
      return unreachable(`cannot start or reach \`${run.executable}\``, error);
    } finally {
      childPid = transport.pid;
    }
    let toolResult: unknown;
    let responseId: string | number | null;
    try {
      const { params, tag } = tagParams({ name: run.tool, arguments: run.toolArgs });
      // raw result: the SDK's CallToolResult schema would drop fields the gate should see
      toolResult = await client.request({ method: 'tools/call', params }, permissive, { timeout: toolTimeoutMs });
      responseId = tap.takeRequestId(tag);
    } catch (error) {
      return unreachable(`tool \`${run.tool}\` did not answer`, error);
    }
    const linkCount = discoverLinks(toolResult).links.length;
    if (isErrorResult(toolResult) && linkCount === 0) {
      // an error result without links probes nothing: the tool name or its arguments are wrong
      io.stderr.write(`linkgate: tool \`${run.tool}\` returned an error: ${firstText(toolResult)}\n`);
      const tools = await toolNames(client);
      if (tools !== null && !tools.includes(run.tool)) {
        io.stderr.write(
          `linkgate: the server has no tool \`${run.tool}\`; its tools: ${tools.join(', ') || '(none)'}${didYouMeanText(run.tool, tools)}\n`,
        );
      }
      return 2;
    }
    const gate = createGate(run.policy);
    // each read gets its full deadline: the budget covers every wave of concurrent reads plus one
    const budgetMs = readTimeoutMs * (Math.ceil(linkCount / defaultReadConcurrency) + 1);
    const { records, embeddedRecords } = await gateToolResult(client, toolResult, {
      gate,
      server: run.server,
      tool: run.tool,
      ...(responseId === null ? {} : { responseId }),
      tap,
      clientInfo,
      budgetMs,
      frontEnd: 'probe',
    });
    if (run.json) {
      for (const record of records) await writeLine(io.stdout, JSON.stringify(record));
      for (const record of embeddedRecords) await writeLine(io.stdout, JSON.stringify(record));
      // always a last line, so a run with nothing to gate still says what it saw
      await writeLine(
        io.stdout,
        JSON.stringify({
          kind: 'summary',
          tool: run.tool,
          server: run.server,
          policy: run.policy.ref,
          links: records.length,
          embedded: embeddedRecords.length,
          verdicts: countVerdicts([...records, ...embeddedRecords]),
        }),
      );
    } else {
      const serverInfo = client.getServerVersion();
      const title = [
        `policy ${run.policy.ref.id} ${run.policy.ref.version}`,
        `tool ${run.tool}`,
        serverInfo === undefined ? null : `server ${serverInfo.name} ${serverInfo.version}`,
        tap.protocolVersion() === null ? null : `protocol ${tap.protocolVersion()}`,
      ].filter((s) => s !== null);
      io.stdout.write(
        `linkgate probe: ${title.join(' · ')}\n\n${formatRecordTable(records, useColour(io), embeddedRecords)}`,
      );
    }
    return 0;
  } finally {
    await shutDown(client, transport.pid ?? childPid);
  }
}

/** Closes the client and makes sure the child is gone: stdin closed, then SIGKILL after `exitGraceMs`. */
async function shutDown(client: Client, pid: number | null): Promise<void> {
  const closing = client.close().catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([closing, new Promise((resolve) => (timer = setTimeout(resolve, exitGraceMs)))]);
  clearTimeout(timer);
  if (pid !== null && isAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // it exited between the check and the kill
    }
    await gone(pid, exitGraceMs);
  }
  await closing;
}

/** Waits until `pid` no longer exists (a killed child ends asynchronously), at most `withinMs` milliseconds. */
async function gone(pid: number, withinMs: number): Promise<void> {
  const until = Date.now() + withinMs;
  while (isAlive(pid) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function isErrorResult(result: unknown): boolean {
  return (result as { isError?: unknown } | null)?.isError === true;
}

function firstText(result: unknown): string {
  const content = (result as { content?: unknown } | null)?.content;
  const text = Array.isArray(content)
    ? (content as unknown[]).find((c) => typeof (c as { text?: unknown } | null)?.text === 'string')
    : undefined;
  return text === undefined ? 'no message' : maskText(String((text as { text: string }).text));
}

// the tool names the server lists, or null when it cannot list them
async function toolNames(client: Client): Promise<string[] | null> {
  try {
    const { tools } = await client.listTools(undefined, { timeout: toolTimeoutMs });
    return tools.map((t) => t.name);
  } catch {
    return null;
  }
}

function countVerdicts(records: readonly { verdict: string }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of records) out[r.verdict] = (out[r.verdict] ?? 0) + 1;
  return out;
}

/** Colour only on a terminal, never with `NO_COLOR` set or `TERM=dumb`; `FORCE_COLOR` (not `0`) forces it. */
export function useColour(io: Pick<CliIo, 'env' | 'stdoutIsTty'>): boolean {
  const force = io.env['FORCE_COLOR'];
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  if (io.env['NO_COLOR'] !== undefined && io.env['NO_COLOR'] !== '') return false;
  return io.stdoutIsTty && io.env['TERM'] !== 'dumb';
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}
