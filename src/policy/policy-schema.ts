import { z } from 'zod';
import { consumerIds, defaultConsumerIds } from '../content/consumers/content-consumer.ts';

/** A limit: a finite whole number ≥ 1 (units are in the field's name). */
const limit = (unit: string, description: string) =>
  z
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .meta({ description: `${description} (${unit}, whole number ≥ 1)` });

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date `YYYY-MM-DD`');

/** Lower-case URI scheme without the colon (`https`, `guide`). */
const schemeName = z.string().regex(/^[a-z][a-z0-9+.-]*$/, 'expected a lower-case scheme name without `:`');

/** The security review that approved this policy version. */
export const reviewSchema = z
  .strictObject({
    reviewers: z.array(z.string().min(1)).min(1).meta({ description: 'who reviewed this version' }),
    date: isoDate.meta({ description: 'when the review was approved (YYYY-MM-DD)' }),
    ticket: z.string().min(1).meta({ description: 'the review ticket or change request' }),
    expires: isoDate.meta({ description: 'when the review must be renewed (YYYY-MM-DD)' }),
  })
  .meta({ title: 'review', description: 'the security review that approved this version' });

/** Pre-read settings: which links may be read at all. */
export const linksSchema = z
  .strictObject({
    schemes: z.array(schemeName).meta({
      description:
        'network schemes a link may use (allow-list), e.g. https, http; never data, javascript, vbscript or livescript (the policy does not load); file only reads through the server that returned the link',
    }),
    customSchemes: z.enum(['allow', 'deny']).meta({
      description:
        'opaque custom schemes (guide:, demo:) that only the returning server can resolve; known local or smuggling schemes are never custom',
    }),
    origins: z.array(z.string().min(1)).optional().meta({
      description:
        'origin allow-list: `scheme://host[:port]`, host may start with `*.`; absent means any origin that passes the address rules',
    }),
    servers: z
      .array(z.string().min(1))
      .optional()
      .meta({ description: 'server ids whose links may be read; absent means any server' }),
    requireSameServer: z.boolean().meta({ description: 'a link must be read from the server that returned it' }),
    denyNonPublicAddresses: z.boolean().meta({
      description: 'deny loopback, private, link-local, metadata and other non-global destinations however encoded',
    }),
    internalNames: z
      .array(z.string().min(1))
      .optional()
      .meta({ description: 'host names the policy marks internal: exact names or `*.suffix`' }),
    resolveNames: z.boolean().optional().meta({
      description:
        'resolve host names through the gate resolver and require every answer to be public; a name other readers take differently (the UTS #46 transitional `fass.de` for `faß.de`) is resolved too, and a non-public answer for it denies (one that does not resolve reaches nothing)',
    }),
    allowNonPublicOrigins: z.array(z.string().min(1)).optional().meta({
      description:
        'exact origins `scheme://host:port` exempt from the address rules (a test host on loopback); never patterns',
    }),
    maxDeclaredBytes: limit('bytes', 'largest size a link may declare'),
    denyDeclaredTypes: z.boolean().optional().meta({
      description: 'deny before reading when the declared mimeType names a type the content rules do not allow',
    }),
  })
  .meta({ title: 'links', description: 'pre-read settings' });

/** Credential forwarding settings. */
export const credentialsSchema = z
  .strictObject({
    forward: z.enum(['same-origin', 'never']).meta({
      description: 'where a credential may be attached: only its own origin, or nowhere after the first request',
    }),
    apiKeyHeaders: z
      .array(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'expected an http header name'))
      .optional()
      .meta({
        description: 'header names that carry credentials besides Authorization, Cookie and Proxy-Authorization',
      }),
  })
  .meta({ title: 'credentials', description: 'credential forwarding settings' });

/** Read-result settings: deadline, caps and result types. */
export const readSchema = z
  .strictObject({
    readTimeoutMs: limit('milliseconds', 'deadline for one resources/read'),
    maxBytes: limit('bytes', 'decoded bytes allowed per read, all items together'),
    maxItemBytes: limit('bytes', 'decoded bytes allowed per contents item').optional(),
    maxItems: limit('items', 'contents items allowed per read'),
    overCap: z.enum(['deny', 'partial']).optional().meta({
      description:
        'what happens when items go over the byte caps: deny the read, or drop the items over the cap (partial)',
    }),
    allowTaskResults: z
      .boolean()
      .optional()
      .meta({ description: 'accept `task` results where the host supports tasks' }),
    answerInputRequired: z.boolean().optional().meta({
      description:
        'let the host answer elicitation or sampling for a link read; off means input_required ends the read',
    }),
  })
  .meta({ title: 'read', description: 'read-result settings' });

