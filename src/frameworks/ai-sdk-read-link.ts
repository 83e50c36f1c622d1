// The Vercel AI SDK's gated read tool (`ai` 6 and 7): a tool is a plain object (`tool()` only types it), so this is the
// whole tool, over `GatedLinks`. Its input schema is a Standard Schema with its JSON schema (what `inputSchema` takes
// besides zod and `jsonSchema()`), written structurally so linkgate builds and installs without the framework.
import { type GatedLinks, readLinkDescription, readLinkParameters } from './gated-links.ts';

export { type GatedLinks, type GatedLinksOptions, gatedLinks } from './gated-links.ts';

/** The read tool's input as the model sends it. */
export interface ReadLinkInput {
  uri: string;
}

/** One issue of a failed validation (Standard Schema v1). */
export interface ReadLinkIssue {
  readonly message: string;
}

/** The read tool's input schema: a Standard Schema v1 (`~standard`) with its JSON schema converter. */
export interface ReadLinkInputSchema {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'linkgate';
    readonly validate: (value: unknown) => { readonly value: ReadLinkInput } | { readonly issues: ReadLinkIssue[] };
    readonly types?: { readonly input: unknown; readonly output: ReadLinkInput } | undefined;
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
      readonly output: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}

/** The AI SDK tool that reads a link a tool returned, through the gate (put it in `tools`, e.g. as `read_link`). */
export interface AiSdkReadLinkTool {
  description: string;
  inputSchema: ReadLinkInputSchema;
  /** the body as text, or the gate's notice; never rejects */
  execute: (input: ReadLinkInput) => Promise<string>;
}

/** The read tool's input schema: `{ uri: string }`, nothing else. */
export const readLinkInputSchema: ReadLinkInputSchema = {
  '~standard': {
    version: 1,
    vendor: 'linkgate',
    validate(value) {
      const keys = typeof value === 'object' && value !== null ? Object.keys(value) : [];
      const uri = keys.length === 1 ? (value as Record<string, unknown>)['uri'] : undefined;
      return typeof uri === 'string' ? { value: { uri } } : { issues: [{ message: 'expected `{ uri: string }`' }] };
    },
    jsonSchema: {
      input: () => structuredClone(readLinkParameters) as unknown as Record<string, unknown>,
      output: () => structuredClone(readLinkParameters) as unknown as Record<string, unknown>,
    },
  },
};

/**
 * The model's way to read a link it was given, for `generateText`/`streamText` (`tools: { ...(await mcp.tools()),
 * read_link: aiSdkReadLinkTool(links) }`): reads only a uri a tool result of `links`' connections passed on, through the
 * gate, answering the body or the gate's notice.
 */
export function aiSdkReadLinkTool(links: GatedLinks, description: string = readLinkDescription): AiSdkReadLinkTool {
  return { description, inputSchema: readLinkInputSchema, execute: ({ uri }) => links.read(uri) };
}
