import { describe, expect, test } from 'vitest';
import type { Decision, Reason } from '../../src/decision/decision.ts';
import type { FetchHop, FetchResult } from '../../src/fetch/fetch-result.ts';
import { fetchOutcome } from '../../src/flow/fetched-read.ts';
import { assembleRecord } from '../../src/record/assemble-record.ts';
import { receivedFromFetch, requestedFromFetch } from '../../src/fetch/fetch-stages.ts';
import type { LinkStages } from '../../src/record/link-record.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';

const policy = { id: 'fetch-loopback', version: '1.0.0', digest: `sha256:${'c'.repeat(64)}` };
const allow: Decision = { effect: 'allow', reasons: [], policy };
const reason = (code: string, rule: string): Reason => ({
  code: code as Reason['code'],
  rule,
  stage: 'read',
  message: `test \`${code}\``,
});
const deny = (code: string, rule: string): Decision => ({ effect: 'deny', reasons: [reason(code, rule)], policy });

const sent = (status: number | null): FetchHop => ({
  url: 'https://docs.example.com/a?t=',
  method: 'GET',
  status,
  decision: allow,
  address: '203.0.113.7',
  credentials: [],
});
const refusedHop: FetchHop = {
  url: 'http://127.0.0.1/admin',
  method: 'GET',
  status: null,
  decision: deny('uri.non-public-address', 'links.denyNonPublicAddresses'),
  address: null,
  credentials: [],
};

/** A fetch result with the given parts; no final response unless `status` is given. */
function result(parts: Partial<FetchResult>): FetchResult {
  return {
    transport: 'https-direct',
    decision: allow,
    ending: { kind: 'failed', why: 'no ending given' },
    hops: [],
    finalUrl: null,
    status: null,
    contentType: null,
    bytes: 0,
    truncated: false,
    elapsedMs: 5,
    evidence: [],
    ...parts,
  };
}

const final = (status: number) => ({ status, finalUrl: 'https://docs.example.com/a?t=' });
const checked = [
  {
    index: 0,
    carrier: 'blob' as const,
    bytes: 4,
    declaredMime: 'text/plain',
    kind: 'text',
    sha256: `sha256:${'d'.repeat(64)}`,
  },
];

