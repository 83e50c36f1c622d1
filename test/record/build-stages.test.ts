import { describe, expect, test } from 'vitest';
import { flowContext } from '../flow/flow-context.ts';
import {
  deliverableIndices,
  discoveredOf,
  maskText,
  receivedFromError,
  receivedFromResult,
} from '../../src/record/build-stages.ts';
import { deny } from './record-fixtures.ts';

const policy = deny().policy;
const at = new Date('2026-01-01T00:00:00Z');

describe('receivedFromResult', () => {
  test('keeps counts, sizes and hashes, never body text, requestState or input request text', () => {
    const stage = receivedFromResult(
      {
        resultType: 'input_required',
        requestState: 'c2VjcmV0',
        inputRequests: { a: { method: 'elicitation/create', params: { message: 'your password?' } } },
      },
      [],
      5,
      at,
    );
    expect(stage).toMatchObject({ resultType: 'input_required', inputRequests: ['elicitation/create'], itemCount: 0 });
    expect(JSON.stringify(stage)).not.toMatch(/c2VjcmV0|password/);
  });

  test.each([
    { name: 'text', item: { uri: 'g://a', text: 'héllo' }, carrier: 'text', bytes: 6 },
    { name: 'blob', item: { uri: 'g://a', blob: 'AAECAw==' }, carrier: 'blob', bytes: 4 },
    { name: 'blob one pad', item: { uri: 'g://a', blob: 'AAECAwQ=' }, carrier: 'blob', bytes: 5 },
    { name: 'both', item: { uri: 'g://a', text: 'a', blob: 'AA==' }, carrier: 'none', bytes: 1 },
    { name: 'neither', item: { uri: 'g://a' }, carrier: 'none', bytes: 0 },
  ])('without evidence, the shape alone gives carrier and size ($name)', ({ item, carrier, bytes }) => {
    const stage = receivedFromResult({ contents: [item] }, [], 1, at);
    expect(stage.items[0]).toMatchObject({ carrier, bytes, kind: null, sha256: null });
    expect(JSON.stringify(stage)).not.toContain('héllo');
  });
});

describe('receivedFromError and maskText', () => {
  test.each([
    { message: 'resource https://u:p4ss@h.example/x?token=abc not found', not: ['p4ss', 'abc'] },
    { message: 'multi\nline\n\terror', not: ['\n'] },
    { message: `long ${'x'.repeat(500)}`, not: ['x'.repeat(201)] },
  ])('masks uris and cuts `$message`', ({ message, not }) => {
    const stage = receivedFromError({ code: -32002, message }, 3, at);
    for (const s of not) expect(stage.error?.message).not.toContain(s);
    expect(maskText(message).length).toBeLessThanOrEqual(200);
  });
});

describe('deliverableIndices', () => {
  test.each([
    { effect: 'allow', items: undefined, deliver: [0, 1, 2] },
    { effect: 'deny', items: undefined, deliver: [] },
    {
      effect: 'partial',
      items: [
        { index: 0, effect: 'allow' },
        { index: 1, effect: 'deny' },
        { index: 2, effect: 'partial' },
      ],
      deliver: [0],
    },
    { effect: 'partial', items: [{ index: 1, effect: 'allow' }], deliver: [1] },
    { effect: 'partial', items: undefined, deliver: [] },
  ] as const)('$effect with items $items → deliver $deliver', ({ effect, items, deliver }) => {
    const decision = {
      effect,
      reasons: deny().reasons,
      policy,
      ...(items === undefined ? {} : { items: items.map((i) => ({ ...i, reasons: [] })) }),
    };
    const out = deliverableIndices(decision, 3);
    expect(out.deliver).toEqual(deliver);
    expect(out.dropped.map((d) => d.index)).toEqual([0, 1, 2].filter((i) => !deliver.includes(i as never)));
  });
});

describe('discoveredOf', () => {
  // a record is written as JSON.stringify writes it: its members' order is part of the bytes
  const context = { ...flowContext, serverInfo: { name: 'docs-server', version: '2' } };
  const head =
    '{"at":"2026-01-01T00:00:00.000Z","tool":"find","responseId":7,"contentIndex":3,"contentType":"resource_link",' +
    '"uri":"https://h.example/a?token=","mimeType":"text/plain","size":12,"server":"docs","protocolVersion":"2025-11-25",' +
    '"client":{"name":"host","version":"1"},"serverInfo":{"name":"docs-server","version":"2"}';

  test('writes its members in the order records have, `frontEnd` last when the context names one', () => {
    const plain = discoveredOf('https://u:p@h.example/a?token=abc', 'text/plain', 12, 3, context, at);
    expect(JSON.stringify(plain)).toBe(`${head}}`);
    const proxied = discoveredOf(
      'https://h.example/a?token=abc',
      'text/plain',
      12,
      3,
      { ...context, frontEnd: 'proxy' },
      at,
    );
    expect(JSON.stringify(proxied)).toBe(`${head},"frontEnd":"proxy"}`);
  });

  test('a link found outside a tool result, with no declared facts, has nulls in the same places', () => {
    const stage = discoveredOf('demo://doc/1', undefined, undefined, null, { ...context, client: null }, at);
    expect(Object.keys(stage)).toEqual([
      'at',
      'tool',
      'responseId',
      'contentIndex',
      'contentType',
      'uri',
      'mimeType',
      'size',
      'server',
      'protocolVersion',
      'client',
      'serverInfo',
    ]);
    expect(stage).toMatchObject({ contentIndex: null, contentType: null, mimeType: null, size: null, client: null });
  });
});
