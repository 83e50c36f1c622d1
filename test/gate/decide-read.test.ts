import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { decideEmbedded, decideReadDetailed, type ReadVerdict } from '../../src/gate/decide-read.ts';
import type { Decision } from '../../src/decision/decision.ts';
import type { ReadInput } from '../../src/gate/inputs.ts';
import { reasonCodes } from '../../src/decision/reason-codes.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { buildPolicy, type Policy } from '../../src/policy/policy.ts';
import type { PolicyDocument } from '../../src/policy/policy-schema.ts';
import * as make from '../fixtures/make-bytes.ts';
import { hasShared } from '../helpers/shared-dir.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const shared = path.resolve(repoRoot, '../shared');
const base = await loadPolicy(path.join(repoRoot, 'policies/default.yaml'));

function policyWith(patch: (doc: PolicyDocument) => void): Policy {
  const doc = structuredClone(base.document) as PolicyDocument;
  patch(doc);
  return buildPolicy(doc, '<inline>');
}

const LINK = 'guide://manuals/packing';
type Item = Record<string, unknown>;
const blob = (bytes: Buffer, mimeType?: string, uri = LINK): Item => ({
  uri,
  blob: bytes.toString('base64'),
  ...(mimeType === undefined ? {} : { mimeType }),
});
const text = (body: string, mimeType?: string, uri = LINK): Item => ({
  uri,
  text: body,
  ...(mimeType === undefined ? {} : { mimeType }),
});
function line(result: Record<string, unknown>, extra: Partial<ReadInput> = {}): ReadInput {
  return { stage: 'read', link: { type: 'resource_link', uri: LINK, name: 'packing' }, result, ...extra };
}
const read = (contents: unknown, extra: Partial<ReadInput> = {}): ReadInput =>
  line({ resultType: 'complete', contents }, extra);
const decide = (input: ReadInput, policy: Policy = base): Promise<ReadVerdict> => decideReadDetailed(policy, input);
const codes = (d: Decision): string[] => d.reasons.map((r) => r.code);

function expectWellFormed(d: Decision): void {
  if (d.effect !== 'allow') expect(d.reasons.length).toBeGreaterThan(0);
  for (const r of d.reasons) {
    expect(r.code.startsWith('rule.') || (reasonCodes as readonly string[]).includes(r.code)).toBe(true);
    expect(r.message).toBe(r.message.trim());
    expect(r.message).not.toMatch(/\n|\.$/);
  }
  expect(d.policy).toEqual(base.ref);
}

