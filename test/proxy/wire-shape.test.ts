import { describe, expect, test } from 'vitest';
import { messageShape } from '../../src/flow/json-rpc-shape.ts';
import type { Line } from '../../src/proxy/json-lines.ts';
import { frameOf, lineOf, parseLine } from '../../src/proxy/original-bytes.ts';
import { editMessage } from '../../src/sdk/message-edits.ts';

const lineOfText = (text: string): Line => ({ parts: [Buffer.from(text)], size: Buffer.byteLength(text), text });

describe('a message read off the wire is classified once', () => {
  test('every layer that asks gets the shape it was read with, and the line it came as', () => {
    const line = lineOfText('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}\n');
    const message = parseLine(line) as object;
    const shape = messageShape(message);
    expect(shape).toEqual({ kind: 'request', id: 7, method: 'tools/call' });
    // the same value each time: classified as it was parsed, not again per layer
    expect(messageShape(message)).toBe(shape);
    expect(lineOf(message)).toBe(line);
    expect(JSON.stringify(message)).toBe('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}');
    expect(Object.getOwnPropertySymbols({ ...message })).toEqual([]);
  });

  test("a batch's elements too, each with no line of its own; an invalid message keeps its reason", () => {
    const message = parseLine(lineOfText('[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"1.0","id":2,"result":{}}]\n'));
    const [note, bad] = message as object[];
    expect(messageShape(note)).toBe(messageShape(note));
    expect(messageShape(note)).toEqual({ kind: 'notification', method: 'a' });
    expect(messageShape(bad)).toEqual({ kind: 'invalid', id: 2, why: '`jsonrpc` is not `2.0`' });
    expect(lineOf(note as object)).toBeUndefined();
    expect(frameOf(note)).toBe('{"jsonrpc":"2.0","method":"a"}\n');
  });

  test('an edited copy is a new message: classified from what it holds', () => {
    const message = parseLine(lineOfText('{"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n')) as Record<
      string,
      unknown
    >;
    const edited = editMessage(message, [{ op: 'replace', path: ['id'], value: 'x' }]);
    expect(messageShape(edited)).toEqual({ kind: 'answer', id: 'x', isError: false });
    expect(messageShape(message)).toEqual({ kind: 'answer', id: 1, isError: false });
  });
});
