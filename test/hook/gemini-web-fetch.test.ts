import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { webFetchUrls } from '../../src/hook/gemini-cli-host.ts';
import { makePe } from '../fixtures/make-bytes.ts';
import { runCli } from '../helpers/run-cli.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-gemini-fetch-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const hook = (event: unknown) =>
  runCli(
    ['hook', 'gemini-cli', '--policy', 'policies/default.yaml', '--state', join(dir, 'state')],
    JSON.stringify(event),
  );
const event = (name: string, tool: string, input: unknown, response?: unknown) => ({
  session_id: 'g1',
  hook_event_name: name,
  tool_name: tool,
  tool_input: input,
  ...(response === undefined ? {} : { tool_response: response }),
});

describe('gemini cli web_fetch: the urls Gemini CLI 0.61 fetches for a prompt (its parsePrompt)', () => {
  it('splits on whitespace and keeps what WHATWG URL makes of each token holding ://', () => {
    expect(webFetchUrls("summarise http://docs.example.com'@169.254.169.254/latest/meta-data/ please")).toEqual([
      "http://docs.example.com'@169.254.169.254/latest/meta-data/",
    ]);
    expect(webFetchUrls('a HTTP://EXAMPLE.com:80/x\tb https://example.org/"q"')).toEqual([
      'http://example.com/x',
      'https://example.org/%22q%22',
    ]);
    expect(webFetchUrls('ftp://a.example/x file:///etc/passwd http://[::1 no-scheme.example')).toEqual([]);
    expect(webFetchUrls('https://github.com/o/r/blob/main/README.md')).toEqual([
      'https://github.com/o/r/blob/main/README.md',
      'https://raw.githubusercontent.com/o/r/main/README.md',
    ]);
  });

  it('refuses the fetch Gemini would make to the metadata address behind a quote and userinfo', async () => {
    const prompt = "summarise http://docs.example.com'@169.254.169.254/latest/meta-data/";
    const run = await hook(event('BeforeTool', 'web_fetch', { prompt }));
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toMatch(/169\.254\.169\.254|uri\.userinfo/);
  });
});

describe('gemini cli AfterTool whose llmContent is not a string', () => {
  it('an MCP tool result given as an object is withheld, not passed silently', async () => {
    const after = event('AfterTool', 'mcp_docs_get', {}, { llmContent: { functionCall: { name: 'x' } } });
    const run = await hook({ ...after, mcp_context: { server_name: 'docs', tool_name: 'get' } });
    const answer = JSON.parse(run.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toContain('content.shape');
  });

  it('a read given as parts is judged: an executable in inline data withholds the read', async () => {
    const uri = 'guide://manuals/packing';
    await hook(event('BeforeTool', 'read_mcp_resource', { uri }));
    const parts = [
      { text: 'fold the shirts' },
      { inlineData: { mimeType: 'image/png', data: makePe().toString('base64') } },
    ];
    const run = await hook(event('AfterTool', 'read_mcp_resource', { uri }, { llmContent: parts }));
    const answer = JSON.parse(run.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toContain('content.executable');
  });
});
