import type { PolicyDocument } from './policy-schema.ts';

/**
 * What an unverified policy contributes besides the deny: its identity (`id`, `version`, `description`, shown in
 * records and messages) and the `review` block its signatures were checked against. Every other setting of the file
 * is dropped, so a loosened, unsigned file switches nothing off (not `hook.webFetch`, not a cap, not a timeout).
 */
export const unverifiedKeptFields = ['id', 'version', 'description', 'review'] as const;

/** Deadline of one read under an unverified policy, milliseconds (no read is ever allowed: every decision denies). */
export const lockedReadTimeoutMs = 10_000;

/**
 * The document a policy whose review did not verify (or has expired) is held to: the identity and review of
 * `document`, every setting at its strictest (no scheme, no server, no content type, no direct fetch, the host's web
 * fetch judged, discovery required, one byte, no rules), so whatever a front end reads from it fails closed.
 */
export function lockedDocument(document: Readonly<PolicyDocument>): PolicyDocument {
  return {
    id: document.id,
    version: document.version,
    ...(document.description === undefined ? {} : { description: document.description }),
    review: { ...document.review, reviewers: [...document.review.reviewers] },
    links: {
      schemes: [],
      customSchemes: 'deny',
      origins: [],
      servers: [],
      requireSameServer: true,
      denyNonPublicAddresses: true,
      internalNames: [],
      resolveNames: false,
      allowNonPublicOrigins: [],
      maxDeclaredBytes: 1,
      denyDeclaredTypes: true,
    },
    credentials: { forward: 'never', apiKeyHeaders: [] },
    read: {
      readTimeoutMs: lockedReadTimeoutMs,
      maxBytes: 1,
      maxItemBytes: 1,
      maxItems: 1,
      overCap: 'deny',
      allowTaskResults: false,
      answerInputRequired: false,
    },
    content: { allow: [], maxImagePixels: 1, flagInvisibleText: true },
    fetch: { enabled: false, schemes: ['https'], maxRedirects: 0, connectTimeoutMs: 1, overCap: 'deny' },
    hook: { requireDiscovered: true, webFetch: true },
    rules: [],
  };
}
