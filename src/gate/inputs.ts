import { isPlainRecord } from '../decision/json-value.ts';
import { isResourceLink } from '../link/resource-link.ts';
import {
  type CredentialInput,
  inputSchemas,
  type LinkInput,
  type ParsedInput,
  parseWith,
  type ReadInput,
} from './input-schemas.ts';

// The hand-written checks below accept every plain input of the right shape without zod; only an input they do not
// accept goes through the zod schemas (input-schemas.ts), which are loaded on that first use.

export { credentialKinds, inputSchemas, parseWith } from './input-schemas.ts';
export type { CredentialInput, LinkInput, ParsedInput, ReadInput } from './input-schemas.ts';

/** Any eval line, after validation. */
export type GateInput = LinkInput | ReadInput | CredentialInput;

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
  return parseCredentialInput(value);
}

/**
 * Validates a link-stage line like `parseWith(inputSchemas().link, value)`: a hand-written check accepts plain
 * JSON data of the right shape without zod (the per-link hot path) and returns the value itself; anything
 * else (a bad field, an unusual prototype) goes through zod, so messages and accepted inputs never differ.
 */
export function parseLinkInput(value: unknown): ParsedInput<LinkInput> {
  return isPlainLinkInput(value) ? { ok: true, input: value } : parseWith(inputSchemas().link, value);
}

/** Validates a read-stage line like `parseWith(inputSchemas().read, value)`, with the same hand-written fast path as `parseLinkInput`. */
export function parseReadInput(value: unknown): ParsedInput<ReadInput> {
  return isPlainReadInput(value) ? { ok: true, input: value } : parseWith(inputSchemas().read, value);
}

/** Validates a credential-stage line (always through zod: credentials are not a per-link hot path). */
export function parseCredentialInput(value: unknown): ParsedInput<CredentialInput> {
  return parseWith(inputSchemas().credential, value);
}

/**
 * True only for values `linkInputSchema` accepts, as plain JSON data (own data members, plain prototype); false means
 * "ask zod" (`parseLinkInput`). Nothing is copied: the value is the input. A caller's accessor that changes a field
 * after this check can only make the decision throw, which the gate turns into a deny (`engine.error`).
 */
export function isPlainLinkInput(value: unknown): value is LinkInput {
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
  return hasStage && hasLink && isResourceLink(value['link']);
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
  if (!hasStage || !hasLink || !hasResult || !isResourceLink(value['link'])) return false;
  const result = value['result'];
  if (!isPlainRecord(result)) return false;
  for (const key in result) if (key === '__proto__') return false;
  return true;
}
