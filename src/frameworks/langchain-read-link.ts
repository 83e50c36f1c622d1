// LangChain.js's gated read tool: the fields of a `DynamicStructuredTool` (`@langchain/core/tools`) over `GatedLinks`,
// with the JSON schema LangChain takes besides zod. `new DynamicStructuredTool(langchainReadLinkTool(links))` is the
// tool; written structurally, so linkgate builds and installs without the framework.
import { type GatedLinks, type ReadLinkParameters, readLinkDescription, readLinkParameters } from './gated-links.ts';

export { type GatedLinks, type GatedLinksOptions, gatedLinks } from './gated-links.ts';

/** The fields of LangChain's `DynamicStructuredTool` for the read tool. */
export interface LangchainReadLinkFields {
  name: string;
  description: string;
  schema: ReadLinkParameters;
  /** the body as text, or the gate's notice; never rejects (typed loosely: LangChain infers the input from the schema) */
  func: (input: { readonly uri?: unknown }) => Promise<string>;
}

/**
 * The model's way to read a link it was given, for a LangChain agent (`new DynamicStructuredTool(langchainReadLinkTool(links))`
 * beside the tools `loadMcpTools` made over clients connected through `links.transport(…)`): reads only a uri a tool
 * result of those connections passed on, through the gate, answering the body or the gate's notice.
 */
export function langchainReadLinkTool(links: GatedLinks, name = 'read_link'): LangchainReadLinkFields {
  return {
    name,
    description: readLinkDescription,
    schema: structuredClone(readLinkParameters),
    func: ({ uri }) => links.read(typeof uri === 'string' ? uri : ''),
  };
}
