import { describe, expect, test } from 'vitest';
import type { Decision } from '../../src/decision/decision.ts';
import type { FetchResult } from '../../src/fetch/fetch-result.ts';
import { receivedFromFetch, requestedFromFetch } from '../../src/fetch/fetch-stages.ts';

const policy = { id: 'p', version: '1.0.0', digest: `sha256:${'e'.repeat(64)}` };
const allow: Decision = { effect: 'allow', reasons: [], policy };
const crossOrigin: Decision['reasons'][number] = {
  code: 'credential.cross-origin',
  rule: 'credentials.forward',
  stage: 'credential',
  message: 'header `authorization` is not re-attached',
};

const fetched = (parts: Partial<FetchResult> = {}): FetchResult => ({
  transport: 'https-direct',
  decision: allow,
  ending: { kind: 'complete' },
  hops: [
    {
      url: 'https://a.example.com/start?code=',
      method: 'POST',
      status: 303,
      decision: allow,
      address: '203.0.113.1',
      credentials: [{ header: 'authorization', kind: 'authorization', attached: true, reasons: [] }],
    },
    {
      url: 'https://b.example.net/done',
      method: 'GET',
      status: 200,
      decision: allow,
      address: '203.0.113.2',
      credentials: [
        { header: 'authorization', kind: 'authorization', attached: false, reasons: [crossOrigin, crossOrigin] },
      ],
    },
  ],
  finalUrl: 'https://b.example.net/done',
  status: 200,
  contentType: 'image/png',
  bytes: 68,
  truncated: false,
  elapsedMs: 12,
  evidence: [
    {
      index: 0,
      carrier: 'blob',
      bytes: 68,
      declaredMime: 'image/png',
      kind: 'png',
      sha256: `sha256:${'f'.repeat(64)}`,
    },
  ],
  ...parts,
});

describe('requestedFromFetch', () => {
  test('names the transport and every hop; credentials by header name, fate and codes only', () => {
    const requested = requestedFromFetch(fetched(), 'docs', 3000, new Date('2026-01-01T00:00:00Z'));
    expect(requested).toEqual({
      at: '2026-01-01T00:00:00.000Z',
      requestId: null,
      server: 'docs',
      deadlineMs: 3000,
      transport: 'https-direct',
      hops: [
        {
          url: 'https://a.example.com/start?code=',
          method: 'POST',
          status: 303,
          effect: 'allow',
          codes: [],
          address: '203.0.113.1',
          credentials: [{ header: 'authorization', kind: 'authorization', attached: true, codes: [] }],
        },
        {
          url: 'https://b.example.net/done',
          method: 'GET',
          status: 200,
          effect: 'allow',
          codes: [],
          address: '203.0.113.2',
          credentials: [
            { header: 'authorization', kind: 'authorization', attached: false, codes: ['credential.cross-origin'] },
          ],
        },
      ],
    });
    // the reason messages stay in the decisions; the stage keeps codes
    expect(JSON.stringify(requested)).not.toContain('re-attached');
  });

  test('a refused hop keeps its effect and codes', () => {
    const refused: Decision = {
      effect: 'deny',
      reasons: [{ code: 'fetch.downgrade', rule: 'fetch.schemes', stage: 'link', message: 'x' }],
      policy,
    };
    const requested = requestedFromFetch(
      fetched({
        hops: [
          {
            url: 'http://a.example.com/',
            method: 'GET',
            status: null,
            decision: refused,
            address: null,
            credentials: [],
          },
        ],
      }),
      'docs',
      3000,
      new Date(0),
    );
    expect(requested.hops).toEqual([
      {
        url: 'http://a.example.com/',
        method: 'GET',
        status: null,
        effect: 'deny',
        codes: ['fetch.downgrade'],
        address: null,
        credentials: [],
      },
    ]);
  });
});

describe('receivedFromFetch', () => {
  test('a checked body: final url, status, bytes, truncation and the item evidence', () => {
    expect(receivedFromFetch(fetched({ truncated: true }), new Date(0))).toMatchObject({
      resultType: 'complete',
      error: null,
      itemCount: 1,
      textItems: 0,
      blobItems: 1,
      bytes: 68,
      items: [{ index: 0, carrier: 'blob', bytes: 68, declaredMime: 'image/png', kind: 'png' }],
      finalUrl: 'https://b.example.net/done',
      httpStatus: 200,
      truncated: true,
      elapsedMs: 12,
      ttlMs: null,
      cache: null,
    });
  });

  test.each([
    { name: 'no final response', parts: { status: null, finalUrl: null, evidence: [], bytes: 0 }, expected: null },
    {
      name: 'a response head and part of a body, unchecked',
      parts: { evidence: [], bytes: 1000 },
      expected: { resultType: null, itemCount: 0, bytes: 1000, httpStatus: 200 },
    },
    {
      name: 'an error status',
      parts: { status: 404, evidence: [], bytes: 0 },
      expected: { resultType: null, itemCount: 0, bytes: 0, httpStatus: 404 },
    },
  ])('$name', ({ parts, expected }) => {
    const received = receivedFromFetch(fetched(parts), new Date(0));
    if (expected === null) expect(received).toBeNull();
    else expect(received).toMatchObject(expected);
  });
});
