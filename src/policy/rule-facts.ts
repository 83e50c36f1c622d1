/** The type of one fact a rule may read with `var`. */
export type FactType = 'string' | 'number' | 'boolean' | 'string?' | 'number?' | 'string[]';

/** The facts each rule stage provides, by name; `var` paths outside these are rejected at load. */
export const ruleFacts = {
  link: {
    server: 'string', // id of the connection that returned the link
    readFrom: 'string', // id of the connection the read would go to
    uri: 'string', // the link's uri as given
    scheme: 'string', // lower-case, without `:`
    host: 'string?', // canonical host (punycode, lower-case, no brackets), null for opaque uris
    port: 'number?', // explicit or default port, null when none
    origin: 'string?', // canonical `scheme://host[:port]`, null for opaque uris
    path: 'string', // path after the authority, as serialized
    name: 'string', // the link's name
    mimeType: 'string?', // declared mimeType, lower-case without parameters
    size: 'number?', // declared size in bytes
    addressClass: 'string?', // `public`, `loopback`, `private`, … for ip literals; null for names
    customScheme: 'boolean', // true for opaque custom schemes (guide:, demo:)
  },
  read: {
    server: 'string',
    readFrom: 'string',
    uri: 'string', // the link's uri
    resultType: 'string', // `complete` when absent (2025-11-25 servers)
    elapsedMs: 'number?', // time the read took, milliseconds
    itemCount: 'number', // contents items
    totalBytes: 'number', // decoded bytes of all items
    kinds: 'string[]', // real kind of each item (`png`, `text`, …)
    mimeTypes: 'string[]', // declared mimeType of each item, `` when absent
  },
  credential: {
    kind: 'string', // authorization, cookie, proxy-authorization, api-key-header, bearer-in-query
    from: 'string', // url the credential was issued for
    to: 'string', // url it would be sent to
    fromOrigin: 'string?',
    toOrigin: 'string?',
    hops: 'number', // redirect hops in `via`
    sameOrigin: 'boolean', // canonical origins of from and to are equal
  },
} as const satisfies Record<string, Record<string, FactType>>;

/** A rule stage. */
export type RuleStage = keyof typeof ruleFacts;

/** Facts handed to a rule: frozen, null-prototype, only the names of `ruleFacts[stage]`. */
export type RuleFacts = Readonly<Record<string, string | number | boolean | null | readonly string[]>>;

/** Freezes facts into a null-prototype object so json-logic cannot reach Object.prototype. */
export function freezeFacts(facts: Record<string, string | number | boolean | null | readonly string[]>): RuleFacts {
  const out = Object.create(null) as Record<string, string | number | boolean | null | readonly string[]>;
  for (const key of Object.keys(facts)) {
    const value = facts[key];
    if (value === undefined) continue;
    out[key] = Array.isArray(value) ? Object.freeze([...(value as readonly string[])]) : value;
  }
  return Object.freeze(out);
}
