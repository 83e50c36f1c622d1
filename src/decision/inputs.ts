import { z } from 'zod';

/** A `resource_link` content item as a tool result carries it; unknown members are kept and ignored. */
export const resourceLinkSchema = z.looseObject({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  /** declared size in bytes, as the server claims it */
  size: z.number().optional(),
});

/** A link-stage line (DESIGN §4). */
export const linkInputSchema = z.strictObject({
  stage: z.literal('link'),
  server: z.string().min(1).optional(),
  readFrom: z.string().min(1).optional(),
  link: resourceLinkSchema,
});

/** A JSON-RPC error as a read may end with. */
export const rpcErrorSchema = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});

/** A read-stage line (DESIGN §4); `result` is checked item by item by the read decision, not here. */
export const readInputSchema = z.strictObject({
  stage: z.literal('read'),
  server: z.string().min(1).optional(),
  readFrom: z.string().min(1).optional(),
  link: resourceLinkSchema,
  /** how long the read took, milliseconds */
  elapsedMs: z.number().min(0).optional(),
  result: z.record(z.string(), z.unknown()),
});

/** Credential kinds the gate knows. */
export const credentialKinds = ['authorization', 'cookie', 'proxy-authorization', 'api-key-header', 'bearer-in-query'] as const;

/** A credential-stage line (DESIGN §4). */
export const credentialInputSchema = z.strictObject({
  stage: z.literal('credential'),
  kind: z.enum(credentialKinds),
  from: z.string(),
  to: z.string(),
  via: z.array(z.string()).optional(),
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
  if (stage === 'link') return parseWith(linkInputSchema, value);
  if (stage === 'read') return parseWith(readInputSchema, value);
  return parseWith(credentialInputSchema, value);
}

/** Validates a value against one stage's schema; the message names the first offending field. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown): ParsedInput<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, input: parsed.data };
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String) ?? [];
  const field = path.length > 0 ? path.join('.') : '(line)';
  const what = issue === undefined ? 'invalid input' : describeIssue(issue);
  return { ok: false, field, message: `field \`${field}\`: ${what}` };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown key ${issue.keys.map((k) => `\`${k}\``).join(', ')}`;
  return issue.message.toLowerCase().replace(/\.$/, '');
}