describe('read envelope', () => {
  test.each([
    [-32602, /`-32602` \(invalid params\)/],
    [-32002, /`-32002` \(resource not found \(legacy code\)\)/],
    [-32601, /`-32601` \(method not found\)/],
    [-32603, /`-32603` \(internal error\)/],
    [-1, /`-1`$/],
  ])('a json-rpc error %i is read.error with its code', async (code, message) => {
    const { decision } = await decide(line({ error: { code, message: 'server text' } }));
    expect(decision.effect).toBe('deny');
    expect(codes(decision)).toEqual(['read.error']);
    expect(decision.reasons[0]?.message).toMatch(message);
    expect(decision.items).toEqual([]);
    expectWellFormed(decision);
  });

  test('a -32602 naming the uri in `data` is resource not found (MCP 2026-07-28)', async () => {
    const { decision } = await decide(line({ error: { code: -32602, message: 'x', data: { uri: 'era://gone' } } }));
    expect(codes(decision)).toEqual(['read.error']);
    expect(decision.reasons[0]?.message).toMatch(/`-32602` \(resource not found\)/);
  });

  test.each([
    ['input_required is never final', { resultType: 'input_required', requestState: 'abc' }, 'read.input-required'],
    ['an unknown result type', { resultType: 'streaming', contents: [] }, 'read.result-type-unknown'],
    ['task without allowTaskResults', { resultType: 'task', task: { taskId: 't1' } }, 'read.result-type-unknown'],
    ['no contents', { resultType: 'complete' }, 'content.shape'],
    ['contents not an array', { resultType: 'complete', contents: { uri: LINK, text: 'x' } }, 'content.shape'],
    ['empty contents', { resultType: 'complete', contents: [] }, 'read.empty'],
  ])('%s', async (_, result, code) => {
    const { decision } = await decide(line(result));
    expect(decision.effect).toBe('deny');
    expect(codes(decision)).toEqual([code]);
    expectWellFormed(decision);
  });

  test('a missing resultType is treated as complete (2025-11-25 servers)', async () => {
    const { decision } = await decide(line({ contents: [text('hello', 'text/plain')] }));
    expect(decision.effect).toBe('allow');
  });

  test('a task result is accepted when the policy enables tasks', async () => {
    const tasks = policyWith((d) => {
      d.read.allowTaskResults = true;
    });
    const pending = await decide(line({ resultType: 'task', task: { taskId: 't1', status: 'working' } }), tasks);
    expect(pending.decision).toMatchObject({ effect: 'allow', reasons: [], items: [] });
    const withBody = await decide(line({ resultType: 'task', contents: [blob(make.makeElf(), 'image/png')] }), tasks);
    expect(withBody.decision.effect).toBe('deny');
    expect(codes(withBody.decision)).toContain('content.executable');
  });

  test('a read past its deadline is read.timeout', async () => {
    const { decision } = await decide(read([text('hi', 'text/plain')], { elapsedMs: 10_001 }));
    expect(codes(decision)).toEqual(['read.timeout']);
    expect(decision.items?.map((i) => i.effect)).toEqual(['deny']);
    expect((await decide(read([text('hi', 'text/plain')], { elapsedMs: 10_000 }))).decision.effect).toBe('allow');
  });

  test.each([
    ['another server', { server: 'docs', readFrom: 'other' }, 'deny'],
    ['the default server on one side', { server: 'docs', readFrom: 'default' }, 'deny'],
    // DESIGN §4: a read line without `readFrom` was read from `server`, as at the link stage
    ['no readFrom: read from the server that returned the link', { server: 'docs' }, 'allow'],
    ['the same server', { server: 'docs', readFrom: 'docs' }, 'allow'],
    ['both defaults', {}, 'allow'],
  ])('server.mismatch: %s', async (_, servers, effect) => {
    const { decision } = await decide(read([text('hi', 'text/plain')], servers));
    expect(decision.effect).toBe(effect);
    if (effect === 'deny') expect(codes(decision)).toEqual(['server.mismatch']);
  });

  test('server.mismatch is off when the policy does not require the same server', async () => {
    const loose = policyWith((d) => {
      d.links.requireSameServer = false;
    });
    expect(
      (await decide(read([text('hi', 'text/plain')], { server: 'a', readFrom: 'b' }), loose)).decision.effect,
    ).toBe('allow');
  });
});

describe('items', () => {
  test('one entry per contents item, with evidence but never the body', async () => {
    const png = make.makePng();
    const body = 'secret body text that must not leak';
    const { decision, evidence } = await decide(
      read([text(body, 'text/plain'), blob(png, 'image/png', `${LINK}/cover`)]),
    );
    expect(decision).toMatchObject({
      effect: 'allow',
      reasons: [],
      items: [
        { index: 0, effect: 'allow', reasons: [] },
        { index: 1, effect: 'allow', reasons: [] },
      ],
    });
    expect(evidence).toEqual([
      {
        index: 0,
        carrier: 'text',
        bytes: Buffer.byteLength(body),
        declaredMime: 'text/plain',
        kind: 'text',
        sha256: `sha256:${sha256(Buffer.from(body))}`,
      },
      {
        index: 1,
        carrier: 'blob',
        bytes: png.length,
        declaredMime: 'image/png',
        kind: 'png',
        sha256: `sha256:${sha256(png)}`,
      },
    ]);
    expect(JSON.stringify({ decision, evidence })).not.toContain('secret body');
  });

  test.each([
    ['an item that is not an object', ['just a string']],
    ['both text and blob', [{ uri: LINK, text: 'a', blob: 'YQ==' }]],
    ['neither text nor blob', [{ uri: LINK, mimeType: 'text/plain' }]],
    ['a blob outside the base64 alphabet', [{ uri: LINK, blob: 'aGVs!G8=' }]],
    ['a url-safe blob', [{ uri: LINK, blob: 'a-_h' }]],
    ['a blob with an impossible length', [{ uri: LINK, blob: 'aGVsbG8' }]],
    ['a blob with line breaks', [{ uri: LINK, blob: 'aGVs\nbG8=' }]],
  ])('content.shape: %s', async (_, contents) => {
    const { decision, evidence } = await decide(read(contents));
    expect(decision.effect).toBe('deny');
    expect(codes(decision)).toEqual(['content.shape']);
    expect(decision.items?.[0]?.reasons.map((r) => r.code)).toEqual(['content.shape']);
    expect(evidence[0]?.sha256).toBeNull();
  });

  test.each([
    ['a sibling', `${LINK}-list`],
    ['another host', 'guide://other/packing'],
    ['dot segments out of the link', `${LINK}/../secrets`],
  ])('read.uri-mismatch: %s', async (_, uri) => {
    const { decision } = await decide(read([text('hi', 'text/plain', uri)]));
    expect(decision.effect).toBe('deny');
    expect(codes(decision)).toEqual(['read.uri-mismatch']);
  });

  test('content.too-many-items is checked before any item is decoded', async () => {
    const contents = Array.from({ length: 65 }, () => text('x', 'text/plain'));
    const { decision, evidence } = await decide(read(contents));
    expect(codes(decision)).toEqual(['content.too-many-items']);
    expect(decision.items).toHaveLength(65);
    expect(evidence.every((e) => e.sha256 === null)).toBe(true);
  });

  test('an item without its own mimeType inherits the link declaration', async () => {
    const input = read([blob(make.makePng())]);
    input.link.mimeType = 'image/jpeg';
    const { decision, evidence } = await decide(input);
    expect(codes(decision)).toEqual(['content.mime-mismatch']);
    expect(evidence[0]?.declaredMime).toBe('image/jpeg');
  });
});

