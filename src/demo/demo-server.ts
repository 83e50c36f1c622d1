#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { GateError } from '../errors.ts';
import { makeElf, makePng } from './demo-bytes.ts';
import { isMainModule } from '../cli/is-main-module.ts';

/** Default delay of the slow resource, milliseconds (below the default policy's 10 s deadline, so `npm start` stays quick). */
export const defaultSlowMs = 1500;
/** Default size of the oversize blob, bytes: just over the default policy's 10 MiB read cap. */
export const defaultOversizeBytes = 10 * 1024 * 1024 + 1024;
/** MCP error code for an unknown resource (2025-11-25). */
export const resourceNotFoundCode = -32002;

/** What a demo link is meant to show under `policies/default.yaml`. */
export interface DemoLink {
  uri: string;
  name: string;
  mimeType?: string;
  size?: number;
  /** the verdict the default policy should give it */
  expect: 'body-obtained' | 'partially-interpreted' | 'link-only' | 'unverifiable';
}

/** The links of the `show-links` tool, in content order: one for every decision and verdict. */
export const demoLinks: readonly DemoLink[] = [
  { uri: 'demo://linkgate/guide.md', name: 'guide', mimeType: 'text/markdown', expect: 'body-obtained' },
  { uri: 'demo://linkgate/pixel.png', name: 'pixel', mimeType: 'image/png', expect: 'body-obtained' },
  {
    uri: 'demo://linkgate/holiday.png',
    name: 'executable labelled as an image',
    mimeType: 'image/png',
    expect: 'link-only',
  },
  {
    uri: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    name: 'cloud metadata',
    expect: 'link-only',
  },
  { uri: 'javascript:alert(document.cookie)', name: 'script url', expect: 'link-only' },
  { uri: 'file:///etc/passwd', name: 'local file', mimeType: 'text/plain', expect: 'link-only' },
  { uri: 'https://demo-user:s3cr3t-pass@docs.example.com/guide?token=abc123', name: 'userinfo', expect: 'link-only' },
  { uri: 'demo://linkgate/archive.zip', name: 'declared archive', mimeType: 'application/zip', expect: 'link-only' },
  {
    uri: 'demo://linkgate/declared-huge.bin',
    name: 'declared oversize',
    mimeType: 'image/png',
    size: 64 * 1024 * 1024,
    expect: 'link-only',
  },
  { uri: 'demo://linkgate/missing.txt', name: 'missing resource', mimeType: 'text/plain', expect: 'unverifiable' },
  { uri: 'demo://linkgate/needs-input', name: 'input required', mimeType: 'text/plain', expect: 'unverifiable' },
  { uri: 'demo://linkgate/slow.txt', name: 'slow read', mimeType: 'text/plain', expect: 'body-obtained' },
  { uri: 'demo://linkgate/oversize.png', name: 'oversize blob', mimeType: 'image/png', expect: 'link-only' },
  { uri: 'demo://linkgate/mixed', name: 'mixed result', mimeType: 'text/plain', expect: 'partially-interpreted' },
];

/** Settings of the demo server, from its command line. */
export interface DemoOptions {
  /** delay of `slow.txt`, milliseconds */
  slowMs: number;
  /** decoded size of `oversize.png`, bytes */
  oversizeBytes: number;
}

type ReadResult = Record<string, unknown>;