describe("fetchOutcome (the fetcher's ending) and the verdict it leads to", () => {
  test.each([
    {
      name: 'a checked body',
      r: result({ ...final(200), hops: [sent(200)], evidence: checked, bytes: 4, ending: { kind: 'complete' } }),
      kind: 'complete',
      verdict: 'link-only',
    },
    {
      name: 'a hop refused by the link policy',
      r: result({ hops: [sent(302), refusedHop], decision: refusedHop.decision, ending: { kind: 'refused', hop: 2 } }),
      kind: 'refused',
      verdict: 'link-only',
    },
    {
      name: 'the first hop refused',
      r: result({ hops: [refusedHop], decision: refusedHop.decision, ending: { kind: 'refused', hop: 1 } }),
      kind: 'refused',
      verdict: 'link-only',
    },
    {
      name: 'too many redirects',
      r: result({
        hops: [sent(302), sent(302)],
        decision: deny('fetch.too-many-redirects', 'fetch.maxRedirects'),
        ending: { kind: 'refused', hop: 3 },
      }),
      kind: 'refused',
      verdict: 'link-only',
    },
    {
      name: 'the read deadline',
      r: result({
        ...final(200),
        hops: [sent(200)],
        bytes: 10,
        decision: deny('read.timeout', 'read.readTimeoutMs'),
        ending: { kind: 'timeout', deadlineMs: 3000 },
      }),
      kind: 'timeout',
      verdict: 'unverifiable',
    },
    {
      name: 'the connect deadline',
      r: result({
        hops: [sent(null)],
        decision: deny('read.timeout', 'fetch.connectTimeoutMs'),
        ending: { kind: 'timeout', deadlineMs: 1000 },
      }),
      kind: 'timeout',
      verdict: 'unverifiable',
    },
    {
      name: 'a connection failure',
      r: result({
        hops: [sent(null)],
        decision: deny('fetch.failed', 'fetch'),
        ending: { kind: 'failed', why: 'test `fetch.failed`' },
      }),
      kind: 'failed',
      verdict: 'unverifiable',
    },
    {
      name: 'an http error status',
      r: result({
        ...final(503),
        hops: [sent(503)],
        decision: deny('read.error', 'fetch'),
        ending: { kind: 'http-error', status: 503 },
      }),
      kind: 'http-error',
      verdict: 'unverifiable',
    },
    {
      name: 'a declared content-length over the cap',
      r: result({
        ...final(200),
        hops: [sent(200)],
        decision: deny('content.too-large', 'read.maxBytes'),
        ending: { kind: 'complete' },
      }),
      kind: 'complete',
      verdict: 'link-only',
    },
    {
      name: 'an engine error',
      r: result({
        hops: [refusedHop],
        decision: deny('engine.error', 'engine'),
        ending: { kind: 'failed', why: 'test `engine.error`' },
      }),
      kind: 'failed',
      verdict: 'unverifiable',
    },
  ])('$name → $kind → $verdict', ({ r, kind, verdict }) => {
    const outcome = fetchOutcome(r);
    expect(outcome.kind).toBe(kind);
    // nothing delivered in any of these rows: the verdict follows from the outcome and the decision alone
    const stages: LinkStages = {
      discovered: {
        at: '2026-01-01T00:00:00.000Z',
        tool: 't',
        responseId: 1,
        contentIndex: 0,
        contentType: 'resource_link',
        uri: 'https://docs.example.com/a?t=',
        mimeType: null,
        size: null,
        server: 'docs',
        protocolVersion: null,
        client: null,
        serverInfo: null,
      },
      requested: requestedFromFetch(r, 'docs', 3000, new Date(0)),
      received: receivedFromFetch(r, new Date(0)),
      delivered: null,
    };
    const decision =
      kind === 'complete' && r.decision.effect === 'allow' ? deny('content.executable', 'content') : r.decision;
    const record = assembleRecord({ stages, decisions: { link: allow, read: decision }, outcome, enforced: true });
    expect(record.verdict).toBe(verdict);
    expect(recordViolations(record)).toEqual([]);
  });

  test('the connect deadline is named in the timeout, the read deadline otherwise', () => {
    const connect = { kind: 'timeout', deadlineMs: 1000 } as const;
    const read = { kind: 'timeout', deadlineMs: 3000 } as const;
    expect(fetchOutcome(result({ decision: deny('read.timeout', 'fetch.connectTimeoutMs'), ending: connect }))).toEqual(
      {
        kind: 'timeout',
        deadlineMs: 1000,
      },
    );
    expect(fetchOutcome(result({ decision: deny('read.timeout', 'read.readTimeoutMs'), ending: read }))).toEqual({
      kind: 'timeout',
      deadlineMs: 3000,
    });
  });

  test('an abort by the tool result budget is a failure that says so', () => {
    const outcome = fetchOutcome(
      result({
        hops: [sent(null)],
        decision: deny('fetch.failed', 'fetch'),
        ending: { kind: 'failed', why: 'aborted' },
      }),
      AbortSignal.abort(),
    );
    expect(outcome).toEqual({ kind: 'failed', why: "the tool result's time budget ran out" });
  });

  test('hops are numbered from 1: a refusal after two sent hops is hop 3', () => {
    expect(
      fetchOutcome(
        result({
          hops: [sent(302), sent(302), refusedHop],
          decision: refusedHop.decision,
          ending: { kind: 'refused', hop: 3 },
        }),
      ),
    ).toEqual({ kind: 'refused', hop: 3 });
  });
});
