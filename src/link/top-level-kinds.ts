/** What a top-level label is, as bits: one lookup per name instead of one per list (`classifyHostName`). */
export const topLevelBits = {
  /** an internal top-level domain (`internalTopLevelDomains`) */
  internal: 1,
  /** the top-level domain of a wildcard-DNS service (`wildcardDnsTopLevelDomains`) */
  wildcard: 2,
  /** delegated in the root zone, reserved for resolution, or an IDN label: left to resolution */
  delegated: 4,
  /** `localhost` (RFC 6761) */
  localhost: 8,
} as const;
