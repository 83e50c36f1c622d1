import { StdioClientTransport as Stdio2 } from '@modelcontextprotocol/client/stdio';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { cappedStdioTransport } from '../../src/sdk/capped-stdio-transport.ts';
import { gateErrorCode } from '../../src/sdk/gate-answers.ts';
import { LinearReadBuffer, linearizeReadBuffer } from '../../src/sdk/linear-read-buffer.ts';
import { GateError } from '../../src/errors.ts';
import { oversizeOf } from '../../src/sdk/oversize-answer.ts';

const messages = (bytes: Buffer, buffer: { append(c: Buffer): void; readMessage(): unknown }, cuts: number[]) => {
  const out: unknown[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    buffer.append(bytes.subarray(from, cut));
    from = cut;
    for (let m = buffer.readMessage(); m !== null; m = buffer.readMessage()) out.push(m);
  }
  return out;
};

describe('LinearReadBuffer', () => {
  test('reads the same messages as the SDK buffer, however the stream is cut', () => {
    const message = fc.record({
      jsonrpc: fc.constant('2.0' as const),
      id: fc.nat(),
      result: fc.record({ text: fc.string({ unit: 'binary' }) }),
    });
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (ms, raw) => {
          const bytes = Buffer.from(ms.map((m) => `${JSON.stringify(m)}\n`).join(''));
          const cuts = [...new Set(raw.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const linear = messages(bytes, new LinearReadBuffer(new ReadBuffer(), 1 << 20), cuts);
          expect(linear).toEqual(messages(bytes, new ReadBuffer(), cuts));
          expect(linear).toHaveLength(ms.length);
        },
      ),
    );
  });

  test('copies each byte of a large message once, however many chunks it arrives in', () => {
    const text = 'a'.repeat(4 * 1024 * 1024);
    const bytes = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text } })}\n`);
    const concat = vi.spyOn(Buffer, 'concat');
    try {
      const buffer = new LinearReadBuffer(new ReadBuffer(), 8 * 1024 * 1024);
      const chunk = 64 * 1024;
      const cuts = Array.from({ length: Math.floor(bytes.length / chunk) }, (_, i) => (i + 1) * chunk);
      expect(messages(bytes, buffer, cuts)).toHaveLength(1);
      const copied = concat.mock.calls.reduce((sum, [list]) => sum + list.reduce((n, b) => n + b.length, 0), 0);
      expect(copied).toBeLessThanOrEqual(bytes.length);
    } finally {
      concat.mockRestore();
    }
  });

  test.each([
    ['id first', (text: string) => ({ jsonrpc: '2.0', id: 7, result: { text } })],
    ['id last, as an SDK server writes it', (text: string) => ({ result: { text }, jsonrpc: '2.0', id: 7 })],
  ])('a line over its cap (%s) becomes an error answer for its id, and the lines after it still read', (_n, make) => {
    const big = `${JSON.stringify(make('a'.repeat(300 * 1024)))}\n`;
    const after = `${JSON.stringify({ jsonrpc: '2.0', id: 8, result: {} })}\n`;
    const bytes = Buffer.from(`${big}${after}`);
    const cuts = Array.from({ length: Math.floor(bytes.length / 4096) }, (_, i) => (i + 1) * 4096);
    const out = messages(bytes, new LinearReadBuffer(new ReadBuffer(), 64 * 1024), cuts) as Record<string, unknown>[];
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ id: 7, error: { code: gateErrorCode } });
    expect(oversizeOf(out[0] as object)).toEqual({ bytes: big.length - 1, capBytes: 64 * 1024 });
    expect(out[1]).toEqual({ jsonrpc: '2.0', id: 8, result: {} });
  });

  test('a line over its cap with no id to read is dropped alone', () => {
    const buffer = new LinearReadBuffer(new ReadBuffer(), 40);
    buffer.append(Buffer.alloc(41, 0x20));
    buffer.append(Buffer.from('\n{"jsonrpc":"2.0","method":"x"}\n'));
    expect(buffer.readMessage()).toEqual({ jsonrpc: '2.0', method: 'x' });
    expect(buffer.readMessage()).toBeNull();
  });

  test.each([
    ['sdk 1.x', StdioClientTransport],
    ['sdk 2.x', Stdio2],
  ])('cappedStdioTransport puts it in place for %s', async (_name, Transport) => {
    const gate = createGate(await loadPolicy('policies/default.yaml'));
    const transport = cappedStdioTransport(Transport, { command: 'node' }, gate);
    expect((transport as unknown as { _readBuffer: unknown })._readBuffer).toBeInstanceOf(LinearReadBuffer);
  });

  // a buffer class the decorator cannot build with a cap of its own: it must not hand lines to a parser whose cap is
  // lower than the gate's (an answer between the two would be dropped, its read left waiting), and says so at set-up
  class FixedCap {
    readonly _maxBufferSize: number;
    constructor(cap: unknown) {
      if (typeof cap !== 'number') throw new Error('a cap is required');
      this._maxBufferSize = cap;
    }
    append(): void {}
    readMessage(): unknown {
      return null;
    }
    clear(): void {}
  }
  // one whose constructor takes the option object but keeps its own fixed cap
  class IgnoresOption extends FixedCap {
    constructor() {
      super(1024);
    }
  }

  test.each([
    ['cannot be built with a cap, and its own is lower', () => new FixedCap(1024)],
    ['built with the cap asked for, but keeps a lower one', () => new IgnoresOption()],
    [
      'cannot be built with a cap, and keeps none to read',
      () => Object.assign(new FixedCap(0), { _maxBufferSize: 'x' }),
    ],
  ])('a transport whose read buffer %s is refused with a clear error', (_n, buffer) => {
    const transport = { _readBuffer: buffer() };
    let thrown: unknown;
    try {
      linearizeReadBuffer(transport, 4096);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GateError);
    expect(thrown).toMatchObject({ code: 'USAGE', message: expect.stringContaining('`maxBufferSize` to 4097 bytes') });
    expect(transport._readBuffer).not.toBeInstanceOf(LinearReadBuffer);
  });

  test("a read buffer that cannot be built with a cap is kept when its own cap admits the gate's", () => {
    const inner = new FixedCap(1 << 20);
    const transport: { _readBuffer: unknown } = { _readBuffer: inner };
    expect(linearizeReadBuffer(transport, 4096)).toBe(true);
    expect(transport._readBuffer).toBeInstanceOf(LinearReadBuffer);
  });

  test.each([
    ['sdk 1.x', StdioClientTransport],
    ['sdk 2.x', Stdio2],
  ])('the SDK buffer %s builds takes the cap asked for', (_name, Transport) => {
    const transport = new Transport({ command: 'node' });
    expect(linearizeReadBuffer(transport, 64 * 1024 * 1024)).toBe(true);
    const made = (transport as unknown as { _readBuffer: unknown })._readBuffer;
    expect(made).toBeInstanceOf(LinearReadBuffer);
  });
});
