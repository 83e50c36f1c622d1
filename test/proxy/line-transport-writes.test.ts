// What one turn sends on a line transport goes out in one write (issue 42: a byte relay writes a chunk of a thousand
// answers in one system call; the proxy wrote each answer on its own), in order and as the bytes each line came as.
import { PassThrough, Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { lineTransport } from '../../src/proxy/line-transport.ts';

// an output that counts the writes the stream hands it (one `writev` is one system call on a pipe)
function countingOutput(): { output: Writable; writes: number[]; bytes: () => string } {
  const writes: number[] = [];
  const chunks: Buffer[] = [];
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(1);
      chunks.push(chunk);
      done();
    },
    writev(entries, done) {
      writes.push(entries.length);
      for (const { chunk } of entries) chunks.push(chunk as Buffer);
      done();
    },
  });
  return { output, writes, bytes: () => Buffer.concat(chunks).toString('utf8') };
}

// the messages a transport reads from `lines`, each carrying the bytes it came as
async function readMessages(lines: string): Promise<JSONRPCMessage[]> {
  const input = new PassThrough();
  const reader = lineTransport({ input, output: new PassThrough(), maxLineBytes: 1 << 20, onUnreadable() {} });
  const got: JSONRPCMessage[] = [];
  reader.onmessage = (message) => got.push(message);
  await reader.start();
  input.write(lines);
  await nextTurn();
  return got;
}

describe('line transport: the writes of one turn', () => {
  test('a thousand lines sent in one turn are one write, in order, as the bytes they came as', async () => {
    // odd spacing and key order: only the original bytes reproduce it
    const lines = Array.from({ length: 1000 }, (_, i) => `{"id": ${i},  "jsonrpc":"2.0", "result":{"n":${i}}}\n`);
    const messages = await readMessages(lines.join(''));
    expect(messages).toHaveLength(1000);
    const { output, writes, bytes } = countingOutput();
    const writer = lineTransport({ input: new PassThrough(), output, maxLineBytes: 1 << 20, onUnreadable() {} });
    for (const message of messages) writer.sendNow(message);
    await nextTurn();
    expect(bytes()).toBe(lines.join(''));
    // 1000 lines of ~45 bytes: under a pipe's worth (64 KiB), so one write
    expect(writes).toEqual([1000]);
  });

  test('lines sent in two turns are two writes; more than 64 KiB in one turn goes out without waiting', async () => {
    const { output, writes, bytes } = countingOutput();
    const writer = lineTransport({ input: new PassThrough(), output, maxLineBytes: 1 << 20, onUnreadable() {} });
    const message = (id: number, size = 1) =>
      ({ jsonrpc: '2.0', id, result: { text: 'x'.repeat(size) } }) as JSONRPCMessage;
    writer.sendNow(message(1));
    writer.sendNow(message(2));
    await nextTurn();
    writer.sendNow(message(3));
    await nextTurn();
    expect(writes).toEqual([2, 1]);
    writer.sendNow(message(4, 70 * 1024));
    // written in this turn: nothing of a large answer waits for the turn to end
    expect(writes).toEqual([2, 1, 1]);
    expect(
      bytes()
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { id: number }).id),
    ).toEqual([1, 2, 3, 4]);
  });

  test('close writes what was sent before it ends the output', async () => {
    const { output, bytes } = countingOutput();
    const writer = lineTransport({ input: new PassThrough(), output, maxLineBytes: 1 << 20, onUnreadable() {} });
    writer.sendNow({ jsonrpc: '2.0', id: 7, result: {} });
    await writer.close();
    expect(bytes()).toBe('{"jsonrpc":"2.0","id":7,"result":{}}\n');
  });
});