describe('byte caps', () => {
  const capped = (overCap: 'deny' | 'partial', maxItemBytes?: number): Policy =>
    policyWith((d) => {
      d.read.maxBytes = 1000;
      d.read.overCap = overCap;
      if (maxItemBytes !== undefined) d.read.maxItemBytes = maxItemBytes;
    });

  test.each([
    ['deny', 'deny'],
    ['partial', 'partial'],
  ] as const)('total over read.maxBytes with overCap %s', async (overCap, effect) => {
    const { decision, evidence } = await decide(
      read([
        text('a'.repeat(600), 'text/plain'),
        text('b'.repeat(600), 'text/plain'),
        text('c'.repeat(300), 'text/plain'),
      ]),
      capped(overCap),
    );
    expect(decision.effect).toBe(effect);
    expect(codes(decision)).toEqual(['content.too-large']);
    expect(decision.reasons[0]?.rule).toBe('read.maxBytes');
    expect(decision.items?.map((i) => i.effect)).toEqual(['allow', 'deny', 'allow']);
    expect(evidence.map((e) => e.sha256 === null)).toEqual([false, true, false]);
  });

  test('per-item read.maxItemBytes', async () => {
    const { decision } = await decide(
      read([blob(make.seededBytes(300), 'image/png'), text('ok', 'text/plain')]),
      capped('partial', 200),
    );
    expect(decision.effect).toBe('partial');
    expect(decision.reasons[0]).toMatchObject({ code: 'content.too-large', rule: 'read.maxItemBytes' });
    expect(decision.items?.map((i) => i.effect)).toEqual(['deny', 'allow']);
  });

  test('a read whose every item is dropped is denied: nothing is left to deliver', async () => {
    const { decision } = await decide(read([text('a'.repeat(2000), 'text/plain')]), capped('partial'));
    expect(decision.effect).toBe('deny');
    expect(codes(decision)).toEqual(['content.too-large']);
  });

  test('dropping an over-cap item never hides a deny elsewhere', async () => {
    const { decision } = await decide(
      read([text('a'.repeat(2000), 'text/plain'), blob(make.makeElf(), 'image/png')]),
      capped('partial'),
    );
    expect(decision.effect).toBe('deny');
  });

  describe('over-cap blobs are never decoded', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    test.each([
      ['11 MiB', 11],
      ['64 MiB', 64],
    ])('a %s blob over the cap is decided without decoding it', async (_, mib) => {
      const gate = createGate(base);
      const b64 = 'A'.repeat(Math.ceil((mib * 1024 * 1024) / 3) * 4);
      const from = vi.spyOn(Buffer, 'from');
      const d = await gate.decideRead(read([{ uri: LINK, mimeType: 'image/png', blob: b64 }]));
      expect(d.effect).toBe('deny');
      expect(codes(d)).toEqual(['content.too-large']);
      // no base64 decoding at all: the cost cannot grow with the blob (figures in `npm run bench`)
      expect(from.mock.calls.some((call) => (call as unknown[])[1] === 'base64')).toBe(false);
    });
  });
});

