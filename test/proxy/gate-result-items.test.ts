import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { itemJudge } from '../../src/proxy/gate-result-items.ts';
import { decisionMetaKey } from '../../src/sdk/gate-transport.ts';
import { shippedPolicy } from './proxy-helpers.ts';

type Json = Record<string, unknown>;

const script = { uri: 'test://s.sh', mimeType: 'text/plain', text: '#!/bin/sh\nid\n' };
// written by hand, with spacing and a member order a serializer would not keep
const line =
  '{ "result" : { "isError":false, "content" : [ {"type":"text","text":"a \\"quoted\\" } ]"} ,' +
  ' {"name":"ok","uri":"guide://manuals/packing","type":"resource_link"},' +
  ` {"type":"resource","resource":${JSON.stringify(script)}},` +
  ' {"type":"resource_link","uri":"file:///etc/passwd","name":"pw"} ] }, "id" : 9, "jsonrpc":"2.0" }\n';

async function judge() {
  return itemJudge(createGate(await loadPolicy(shippedPolicy('default'))), 'docs');
}

describe('itemJudge on tool results', () => {
  test('the judged items are spliced into the original text; everything else keeps its bytes', async () => {
    const message = JSON.parse(line) as { result: Json };
    const judged = await (await judge()).judge('tools/call', message.result, line);
    expect(judged).not.toBeNull();
    const frame = judged?.frame ?? '';
    // the new line is the value the proxy would otherwise serialize
    expect(JSON.parse(frame)).toEqual({ ...message, result: judged?.result });
    expect(frame.startsWith('{ "result" : { "isError":false, "content" : [ {"type":"text","text":"a \\"quoted')).toBe(
      true,
    );
    expect(frame.endsWith(' ] }, "id" : 9, "jsonrpc":"2.0" }\n')).toBe(true);
    const items = (judged?.result['content'] ?? []) as Json[];
    const decisionOf = (i: number) => (items[i]?.['_meta'] as Json)[decisionMetaKey] as { effect: string };
    expect(decisionOf(1).effect).toBe('allow');
    expect(decisionOf(3).effect).toBe('deny');
    expect(items[2]?.['type']).toBe('text');
    expect(String(items[2]?.['text'])).toContain('content.executable');
  });

  test('a link with `_meta` of its own keeps it beside the decision (the result is rebuilt)', async () => {
    const text =
      '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"resource_link","uri":"guide://x","name":"x","_meta":{"k":1}}]}}\n';
    const message = JSON.parse(text) as { result: Json };
    const judged = await (await judge()).judge('tools/call', message.result, text);
    expect(judged?.frame).toBeNull();
    const meta = ((judged?.result['content'] as Json[])[0]?.['_meta'] ?? {}) as Json;
    expect(meta['k']).toBe(1);
    expect((meta[decisionMetaKey] as { effect: string }).effect).toBe('allow');
  });

  test('a link judged again (the tool called twice) gets the same decision; nothing to judge gives null', async () => {
    const j = await judge();
    const message = JSON.parse(line) as { result: Json };
    const first = await j.judge('tools/call', message.result, line);
    const second = await j.judge('tools/call', message.result, line);
    expect(second?.frame).toBe(first?.frame);
    expect(second?.result).toEqual(first?.result);
    // without the original text the same decisions come out, serialized by the caller
    const rebuilt = await j.judge('tools/call', message.result, null);
    expect(rebuilt?.frame).toBeNull();
    expect(rebuilt?.result).toEqual(first?.result);
    expect(await j.judge('tools/call', { content: [{ type: 'text', text: 'x' }] }, null)).toBeNull();
  });
});