/** Builds the demo server: one tool, `show-links`, and a raw `resources/read` handler (it emits 2026-07-28 shapes). */
export function createDemoServer(options: DemoOptions): McpServer {
  const server = new McpServer(
    { name: 'linkgate-demo', version: '0.1.0' },
    { capabilities: { resources: {}, tools: {} } },
  );
  server.registerTool(
    'show-links',
    { title: 'show links', description: 'returns resource links that exercise every linkgate decision and verdict' },
    async () => ({
      content: [
        {
          type: 'text',
          text: `${demoLinks.length} links follow; a url written in text such as https://example.com/not-a-link is data, not a link`,
        },
        ...demoLinks.map((l) => ({
          type: 'resource_link' as const,
          uri: l.uri,
          name: l.name,
          ...(l.mimeType === undefined ? {} : { mimeType: l.mimeType }),
          ...(l.size === undefined ? {} : { size: l.size }),
        })),
      ],
    }),
  );
  const complete = (contents: ReadResult[], ttlMs = 0): ReadResult => ({
    resultType: 'complete',
    contents,
    ttlMs,
    cacheScope: 'public',
  });
  const resources: Record<string, () => Promise<ReadResult>> = {
    'demo://linkgate/guide.md': async () =>
      complete(
        [
          {
            uri: 'demo://linkgate/guide.md',
            mimeType: 'text/markdown',
            text: '# packing guide\n\nfold, then roll; heavy items at the bottom.\n',
          },
        ],
        60_000,
      ),
    'demo://linkgate/pixel.png': async () =>
      complete([{ uri: 'demo://linkgate/pixel.png', mimeType: 'image/png', blob: makePng(4, 4).toString('base64') }]),
    'demo://linkgate/holiday.png': async () =>
      complete([{ uri: 'demo://linkgate/holiday.png', mimeType: 'image/png', blob: makeElf().toString('base64') }]),
    'demo://linkgate/needs-input': async () => ({
      resultType: 'input_required',
      inputRequests: {
        confirm: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'confirm you want this document',
            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
          },
        },
      },
      requestState: 'c2VydmVyLXNpZGUtc3RhdGUtbm90LWZvci1yZWNvcmRz',
    }),
    'demo://linkgate/slow.txt': async () => {
      await new Promise((resolve) => setTimeout(resolve, options.slowMs));
      return complete([
        { uri: 'demo://linkgate/slow.txt', mimeType: 'text/plain', text: `answered after ${options.slowMs} ms\n` },
      ]);
    },
    'demo://linkgate/oversize.png': async () => {
      const png = makePng(1, 1);
      const blob = Buffer.concat([png, Buffer.alloc(Math.max(0, options.oversizeBytes - png.length))]);
      return complete([{ uri: 'demo://linkgate/oversize.png', mimeType: 'image/png', blob: blob.toString('base64') }]);
    },
    'demo://linkgate/mixed': async () =>
      complete([
        { uri: 'demo://linkgate/mixed/notes', mimeType: 'text/plain', text: 'plain notes that are safe to show\n' },
        {
          uri: 'demo://linkgate/mixed/log',
          mimeType: 'text/plain',
          text: 'build log \u001b]0;owned\u0007\u001b[2J\u001b[31mred\u001b[0m\n',
        },
      ]),
  };
  server.server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const read = resources[request.params.uri];
    if (read === undefined) throw new McpError(resourceNotFoundCode, `resource \`${request.params.uri}\` not found`);
    // the low-level handler returns raw 2026-07-28 shapes (resultType, input_required) the high-level API would not
    return await read();
  });
  return server;
}

/** Parses `--slow-ms N --oversize-bytes N`; both whole numbers ≥ 0. */
export function parseDemoArgs(args: readonly string[]): DemoOptions {
  const { values } = parseArgs({
    args: [...args],
    options: { 'slow-ms': { type: 'string' }, 'oversize-bytes': { type: 'string' } },
    strict: true,
  });
  const whole = (text: string | undefined, fallback: number, name: string) => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isSafeInteger(n) || n < 0)
      throw new GateError('USAGE', `\`--${name}\` must be a whole number ≥ 0, got \`${text}\``);
    return n;
  };
  return {
    slowMs: whole(values['slow-ms'], defaultSlowMs, 'slow-ms'),
    oversizeBytes: whole(values['oversize-bytes'], defaultOversizeBytes, 'oversize-bytes'),
  };
}

async function serve(): Promise<void> {
  const server = createDemoServer(parseDemoArgs(process.argv.slice(2)));
  await server.connect(new StdioServerTransport());
}

if (isMainModule(import.meta.url)) {
  serve().catch((error: unknown) => {
    process.stderr.write(`linkgate-demo: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
}
