import type { reasonCodes } from './reason-codes.ts';

/** What a built-in reason code means and what to check next; docs/reason-codes.md is generated from it. */
export interface ReasonCodeHelp {
  /** one lowercase line: what the gate saw */
  readonly means: string;
  /** one lowercase line: where to look first */
  readonly checkNext: string;
}

/** Help for every built-in reason code (a missing code fails the typecheck). Custom rules use `rule.<id>`. */
export const reasonCodeHelp: Readonly<Record<(typeof reasonCodes)[number], ReasonCodeHelp>> = {
  'input.invalid': {
    means: 'the input line or link is malformed: a field is missing, has the wrong type, or the line is not json',
    checkNext: 'the field named in the message; the input format in docs/eval-lines.md',
  },
  'engine.error': {
    means: 'the gate itself failed while deciding; it failed closed',
    checkNext: 'the message, then report it with the input line: this is a bug, not a policy outcome',
  },
  'uri.invalid': {
    means: 'the uri does not parse as a WHATWG url, or holds raw control characters',
    checkNext: 'the server that produced the link: the uri must be absolute and well formed',
  },
  'uri.scheme-not-allowed': {
    means: 'the scheme is not in `links.schemes`, or a custom scheme is denied by `links.customSchemes`',
    checkNext:
      '`links.schemes` and `links.customSchemes` in the policy; `data:` and `javascript:` are never allowed, `file:` only when listed (read through the server that returned the link)',
  },
  'uri.userinfo': {
    means: 'the uri carries a user name, a password or an `@` before the host',
    checkNext: 'the server that produced the link: credentials never travel in uris',
  },
  'uri.non-public-address': {
    means: 'the host is a private, loopback, link-local or metadata address, however it is written',
    checkNext:
      '`links.denyNonPublicAddresses` and `links.allowNonPublicOrigins`; a local service needs an exact exemption',
  },
  'uri.parser-confusion': {
    means: 'the uri reads differently to different parsers (backslashes, odd authority, IDNA deviations)',
    checkNext: 'the raw uri in the record; such links are denied on purpose',
  },
  'uri.unresolved': {
    means: 'the host name did not resolve, so its address could not be checked',
    checkNext: 'dns for the host, or the `--resolve-from` map when using eval (docs/resolve-from.md)',
  },
  'origin.not-allowed': {
    means: 'the origin (scheme, host and port) is not in `links.origins`',
    checkNext: '`links.origins`; origins are compared as scheme + host + port',
  },
  'server.mismatch': {
    means: 'the read would go to a different server than the one that returned the link',
    checkNext: '`links.requireSameServer`, and the `server` and `readFrom` of the input',
  },
  'server.not-allowed': {
    means: 'the server id is not in `links.servers`',
    checkNext: '`links.servers`, and the server id the host passes (`--server` for probe and proxy)',
  },
  'link.not-discovered': {
    means: 'a read through a host hook names a uri no tool returned or listed earlier in the session',
    checkNext: '`hook.requireDiscovered`, and the hook state folder (`linkgate hook --state`)',
  },
  'credential.cross-origin': {
    means: 'a credential would be sent to another origin than the one it belongs to',
    checkNext: 'the redirect or link target; credentials never cross origins',
  },
  'credential.forward-disabled': {
    means: 'the policy forwards no credential beyond the request it was issued for',
    checkNext: '`credentials` in the policy',
  },
  'size.declared-too-large': {
    means: "the link's declared `size` is over `links.maxDeclaredBytes`",
    checkNext: '`links.maxDeclaredBytes`, or the size the server declares',
  },
  'type.declared-not-allowed': {
    means: "the link's declared mimeType is not a type `content.allow` accepts, so it is not read",
    checkNext: '`content.allow` and `links.denyDeclaredTypes`',
  },
  'read.input-required': {
    means: 'the server answered the read with `input_required` instead of a body',
    checkNext:
      'the server: it wants user input (elicitation); `read.answerInputRequired` decides whether the gate answers',
  },
  'read.result-type-unknown': {
    means: 'the read result has a `resultType` the gate does not know',
    checkNext: 'the protocol revision of the server and of linkgate',
  },
  'read.error': {
    means: 'the read failed with a json-rpc error, or the connection closed',
    checkNext: 'the error code in the record (`received.error`), the server, the uri and its permissions',
  },
  'read.timeout': {
    means: 'the read did not finish within `read.readTimeoutMs`, or the tool result budget ran out',
    checkNext: '`read.readTimeoutMs` and the server; a slow server ends `unverifiable`, never allowed',
  },
  'read.empty': {
    means: 'the read result has no contents items',
    checkNext: 'the server and the uri',
  },
  'read.uri-mismatch': {
    means: 'a contents item names a different uri than the one read',
    checkNext: 'the server: it answered with another resource',
  },
  'content.shape': {
    means:
      'the read result or an item is malformed: not exactly one of `text` or `blob`, bad base64, wrong types, a JSON member named twice, or a text that opens like JSON, does not parse and names `resource_link`',
    checkNext: 'the raw result from the server (`received` in the record)',
  },
  'content.too-large': {
    means: 'the body is over `read.maxBytes` or an item over `read.maxItemBytes`',
    checkNext:
      '`read.maxBytes` / `read.maxItemBytes`; a host must cap its transport too (`cappedStdioTransport`, `cappedFetch`)',
  },
  'content.too-many-items': {
    means: 'the read result has more items than `read.maxItems`',
    checkNext: '`read.maxItems`',
  },
  'content.type-not-allowed': {
    means: 'the detected type is not in `content.allow`',
    checkNext: '`content.allow`, and the detected type in the record (`received.items[].kind`)',
  },
  'content.mime-mismatch': {
    means: 'the magic bytes name a different known type than the declared mimeType',
    checkNext: 'the declared and detected types in the record: a disguised file is denied on purpose',
  },
  'content.executable': {
    means: 'the body is executable or active: a native binary, a script, an archive of code, markup with script',
    checkNext: 'the detected kind in the record; such bodies are never delivered',
  },
  'content.unsafe-text': {
    means: 'declared text holds NULs, terminal escapes, invisible or bidi controls, or UTF-16 without a BOM',
    checkNext: 'the item in the record; the rest of the read may still be delivered (`partial`)',
  },
  'content.uninterpretable': {
    means:
      'the body arrived but cannot be interpreted safely: empty, truncated, unknown binary under an allowed type, or declared JSON and not UTF-8',
    checkNext: 'the server and the declared type',
  },
  'content.image-too-large': {
    means: 'an image is over `content.maxImagePixels` by its header',
    checkNext: '`content.maxImagePixels`',
  },
  'content.too-complex': {
    means:
      'checking the body took more work than its size allows (deep nesting, comment walks, re-parsed tails); it was withheld',
    checkNext: 'the server that produced the body: ordinary files stay far inside the work budget',
  },
  'content.remote-load': {
    means:
      'a consumer of the profile would load more from elsewhere by itself as it shows the body (a stylesheet a browser fetches off the page: a css `@import` in a `<style>` element, a `<link rel="stylesheet">` or css `xml-stylesheet` to another origin, one a VitePress `head` entry or an MDX `<link>` writes); it was withheld',
    checkNext: 'the server that produced the body, and `content.consumers` (the browser reads html and svg)',
  },
  'hook.state-lost': {
    means:
      "a read through a host hook names a uri the session's state does not hold, and that state lost what it held (the resident server forgot the session, or could not keep a tool result whole): the link may be one another server returned",
    checkNext:
      "the resident server's stderr; read a link the session's tools return again, or start a new session (docs/resident-hook.md)",
  },
  'content.names-refused-address': {
    means:
      "a tool result or a read's answer reaching a host's hook names, as written or read back, the address of a link the gate refused earlier in the session (or the session's list of refused addresses is not whole: more than its state keeps, lost, or holding an entry the hook did not write): it was withheld whole, so the address is not handed on to a tool the gate does not cover",
    checkNext:
      'the server that produced the result or the read, and the earlier record of the refused link (docs/hooks.md)',
  },
  'policy.unreviewed': {
    means:
      'the policy is not used (`--allowed-signers`): no signature, a signature over other bytes or in another namespace, a key not allowed, a signer not in `review.reviewers`, too few signers, or the review expired; the message says which',
    checkNext: '`linkgate review verify --allowed-signers FILE POLICY`, then a new review signature (docs/reviews.md)',
  },
  'fetch.disabled': {
    means: 'the link would need a direct fetch, which the policy does not enable',
    checkNext: '`fetch` in the policy (README: fetching links directly)',
  },
  'fetch.downgrade': {
    means: 'a redirect would go from https to http',
    checkNext: 'the redirect chain in the record (`requested.hops`)',
  },
  'fetch.too-many-redirects': {
    means: 'the fetch followed more redirects than the policy allows',
    checkNext: 'the redirect chain in the record (`requested.hops`) and the `fetch` settings',
  },
  'fetch.failed': {
    means: 'the direct fetch failed: network error, tls error or an http error status',
    checkNext: 'the hops in the record (`requested.hops`) and the origin server',
  },
};
