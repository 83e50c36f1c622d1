// The answers of structured-server.ts's tools: ordinary results with `structuredContent`, and one holding a refused
// link only there.

/** The marker of each tool's text, what a test looks for in what reached the model. */
export const structuredMarkers = {
  plain: 'STRUCTURED-PLAIN-7f3a',
  allowed: 'STRUCTURED-ALLOWED-19c2',
  refused: 'STRUCTURED-REFUSED-c04e',
} as const;

/** An address the default policy refuses (cloud metadata), held only in `structuredContent` of `refused`. */
export const refusedAddress = 'http://169.254.169.254/latest/meta-data/iam/';

/** An address the default policy allows (a custom scheme only its server resolves). */
export const allowedAddress = 'guide://manuals/packing.md';

const summary = (marker: string) => ({ type: 'text' as const, text: JSON.stringify({ summary: marker }) });

/** Each tool's answer. */
export const structuredAnswers = {
  plain: {
    content: [summary(structuredMarkers.plain)],
    structuredContent: { summary: structuredMarkers.plain },
  },
  allowed: {
    content: [
      summary(structuredMarkers.allowed),
      { type: 'resource_link', uri: allowedAddress, name: 'packing', mimeType: 'text/markdown' },
    ],
    structuredContent: {
      summary: structuredMarkers.allowed,
      next: { type: 'resource_link', uri: allowedAddress, name: 'packing', mimeType: 'text/markdown' },
    },
  },
  refused: {
    content: [summary(structuredMarkers.refused)],
    structuredContent: {
      summary: structuredMarkers.refused,
      next: { type: 'resource_link', uri: refusedAddress, name: 'credentials' },
    },
  },
} as const;
