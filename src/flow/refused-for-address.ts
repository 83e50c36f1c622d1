// A link refused for its address (an internal or metadata address, credentials in it, an address parsers read
// differently, a local file) hands that address on wherever a later text names it: it must not reach the model in
// any text of the session. A link refused for what it is not (its origin is not listed, its server is not allowed,
// its declared type or size, an engine failure) leaves its address free to be named.

/**
 * The reasons that refuse a link for its address: one that must not be handed on in any later text of the session.
 * A scheme refusal counts only for `file:` (the address is a file of this machine, which a shell reads).
 */
const addressReasons: ReadonlySet<string> = new Set([
  'uri.non-public-address',
  'uri.userinfo',
  'uri.parser-confusion',
  'uri.invalid',
  'uri.unresolved',
]);
const localSchemes: ReadonlySet<string> = new Set(['file']);

/** Whether a refused link's `reasons` refuse it for its address (`uri`'s scheme decides a scheme refusal). */
export function refusedForAddress(reasons: readonly { code: string }[], uri: string): boolean {
  return reasons.some(
    (r) =>
      addressReasons.has(r.code) ||
      (r.code === 'uri.scheme-not-allowed' &&
        localSchemes.has(/^\s*([A-Za-z][A-Za-z0-9+.-]*):/.exec(uri)?.[1]?.toLowerCase() ?? '')),
  );
}
