import { createRequire } from 'node:module';
import type * as ZodMini from 'zod/mini';
import type * as ZodCore from 'zod/v4/core';
import type EnglishLocale from 'zod/v4/locales/en.js';

// The input schemas use zod's mini build: the same core, checks and issues as the policy schema's classic zod. They
// are built on first use, from zod's CommonJS build loaded with `require` (synchronous, so `decideLink` stays
// synchronous): the hand-written checks in inputs.ts accept every plain input without them, so a hook event or an
// eval line that never meets a bad input loads no zod at all (issue 42 item 1). Mini leaves messages to the locale;
// English, as classic zod sets it, unless the process chose another one.
const load = createRequire(import.meta.url);

/** Credential kinds the gate knows. */
export const credentialKinds = [
  'authorization',
  'cookie',
  'proxy-authorization',
  'api-key-header',
  'bearer-in-query',
] as const;

function buildSchemas(z: typeof ZodMini) {
  /** A `resource_link` content item as a tool result carries it (`ResourceLink`); unknown members are kept and ignored. */
  const resourceLink = z.looseObject({
    type: z.literal('resource_link'),
    uri: z.string(),
    name: z.string(),
    title: z.optional(z.string()),
    description: z.optional(z.string()),
    mimeType: z.optional(z.string()),
    /** declared size in bytes, as the server claims it */
    size: z.optional(z.number()),
  });
  return {
    resourceLink,
    /** A link-stage line (DESIGN §4). */
    link: z.strictObject({
      stage: z.literal('link'),
      server: z.optional(z.string().check(z.minLength(1))),
      readFrom: z.optional(z.string().check(z.minLength(1))),
      link: resourceLink,
      /** whether the front end saw the link returned (tool result, resource list) earlier in the session; absent: not known, not checked */
      discovered: z.optional(z.boolean()),
    }),
    /** A read-stage line (DESIGN §4); `result` is checked item by item by the read decision, not here. */
    read: z.strictObject({
      stage: z.literal('read'),
      server: z.optional(z.string().check(z.minLength(1))),
      readFrom: z.optional(z.string().check(z.minLength(1))),
      link: resourceLink,
      /** how long the read took, milliseconds */
      elapsedMs: z.optional(z.number().check(z.gte(0))),
      result: z.record(z.string(), z.unknown()),
    }),
    /** A credential-stage line (DESIGN §4). */
    credential: z.strictObject({
      stage: z.literal('credential'),
      kind: z.enum(credentialKinds),
      from: z.string(),
      to: z.string(),
      via: z.optional(z.array(z.string())),
    }),
    /** A JSON-RPC error as a read may end with. */
    rpcError: z.looseObject({
      code: z.number().check(z.int()),
      message: z.string(),
      data: z.optional(z.unknown()),
    }),
  };
}

/** The gate's input schemas (zod mini), by stage. */
export type InputSchemas = ReturnType<typeof buildSchemas>;

let built: InputSchemas | undefined;

/** The gate's input schemas, built on first use (the first call loads zod's mini build). */
export function inputSchemas(): InputSchemas {
  if (built !== undefined) return built;
  const z = load('zod/mini') as typeof ZodMini;
  const core = load('zod/v4/core') as typeof ZodCore;
  if (core.globalConfig.localeError === undefined) z.config((load('zod/v4/locales/en.cjs') as typeof EnglishLocale)());
  built = buildSchemas(z);
  return built;
}

/** A link-stage input. */
export type LinkInput = ZodMini.infer<InputSchemas['link']>;
/** A read-stage input. */
export type ReadInput = ZodMini.infer<InputSchemas['read']>;
/** A credential-stage input. */
export type CredentialInput = ZodMini.infer<InputSchemas['credential']>;

/** The result of checking one input: the typed input, or a one-line message naming the field. */
export type ParsedInput<T> = { ok: true; input: T } | { ok: false; field: string; message: string };

/** Validates a value against one stage's schema; the message names the first offending field. */
export function parseWith<T>(schema: ZodMini.ZodMiniType<T>, value: unknown): ParsedInput<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, input: parsed.data };
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String) ?? [];
  const field = path.length > 0 ? path.join('.') : '(line)';
  const what = issue === undefined ? 'invalid input' : describeIssue(issue);
  return { ok: false, field, message: `field \`${field}\`: ${what}` };
}

function describeIssue(issue: ZodCore.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown key ${issue.keys.map((k) => `\`${k}\``).join(', ')}`;
  return issue.message.toLowerCase().replace(/\.$/, '');
}
