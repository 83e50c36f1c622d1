import type { Gate } from '../gate/create-gate.ts';
import { connectionByteCap } from './connection-byte-cap.ts';
import { linearizeReadBuffer } from './linear-read-buffer.ts';

/** A stdio client transport class: SDK 1.x or 2.x `StdioClientTransport`, whose parameters take `maxBufferSize` (bytes of one message). */
// `never`: any constructor of one parameter object fits (parameters are contravariant)
export type StdioTransportClass = new (params: never) => unknown;

/**
 * A stdio client transport (SDK 1.x or 2.x `StdioClientTransport`) whose byte cap follows the gate's policy:
 * `connectionByteCap(policy)` as its `maxBufferSize`, so an answer over `read.maxBytes` still arrives whole and is
 * judged (`content.too-large`) instead of closing the connection at the SDK's default cap; its read buffer is made
 * linear in the bytes (the SDK's joins every chunk onto the whole pending message).
 */
export function cappedStdioTransport<C extends StdioTransportClass>(
  Transport: C,
  params: Omit<ConstructorParameters<C>[0], 'maxBufferSize'>,
  gate: Pick<Gate, 'policy'>,
): InstanceType<C> {
  const maxBufferSize = connectionByteCap(gate.policy);
  const transport = new Transport({ ...params, maxBufferSize } as never) as InstanceType<C>;
  linearizeReadBuffer(transport, maxBufferSize);
  return transport;
}
