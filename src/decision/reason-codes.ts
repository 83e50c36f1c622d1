/** Reason codes are stable API (DESIGN §3): dotted and lowercase; renaming one is a breaking change. */
export const reasonCodes = [
  'input.invalid',
  'engine.error',
  'uri.invalid',
  'uri.scheme-not-allowed',
  'uri.userinfo',
  'uri.non-public-address',
  'uri.parser-confusion',
  'uri.unresolved',
  'origin.not-allowed',
  'server.mismatch',
  'server.not-allowed',
  'link.not-discovered',
  'credential.cross-origin',
  'credential.forward-disabled',
  'size.declared-too-large',
  'type.declared-not-allowed',
  'read.input-required',
  'read.result-type-unknown',
  'read.error',
  'read.timeout',
  'read.empty',
  'read.uri-mismatch',
  'content.shape',
  'content.too-large',
  'content.too-many-items',
  'content.type-not-allowed',
  'content.mime-mismatch',
  'content.executable',
  'content.unsafe-text',
  'content.uninterpretable',
  'content.image-too-large',
  'content.too-complex',
  // reviewed policies (DESIGN §9): the loaded policy's signatures did not verify
  'policy.unreviewed',
  // direct fetch (src/fetch): the host dereferences an http(s) link itself
  'fetch.disabled',
  'fetch.downgrade',
  'fetch.too-many-redirects',
  'fetch.failed',
  // a consumer of the profile loads more from elsewhere by itself (a css `@import` in a `<style>` element)
  'content.remote-load',
  // a hook's session state lost what it held (a resident server forgot the session, or could not keep a tool result)
  'hook.state-lost',
  // a hook's tool result names the address of a link the gate refused earlier in the session
  'content.names-refused-address',
] as const;

/** A built-in reason code, or `rule.<id>` for a custom json-logic rule. */
export type ReasonCode = (typeof reasonCodes)[number] | `rule.${string}`;