describe('content reasons through the read', () => {
  test.each([
    ['png', blob(make.makePng(), 'image/png'), 'allow', []],
    ['apng declared png', blob(make.makePng({ apng: true }), 'image/png'), 'allow', []],
    ['jpeg', blob(make.makeJpeg(), 'image/jpeg'), 'allow', []],
    ['gif', blob(make.makeGif(), 'image/gif'), 'allow', []],
    ['webp', blob(make.makeWebp(), 'image/webp'), 'allow', []],
    ['bmp', blob(make.makeBmp(), 'image/bmp'), 'allow', []],
    ['avif', blob(make.makeAvif(), 'image/avif'), 'allow', []],
    ['clean pdf', blob(make.makePdf(), 'application/pdf'), 'allow', []],
    ['clean svg', text('<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>', 'image/svg+xml'), 'allow', []],
    ['markdown', text('# notes\n\n- a\n', 'text/markdown'), 'allow', []],
    ['json with markup in a string', text('{"c":"<script>x</script>"}', 'application/json'), 'allow', []],
    ['text as a blob', blob(Buffer.from('plain words'), 'text/plain'), 'allow', []],
    ['no declared type, png', blob(make.makePng()), 'allow', []],
    [
      'content.type-not-allowed (declared)',
      blob(make.makeZip([{ name: 'a', data: 'b' }]), 'application/zip'),
      'deny',
      ['content.type-not-allowed'],
    ],
    ['content.type-not-allowed (no declared type)', blob(make.makeGzip()), 'deny', ['content.type-not-allowed']],
    ['content.mime-mismatch', blob(make.makePng(), 'image/jpeg'), 'deny', ['content.mime-mismatch']],
    [
      'content.executable (pe declared png)',
      blob(make.makePe(), 'image/png'),
      'deny',
      ['content.executable', 'content.mime-mismatch'],
    ],
    [
      'content.executable (pdf javascript)',
      blob(make.makePdf({ activeName: 'JavaScript', escapeName: true }), 'application/pdf'),
      'deny',
      ['content.executable'],
    ],
    [
      'content.executable (svg handler)',
      text('<svg onload="alert(1)"/>', 'image/svg+xml'),
      'deny',
      ['content.executable'],
    ],
    [
      'content.executable (shebang under text/plain)',
      text('#!/bin/sh\necho hi\n', 'text/plain'),
      'deny',
      ['content.executable', 'content.mime-mismatch'],
    ],
    [
      'content.executable (polyglot)',
      blob(Buffer.concat([make.makePng(), make.makeJar()]), 'image/png'),
      'deny',
      ['content.executable'],
    ],
    ['content.unsafe-text (escapes)', text('ok \u001b[2J cleared', 'text/plain'), 'partial', ['content.unsafe-text']],
    [
      'content.unsafe-text (utf-16 without bom)',
      blob(make.utf16('hello there friend', { bom: false }), 'text/plain'),
      'partial',
      ['content.unsafe-text'],
    ],
    [
      // latin-1 is text; read as UTF-8 (text/plain names no charset), E2 80 AE is a right-to-left override
      'content.unsafe-text (latin-1 bytes spelling a bidi override in utf-8)',
      blob(
        Buffer.concat([
          Buffer.from('caf\xe9 cr\xe8me ', 'latin1'),
          Buffer.from([0xe2, 0x80, 0xae]),
          Buffer.from('txt.exe'),
        ]),
        'text/plain',
      ),
      'partial',
      ['content.unsafe-text'],
    ],
    [
      'content.uninterpretable (random under png)',
      blob(make.seededBytes(512), 'image/png'),
      'partial',
      ['content.uninterpretable'],
    ],
    [
      'content.uninterpretable (truncated png)',
      blob(make.makePng({ omitEnd: true }), 'image/png'),
      'partial',
      ['content.uninterpretable'],
    ],
    ['content.uninterpretable (empty png)', blob(Buffer.alloc(0), 'image/png'), 'partial', ['content.uninterpretable']],
    [
      'content.image-too-large',
      blob(make.makePng({ claimWidth: 10_000, claimHeight: 6_000 }), 'image/png'),
      'deny',
      ['content.image-too-large'],
    ],
  ])('%s', async (_, item, effect, expected) => {
    const { decision } = await decide(read([item]));
    expect(decision.effect).toBe(effect);
    expect(codes(decision)).toEqual(expected);
    expect(decision.items?.[0]?.effect).toBe(effect);
    for (const r of decision.reasons) expect(r.message).toMatch(/^item 0: /);
    expectWellFormed(decision);
  });

  test('deny beats partial beats allow across items', async () => {
    const ok = text('fine', 'text/plain');
    const partial = text('bell\u0007', 'text/plain');
    const deny = blob(make.makeElf(), 'text/plain');
    expect((await decide(read([ok, partial]))).decision.effect).toBe('partial');
    expect((await decide(read([ok, partial, deny]))).decision.effect).toBe('deny');
    expect((await decide(read([ok, ok]))).decision.effect).toBe('allow');
  });
});

