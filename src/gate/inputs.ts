import * as z from 'zod/mini';
import { type $ZodIssue, globalConfig } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';
import { isPlainRecord } from '../decision/json-value.ts';
import { checkResourceLink } from '../link/resource-link.ts';

// The input schemas use zod's mini build: the same core, checks and issues as the policy schema's classic zod, but
// a hook event or an eval line that never meets a bad input loads ~25 KB of it instead of ~190 KB (issue 15). Mini
// leaves messages to the locale; English, as classic zod sets it, unless the process chose another one.
if (globalConfig.localeError === undefined) z.config(en());

/** A `resource_link` content item as a tool result carries it (`ResourceLink`); unknown members are kept and ignored. */
export const resourceLinkSchema = z.looseObject({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  title: z.optional(z.string()),
  description: z.optional(z.string()),
  mimeType: z.optional(z.string()),
  /** declared size in bytes, as the server claims it */
  size: z.optional(z.number()),
});

/** A link-stage line (DESIGN §4). */
export const linkInputSchema = z.strictObject({
  stage: z.literal('link'),
  server: z.optional(z.string().check(z.minLength(1))),
  readFrom: z.optional(z.string().check(z.minLength(1))),
  link: resourceLinkSchema,
  /** whether the front end saw the link returned (tool result, resource list) earlier in the session; absent: not known, not checked */
  discovered: z.optional(z.boolean()),
});

/** A JSON-RPC error as a read may end with. */
export const rpcErrorSchema = z.looseObject({
  code: z.number().check(z.int()),
  message: z.string(),
  data: z.optional(z.unknown()),
});

/** A read-stage line (DESIGN §4); `result` is checked item by item by the read decision, not here. */
export const readInputSchema = z.strictObject({
  stage: z.literal('read'),
  server: z.optional(z.string().check(z.minLength(1))),
  readFrom: z.optional(z.string().check(z.minLength(1))),
  link: resourceLinkSchema,
  /** how long the read took, milliseconds */
  elapsedMs: z.optional(z.number().check(z.gte(0))),
  result: z.record(z.string(), z.unknown()),
});

/** Credential kinds the gate knows. */
export const credentialKinds = [
  'authorization',
  'cookie',
  'proxy-authorization',
  'api-key-header',
  'bearer-in-query',
] as const;

/** A credential-stage line (DESIGN §4). */
export const credentialInputSchema = z.strictObject({
  stage: z.literal('credential'),
  kind: z.enum(credentialKinds),
  from: z.string(),
  to: z.string(),
  via: z.optional(z.array(z.string())),
});

/** A link-stage input. */
export type LinkInput = z.infer<typeof linkInputSchema>;
/** A read-stage input. */
export type ReadInput = z.infer<typeof readInputSchema>;
/** A credential-stage input. */
export type CredentialInput = z.infer<typeof credentialInputSchema>;
/** Any eval line, after validation. */
export type GateInput = LinkInput | ReadInput | CredentialInput;

/** The result of checking one input: the typed input, or a one-line message naming the field. */
export type ParsedInput<T> = { ok: true; input: T } | { ok: false; field: string; message: string };

/** Validates any eval line value (already JSON-parsed) by its `stage`. */
export function parseInput(value: unknown): ParsedInput<GateInput> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, field: '(line)', message: 'expected a json object' };
  }
  const stage = (value as { stage?: unknown }).stage;
  if (stage !== 'link' && stage !== 'read' && stage !== 'credential') {
    return { ok: false, field: 'stage', message: 'field `stage` must be `link`, `read` or `credential`' };
  }
  if (stage === 'link') return parseLinkInput(value);
  if (stage === 'read') return parseReadInput(value);
  return parseWith(credentialInputSchema, value);
}

/**
 * Validates a link-stage line like `parseWith(linkInputSchema, value)`: a hand-written check accepts plain
 * JSON data of the right shape without zod (the per-link hot path) and returns the value itself; anything
 * else (a bad field, an unusual prototype) goes through zod, so messages and accepted inputs never differ.
 */
export function parseLinkInput(value: unknown): ParsedInput<LinkInput> {
  return isPlainLinkInput(value) ? { ok: true, input: value } : parseWith(linkInputSchema, value);
}

/** Validates a read-stage line like `parseWith(readInputSchema, value)`, with the same hand-written fast path as `parseLinkInput`. */
export function parseReadInput(value: unknown): ParsedInput<ReadInput> {
  return isPlainReadInput(value) ? { ok: true, input: value } : parseWith(readInputSchema, value);
}

/** Validates a value against one stage's schema; the message names the first offending field. */
export function parseWith<T>(schema: z.ZodMiniType<T>, value: unknown): ParsedInput<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, input: parsed.data };
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String) ?? [];
  const field = path.length > 0 ? path.join('.') : '(line)';
  const what = issue === undefined ? 'invalid input' : describeIssue(issue);
  return { ok: false, field, message: `field \`${field}\`: ${what}` };
}

function describeIssue(issue: $ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown key ${issue.keys.map((k) => `\`${k}\``).join(', ')}`;
  return issue.message.toLowerCase().replace(/\.$/, '');
}

// True only for values `linkInputSchema` accepts, as plain JSON data (own data members, plain prototype);
// false means "ask zod". Nothing is copied: the value is the input. A caller's accessor that changes a field
// after this check can only make the decision throw, which the gate turns into a deny (`engine.error`).
function isPlainLinkInput(value: unknown): value is LinkInput {
  if (!isPlainRecord(value)) return false;
  let hasStage = false;
  let hasLink = false;
  // for…in, like zod's unknown-key check, also sees inherited enumerable keys
  for (const key in value) {
    if (key === 'stage') {
      if (value[key] !== 'link') return false;
      hasStage = true;
    } else if (key === 'server' || key === 'readFrom') {
      const id = value[key];
      if (typeof id !== 'string' || id.length === 0) return false;
    } else if (key === 'link') hasLink = true;
    else if (key === 'discovered') {
      if (typeof value[key] !== 'boolean') return false;
    } else return false;
  }
  return hasStage && hasLink && checkResourceLink(value['link']).ok;
}

// True only for values `readInputSchema` accepts, as plain JSON data; `result` is an untrusted record that the
// read decision checks member by member, so here it only has to be a plain object
function isPlainReadInput(value: unknown): value is ReadInput {
  if (!isPlainRecord(value)) return false;
  let hasStage = false;
  let hasLink = false;
  let hasResult = false;
  for (const key in value) {
    if (key === 'stage') {
      if (value[key] !== 'read') return false;
      hasStage = true;
    } else if (key === 'server' || key === 'readFrom') {
      const id = value[key];
      if (typeof id !== 'string' || id.length === 0) return false;
    } else if (key === 'elapsedMs') {
      const ms = value[key];
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return false;
    } else if (key === 'link') hasLink = true;
    else if (key === 'result') hasResult = true;
    else return false;
  }
  if (!hasStage || !hasLink || !hasResult || !checkResourceLink(value['link']).ok) return false;
  const result = value['result'];
  if (!isPlainRecord(result)) return false;
  for (const key in result) if (key === '__proto__') return false;
  return true;
}
