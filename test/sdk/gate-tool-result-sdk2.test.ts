import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { cappedStdioTransport } from '../../src/sdk/capped-stdio-transport.ts';
import { gateToolResult, restoreResultType } from '../../src/sdk/gate-tool-result.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');

describe('gateToolResult with SDK 2.x (@modelcontextprotocol/client)', () => {
  it('keeps input_required, judges the oversize answer and reads every later link', async () => {
    const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));
    const client = new Client({ name: 'sdk2-host', version: '1.0.0' });
    const demo = path.join(repoRoot, 'src/demo/demo-server.ts');
    await client.connect(
      cappedStdioTransport(StdioClientTransport, { command: process.execPath, args: ['--import', 'tsx', demo] }, gate),
    );
    try {
      const result = await client.callTool({ name: 'show-links', arguments: {} });
      const { records } = await gateToolResult(client, result, {
        gate,
        server: 'demo',
        tool: 'show-links',
      });
      const by = (uri: string) => records.find((r) => r.uri === uri);
      const codes = (uri: string) => by(uri)?.decisions.read?.reasons.map((r) => r.code) ?? [];
      expect(by('demo://linkgate/needs-input')?.verdict).toBe('unverifiable');
      expect(codes('demo://linkgate/needs-input')).toEqual(['read.input-required']);
      expect(by('demo://linkgate/oversize.png')?.verdict).toBe('link-only');
      expect(codes('demo://linkgate/oversize.png')).toContain('content.too-large');
      // the connection outlived the oversize answer: the link after it was read and judged
      expect(by('demo://linkgate/mixed')?.verdict).toBe('partially-interpreted');
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe('restoreResultType', () => {
  it.each([
    ['2.x legacy-era input_required', { inputRequests: { a: {} }, requestState: 's' }, 'input_required'],
    ['request state alone', { requestState: 's' }, 'input_required'],
    ['a complete result without resultType', { contents: [] }, undefined],
    ['contents beside input fields stay as sent', { contents: [], inputRequests: {} }, undefined],
    ['an explicit resultType wins', { resultType: 'complete', inputRequests: {} }, 'complete'],
    ['an empty result', {}, undefined],
  ])('%s', (_name, result, want) => {
    expect(restoreResultType(result)['resultType']).toBe(want);
  });
  it('turns a non-object into an empty result', () => {
    expect(restoreResultType(null)).toEqual({});
  });
});