describe('read-stage custom rules', () => {
  const ruled = policyWith((d) => {
    d.rules = [
      {
        id: 'no-big-reads',
        stage: 'read',
        effect: 'partial',
        message: 'reads over 100 bytes are trimmed',
        when: { '>': [{ var: 'totalBytes' }, 100] },
      },
      {
        id: 'no-gif',
        stage: 'read',
        effect: 'deny',
        message: 'gif is not wanted here',
        when: { in: ['gif', { var: 'kinds' }] },
      },
      {
        id: 'docs-only',
        stage: 'read',
        effect: 'deny',
        message: 'only the docs server',
        when: { '!=': [{ var: 'readFrom' }, 'default'] },
      },
    ];
  });

  test.each([
    ['no rule fires', [text('short', 'text/plain')], {}, 'allow', []],
    ['a partial rule on facts', [text('x'.repeat(200), 'text/plain')], {}, 'partial', ['rule.no-big-reads']],
    ['a deny rule on real kinds', [blob(make.makeGif(), 'image/gif')], {}, 'deny', ['rule.no-gif']],
    [
      'a deny rule on the server facts',
      [text('a', 'text/plain')],
      { server: 'x', readFrom: 'x' },
      'deny',
      ['rule.docs-only'],
    ],
  ])('%s', async (_, contents, servers, effect, expected) => {
    const { decision } = await decide(read(contents, servers), ruled);
    expect(decision.effect).toBe(effect);
    expect(codes(decision)).toEqual(expected);
    for (const r of decision.reasons)
      expect(r).toMatchObject({ stage: 'read', rule: expect.stringMatching(/^rules\./) });
  });
});

describe('evidence', () => {
  test('is the same whether read once or many times, and can be replaced', async () => {
    const verdict = await decide(read([blob(make.makePng(), 'image/png')]));
    const first = verdict.evidence;
    expect(verdict.evidence).toBe(first);
    expect(first[0]).toMatchObject({ kind: 'png', sha256: `sha256:${sha256(make.makePng())}` });
    verdict.evidence = [];
    expect(verdict.evidence).toEqual([]);
  });

  test('survives a spread and JSON, as records use it', async () => {
    const verdict = await decide(read([text('hello', 'text/plain')]));
    expect({ ...verdict }.evidence).toHaveLength(1);
    expect(JSON.parse(JSON.stringify(verdict)).evidence[0].sha256).toBe(`sha256:${sha256(Buffer.from('hello'))}`);
  });
});

