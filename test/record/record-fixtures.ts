import type { Decision } from '../../src/decision/decision.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';

const policy = { id: 'default', version: '1.0.0', digest: `sha256:${'a'.repeat(64)}` };
const allow: Decision = { effect: 'allow', reasons: [], policy };

/** A valid body-obtained record with one text item; tests derive broken variants from it. */
export function obtainedRecord(): LinkRecord {
  return {
    uri: 'guide://manuals/packing',
    verdict: 'body-obtained',
    next: null,
    stages: {
      discovered: {
        at: '2026-01-01T00:00:00.000Z',
        tool: 'find',
        responseId: 2,
        contentIndex: 1,
        contentType: 'resource_link',
        uri: 'guide://manuals/packing',
        mimeType: 'text/plain',
        size: null,
        server: 'docs',
        protocolVersion: '2025-11-25',
        client: null,
        serverInfo: null,
      },
      requested: {
        at: '2026-01-01T00:00:00.001Z',
        requestId: 3,
        server: 'docs',
        deadlineMs: 10000,
        transport: 'resources/read',
      },
      received: {
        at: '2026-01-01T00:00:00.010Z',
        elapsedMs: 9,
        resultType: 'complete',
        error: null,
        inputRequests: null,
        itemCount: 1,
        textItems: 1,
        blobItems: 0,
        bytes: 12,
        items: [
          {
            index: 0,
            carrier: 'text',
            bytes: 12,
            declaredMime: 'text/plain',
            kind: 'text',
            sha256: `sha256:${'b'.repeat(64)}`,
          },
        ],
        ttlMs: null,
        cacheScope: null,
        cache: null,
      },
      delivered: { at: '2026-01-01T00:00:00.011Z', items: [0], bytes: 12, characters: 12, dropped: [] },
    },
    decisions: { link: allow, read: { ...allow, items: [{ index: 0, effect: 'allow', reasons: [] }] } },
  };
}

/** A deny decision with one reason. */
export function deny(code = 'uri.scheme-not-allowed'): Decision {
  return {
    effect: 'deny',
    reasons: [
      {
        code: code as Decision['reasons'][number]['code'],
        rule: 'links.schemes',
        stage: 'link',
        message: 'scheme `file` is not allowed',
      },
    ],
    policy,
  };
}
