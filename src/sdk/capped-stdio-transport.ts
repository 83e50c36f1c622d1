import type { Gate } from '../gate/create-gate.ts';
import { connectionByteCap } from './connection-byte-cap.ts';

/** A stdio client transport class: SDK 1.x or 2.x `StdioClientTransport`, whose parameters take `maxBufferSize` (bytes of one message). */
// biome-ignore lint/suspicious/noExplicitAny: any constructor whose one parameter object takes `maxBufferSize`
export type StdioTransportClass = new (params: any) => unknown;

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
  return new Transport({ ...params, maxBufferSize: connectionByteCap(gate.policy) }) as InstanceType<C>;
}
