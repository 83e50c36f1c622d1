import path from 'node:path';
import { describe, expect, it, test } from 'vitest';
import { createGate, loadPolicy, runToolResultFlow } from '../../src/index.ts';
import * as testing from '../../src/testing/index.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const context = {
  server: 'docs',
  tool: 'find',
  responseId: 1,
  protocolVersion: '2025-11-25',
  client: { name: 'host', version: '1' },
  serverInfo: { name: 'docs', version: '1' },
};

describe('linkgate/testing', () => {
  // the surface changes only on purpose: update this list in the same commit that changes src/testing/index.ts
  it('exports exactly these runtime names', () => {
    expect(Object.keys(testing).sort()).toMatchSnapshot();
  });

  test('a front end written on the public flow, tested with the scripted reader and the memory sink', async () => {
    const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));
    const reader = testing.scriptedReader({
      'docs://guide/readme': {
        result: { contents: [{ uri: 'docs://guide/readme', mimeType: 'text/plain', text: 'hi' }] },
      },
    });
    const sink = testing.memorySink();
    const toolResult = {
      content: [
        { type: 'resource_link', uri: 'docs://guide/readme', name: 'readme', mimeType: 'text/plain' },
        { type: 'resource_link', uri: 'http://169.254.169.254/latest/meta-data/', name: 'metadata' },
      ],
    };
    const gated = await runToolResultFlow(toolResult, {
      gate,
      read: reader.read,
      context,
      mode: 'enforce',
      concurrency: 2,
      budgetMs: 60_000,
      sink,
    });
    // the refused link never reached the "server"; the allowed one did, once
    expect(reader.asked.map((p) => p.uri)).toEqual(['docs://guide/readme']);
    expect(sink.records.map((r) => [r.uri, r.verdict])).toEqual([
      ['docs://guide/readme', 'body-obtained'],
      ['http://169.254.169.254/latest/meta-data/', 'link-only'],
    ]);
    expect(gated.records).toEqual(sink.records);
    for (const record of sink.records) expect(testing.recordViolations(record)).toEqual([]);
    await sink.close();
    expect(sink.closed).toBe(true);
    await expect(sink.write(sink.records[0] as never)).rejects.toThrow('write after close');
  });

  test('the scripted reader answers an unknown uri as not found and honours its signal', async () => {
    const reader = testing.scriptedReader({ 'a://x': () => new Promise(() => {}) });
    expect(await reader.read({ uri: 'a://missing' }, new AbortController().signal)).toEqual({
      error: { code: testing.resourceNotFound, message: 'no resource `a://missing`' },
    });
    const controller = new AbortController();
    const pending = reader.read({ uri: 'a://x' }, controller.signal);
    controller.abort(new Error('gone'));
    await expect(pending).rejects.toThrow('gone');
    expect(reader.asked.map((p) => p.uri)).toEqual(['a://missing', 'a://x']);
  });
});