describe('decideEmbedded', () => {
  test.each([
    [
      'a wrapped text resource',
      { type: 'resource', resource: { uri: 'x://a', mimeType: 'text/plain', text: 'hello' } },
      'allow',
      [],
    ],
    [
      'a bare blob resource',
      { uri: 'x://a', mimeType: 'image/png', blob: make.makePng().toString('base64') },
      'allow',
      [],
    ],
    [
      'an executable resource',
      { type: 'resource', resource: { uri: 'x://a', mimeType: 'image/png', blob: make.makePe().toString('base64') } },
      'deny',
      ['content.executable', 'content.mime-mismatch'],
    ],
    [
      'a malformed resource',
      { type: 'resource', resource: { uri: 'x://a', text: 'a', blob: 'YQ==' } },
      'deny',
      ['content.shape'],
    ],
    [
      'unsafe text',
      { uri: 'x://a', mimeType: 'text/plain', text: '\u001b]8;;http://x\u0007' },
      'partial',
      ['content.unsafe-text'],
    ],
  ])('%s', async (_, resource, effect, expected) => {
    const { decision, evidence } = await decideEmbedded(base, resource);
    expect(decision.effect).toBe(effect);
    expect(codes(decision)).toEqual(expected);
    expect(decision.items).toHaveLength(1);
    expect(evidence).toHaveLength(1);
  });

  test('caps apply to embedded resources too', async () => {
    const small = policyWith((d) => {
      d.read.maxBytes = 10;
    });
    const { decision } = await decideEmbedded(small, { uri: 'x://a', mimeType: 'text/plain', text: 'x'.repeat(11) });
    expect(codes(decision)).toEqual(['content.too-large']);
  });
});

describe('properties', () => {
  const itemLike = fc.oneof(
    fc.anything(),
    fc.record(
      { uri: fc.oneof(fc.constant(LINK), fc.constant(`${LINK}/a`), fc.string()), text: fc.string() },
      { requiredKeys: [] },
    ),
    fc.record(
      {
        uri: fc.constant(LINK),
        blob: fc.oneof(fc.base64String(), fc.string()),
        mimeType: fc.constantFrom('image/png', 'text/plain', 'application/pdf', 'application/zip', 'x'),
      },
      { requiredKeys: ['uri'] },
    ),
    fc.uint8Array({ maxLength: 256 }).map((b) => blob(Buffer.from(b), 'image/png')),
    fc.constantFrom(
      blob(make.makePng(), 'image/png'),
      text('fine', 'text/plain'),
      blob(make.makeJar(), 'image/png'),
      text('\u001b[1m', 'text/plain'),
    ),
  );

  test('decideRead never throws on arbitrary contents and never allows when an item fails', async () => {
    const gate = createGate(base);
    await fc.assert(
      fc.asyncProperty(fc.array(itemLike, { maxLength: 6 }), async (contents) => {
        const d = await gate.decideRead(read(contents));
        expect(['allow', 'deny', 'partial']).toContain(d.effect);
        expectWellFormed(d);
        if (contents.length > 0) expect(d.items).toHaveLength(contents.length);
        if (d.items?.some((i) => i.effect !== 'allow') === true) expect(d.effect).not.toBe('allow');
        if (d.items?.some((i) => i.effect === 'deny') === true) expect(d.effect).not.toBe('allow');
      }),
      { numRuns: 300 },
    );
  });

  test('decideRead never throws on arbitrary result records', async () => {
    const gate = createGate(base);
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom('resultType', 'contents', 'error', 'task', '__proto__', 'x'), fc.anything()),
        async (result) => {
          const d = await gate.decideRead(line(result));
          expect(['allow', 'deny', 'partial']).toContain(d.effect);
          if (d.effect === 'allow')
            expect(Array.isArray(result['contents']) || result['resultType'] === 'task').toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe.skipIf(!hasShared('fixtures/mcp'))('recorded MCP responses', () => {
  const recorded = (name: string): { result?: Record<string, unknown>; error?: unknown } =>
    JSON.parse(readFileSync(path.join(shared, 'fixtures/mcp', name), 'utf8'));
  test.each([
    ['everything-read-text.json', 'demo://resource/dynamic/text/2', 'allow', []],
    ['everything-read-blob.json', 'demo://resource/dynamic/blob/1', 'allow', []],
    ['everything-read-blob-gzip.json', 'demo://resource/session/hello.txt.gz', 'deny', ['content.type-not-allowed']],
    ['everything-read-not-found.json', 'demo://resource/does-not-exist', 'deny', ['read.error']],
  ])('%s', async (file, uri, effect, expected) => {
    const response = recorded(file);
    const result = response.result ?? { error: response.error };
    const { decision } = await decide({ stage: 'read', link: { type: 'resource_link', uri, name: 'x' }, result });
    expect(decision.effect).toBe(effect);
    expect(codes(decision)).toEqual(expected);
  });
});

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
