// The tool call a flow test's links come from: server `docs`, tool `find`, one client and server identity.
import type { LinkContext } from '../../src/record/build-stages.ts';

/** A link's context for flow tests (the `discovered` stage's call). */
export const flowContext: LinkContext = {
  server: 'docs',
  tool: 'find',
  responseId: 7,
  protocolVersion: '2025-11-25',
  client: { name: 'host', version: '1' },
  serverInfo: { name: 'srv', version: '2' },
};
