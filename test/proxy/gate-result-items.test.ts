import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { itemJudge } from '../../src/proxy/gate-result-items.ts';
import { EditedLine } from '../../src/proxy/edited-line.ts';
import { frameOf, parseLine } from '../../src/proxy/original-bytes.ts';
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
const asLine = (text: string) => parseLine({ parts: [Buffer.from(text)], size: Buffer.byteLength(text), text }) as Json;
const frameText = (message: unknown) => {
  const frame = frameOf(message);
  return typeof frame === 'string' ? frame : Buffer.concat(frame).toString();
};

describe('itemJudge on tool results', () => {
  test('the judged items are spliced into the original text; everything else keeps its bytes', async () => {
    const message = asLine(line);
    const judged = (await (await judge()).judge('tools/call', message)) as Json;
    expect(judged).not.toBeNull();
    const frame = frameText(judged);
    // the new line is the value the proxy would otherwise serialize
    expect(JSON.parse(frame)).toEqual(judged);
    expect(frame.startsWith('{ "result" : { "isError":false, "content" : [ {"type":"text","text":"a \\"quoted')).toBe(
      true,
    );
    expect(frame.endsWith(' ] }, "id" : 9, "jsonrpc":"2.0" }\n')).toBe(true);
    const items = ((judged['result'] as Json)['content'] ?? []) as Json[];
    const decisionOf = (i: number) => (items[i]?.['_meta'] as Json)[decisionMetaKey];
    // the compact decision of DESIGN §4e: the effect, and the reason codes of a deny
    expect(decisionOf(1)).toEqual({ effect: 'allow' });
    // a denied link is not handed on as a link: the flow's text item names it, with the full decision
    expect(items[3]?.['type']).toBe('text');
    expect(String(items[3]?.['text'])).toMatch(
      /^linkgate refused the link `.*` \(scheme `.*`\): uri\.scheme-not-allowed \[record `[0-9a-f]{10}`; /,
    );
    expect(decisionOf(3)).toMatchObject({ effect: 'deny', reasons: [{ code: 'uri.scheme-not-allowed' }] });
    expect(items[2]?.['type']).toBe('text');
    expect(String(items[2]?.['text'])).toContain('content.executable');
  });

  test('a link with `_meta` of its own keeps it beside the decision, in its own bytes', async () => {
    const text =
      '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"resource_link","uri":"guide://x","name":"x","_meta":{"k":12345678901234567890}}]}}\n';
    const judged = await (await judge()).judge('tools/call', asLine(text));
    expect(frameText(judged)).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"resource_link","uri":"guide://x","name":"x","_meta":{"k":12345678901234567890,"io.linkgate/decision":{"effect":"allow"}}}]}}\n',
    );
  });

  test('a link judged again (the tool called twice) gets the same decision; nothing to judge gives null', async () => {
    const j = await judge();
    const first = await j.judge('tools/call', asLine(line));
    const second = await j.judge('tools/call', asLine(line));
    expect(frameText(second)).toBe(frameText(first));
    // without the original text the same decisions come out, serialized
    const rebuilt = await j.judge('tools/call', JSON.parse(line) as Json);
    expect(JSON.parse(frameText(rebuilt))).toEqual(first);
    expect(await j.judge('tools/call', { result: { content: [{ type: 'text', text: 'x' }] } })).toBeNull();
  });

  test('for a line transport, the judged result is the original with its edits (no copy), written as the same bytes', async () => {
    const gate = createGate(await loadPolicy(shippedPolicy('default')));
    const copied = await itemJudge(gate, 'docs').judge('tools/call', asLine(line));
    const message = asLine(line);
    const edited = await itemJudge(gate, 'docs', undefined, (m, e) => new EditedLine(m, e)).judge(
      'tools/call',
      message,
    );
    expect(edited).toBeInstanceOf(EditedLine);
    expect((edited as EditedLine).from).toBe(message);
    expect((edited as EditedLine).isAnswer).toBe(true);
    // a server request judged (sampling) stays a request for the host's outbox order
    expect(new EditedLine({ jsonrpc: '2.0', id: 1, method: 'sampling/createMessage' }, []).isAnswer).toBe(false);
    expect(frameText(edited)).toBe(frameText(copied));
    // one that did not arrive as a line is written as the value its edits make
    const parsed = JSON.parse(line) as Json;
    const unlined = new EditedLine(parsed, (edited as EditedLine).edits);
    expect(JSON.parse(frameText(unlined))).toEqual(JSON.parse(frameText(copied)));
  });
});