/** Content settings: which real types may reach the model. */
export const contentSchema = z
  .strictObject({
    allow: z
      .array(z.string().regex(/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/, 'expected a lower-case mime type'))
      .meta({ description: 'mime types whose real content may be delivered (allow-list); see the kinds table' }),
    maxImagePixels: limit('pixels', 'largest image by its header (width × height)').optional(),
    flagInvisibleText: z.boolean().optional().meta({
      description:
        'text holding bidi controls or zero-width characters is partial, like terminal escapes (absent: allowed)',
    }),
    consumers: z
      .array(z.enum(consumerIds))
      .min(1)
      .refine((ids) => new Set(ids).size === ids.length, 'expected each consumer once')
      .optional()
      .meta({
        description: `the consumers the policy protects: a body is judged for every one of them that would read it, and for no other (docs/policy-reference.md, "Consumers the content rules protect"). Absent: ${defaultConsumerIds.map((id) => `\`${id}\``).join(', ')}; \`mdx\` and \`vitepress\` are opt-in; \`terminal\` is in every profile unless \`excludeConsumers\` names it`,
        default: [...defaultConsumerIds],
      }),
    excludeConsumers: z
      .array(z.enum(consumerIds))
      .min(1)
      .refine((ids) => new Set(ids).size === ids.length, 'expected each consumer once')
      .optional()
      .meta({
        description:
          'consumers left out of the profile by name: the one way to leave out `terminal`, which every profile holds otherwise (a host that never prints a body to a terminal); a consumer may not be both named in `consumers` and excluded',
      }),
  })
  .superRefine((content, ctx) => {
    const named = new Set(content.consumers ?? []);
    content.excludeConsumers?.forEach((id, i) => {
      if (named.has(id))
        ctx.addIssue({
          code: 'custom',
          path: ['excludeConsumers', i],
          message: `\`${id}\` is named in \`consumers\` and excluded: say one`,
        });
    });
  })
  .meta({ title: 'content', description: 'content settings' });

/** Direct fetch settings: when the host may dereference `https` links itself instead of `resources/read`. */
export const fetchSchema = z
  .strictObject({
    enabled: z.boolean().meta({ description: 'let the host fetch allowed http(s) links directly' }),
    schemes: z
      .array(z.enum(['https', 'http']))
      .optional()
      .meta({ description: 'schemes the fetcher may use (default https only); http also needs links.schemes' }),
    maxRedirects: z
      .number()
      .int()
      .min(0)
      .max(20)
      .meta({ description: 'redirect hops followed, each re-decided (hops, 0 to 20)' }),
    connectTimeoutMs: limit('milliseconds', 'deadline for resolving and connecting one hop').optional(),
    overCap: z
      .enum(['deny', 'partial'])
      .optional()
      .meta({ description: 'a body over read.maxBytes is cut and kept (partial) or denied' }),
  })
  .meta({ title: 'fetch', description: 'direct fetch settings' });

/** Host hook settings (`linkgate hook`): which of the host's own tools the gate judges. */
export const hookSchema = z
  .strictObject({
    requireDiscovered: z.boolean().optional().meta({
      description:
        'a uri the host reads must have been returned by a tool or listed as a resource earlier in the session',
    }),
    webFetch: z.boolean().optional().meta({
      description: "judge the urls of the host's own web fetch tool by the link rules (absent: on)",
    }),
  })
  .meta({ title: 'hook', description: 'host hook settings' });

/** A custom json-logic rule; it can only tighten a decision. */
export const ruleSchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, 'expected a kebab-case rule id')
      .meta({ description: 'kebab-case id, unique in the policy; the reason code is `rule.<id>`' }),
    stage: z.enum(['link', 'read', 'credential']).meta({ description: 'which facts the rule reads' }),
    effect: z.enum(['deny', 'partial']).meta({ description: 'the effect when `when` is truthy' }),
    message: z.string().min(1).meta({ description: 'one lowercase line shown with the reason' }),
    when: z.unknown().meta({ description: 'a json-logic expression over the stage facts' }),
  })
  .meta({ title: 'rule', description: 'a custom json-logic rule' });

/** The whole policy file: the single source of truth for `schemas/policy.schema.json`. */
export const policySchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, 'expected a kebab-case policy id')
      .meta({ description: 'kebab-case policy id, shown in every decision' }),
    version: z
      .string()
      .regex(/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/, 'expected a semantic version')
      .meta({ description: 'semantic version of this policy, shown in every decision' }),
    description: z.string().optional().meta({ description: 'what the policy is for, in a sentence or two' }),
    review: reviewSchema,
    links: linksSchema,
    credentials: credentialsSchema,
    read: readSchema,
    content: contentSchema,
    fetch: fetchSchema.optional(),
    hook: hookSchema.optional(),
    rules: z
      .array(ruleSchema)
      .optional()
      .meta({ description: 'custom json-logic rules, run in order; they can only tighten a decision' }),
  })
  .meta({ title: 'linkgate policy', description: 'a linkgate policy file' });

/** A policy as written in its file, after validation. */
export type PolicyDocument = z.infer<typeof policySchema>;
/** A custom rule as written in a policy. */
export type RuleDocument = z.infer<typeof ruleSchema>;
