import type { Policy } from '../policy/policy.ts';

/** Room for JSON-RPC framing, the item's uri and JSON escaping on top of the base64-encoded body, bytes. */
export const framingSlackBytes = 1024 * 1024;

/**
 * Largest single message a connection may carry under `policy`, bytes: `read.maxBytes` as base64 (4/3) plus
 * `framingSlackBytes`. Pass it as the stdio transport's `maxBufferSize`; a larger message closes the connection.
 */
export function connectionByteCap(policy: Policy): number {
  return Math.ceil(policy.document.read.maxBytes / 3) * 4 + framingSlackBytes;
}
