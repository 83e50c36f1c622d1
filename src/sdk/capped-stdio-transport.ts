import type { Gate } from '../gate/create-gate.ts';
import { connectionByteCap } from './connection-byte-cap.ts';

/** A stdio client transport class: SDK 1.x or 2.x `StdioClientTransport`, whose parameters take `maxBufferSize` (bytes of one message). */
// `never`: any constructor of one parameter object fits (parameters are contravariant)
export type StdioTransportClass = new (params: never) => unknown;

/**
 * A stdio client transport (SDK 1.x or 2.x `StdioClientTransport`) whose byte cap follows the gate's policy:
 * `connectionByteCap(policy)` as its `maxBufferSize`, so an answer over `read.maxBytes` still arrives whole and is
 * judged (`content.too-large`) instead of closing the connection at the SDK's default cap.
 */
export function cappedStdioTransport<C extends StdioTransportClass>(
  Transport: C,
  params: Omit<ConstructorParameters<C>[0], 'maxBufferSize'>,
  gate: Pick<Gate, 'policy'>,
): InstanceType<C> {
  const withCap = { ...params, maxBufferSize: connectionByteCap(gate.policy) } as never;
  return new Transport(withCap) as InstanceType<C>;
}
