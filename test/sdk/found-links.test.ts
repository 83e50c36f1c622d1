// The decorator's link ledger (`FoundLinks`): every listing kept in order up to `maxRememberedLinks`, a read for its
// uri's newest listing, the oldest unread listings pushed out as more come. Its ring and its map indexed only when a
// uri is looked up are checked against a plain model of that rule on random runs of listings, reads, body links and
// closes.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type FoundLink, FoundLinks } from '../../src/sdk/found-links.ts';
import { maxRememberedLinks } from '../../src/sdk/requests-in-flight.ts';

type Op =
  | { kind: 'result'; uris: number[] }
  | { kind: 'messages'; uris: number[] }
  | { kind: 'read'; uri: number }
  | { kind: 'body'; uri: number }
  | { kind: 'close' };

const link = (u: number) => ({ type: 'resource_link', uri: `guide://h/${u}`, name: `n${u}` });
const at = new Date(0);

// the rule, kept the plain way: every listing in an array, the newest of a uri found by a search from the end
class Model {
  listed: FoundLink[] = [];
  add(f: FoundLink, evicted: FoundLink[]): void {
    this.listed.push(f);
    if (this.listed.length > maxRememberedLinks) {
      const out = this.listed.shift() as FoundLink;
      if (!out.read) evicted.push(out);
    }
  }
  newest(uri: string): FoundLink | undefined {
    return this.listed.findLast((f) => (f.link as { uri: string }).uri === uri);
  }
}

// what a found link is, for comparing the ledger's with the model's
const shape = (f: FoundLink) => [(f.link as { uri: string }).uri, f.contentIndex, f.responseId, f.read];

describe('FoundLinks', () => {
  test('property: the ring and its lazily indexed map answer as the plain queue and search do', () => {
    const uri = fc.integer({ min: 0, max: 300 });
    const op: fc.Arbitrary<Op> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({ kind: fc.constant('result' as const), uris: fc.array(uri, { maxLength: 600 }) }),
      },
      // a result of uris seen nowhere else that pushes every listing out: a read of one of them finds none
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('result' as const),
          uris: fc.array(fc.integer({ min: 1000, max: 10 ** 6 }), { minLength: 1540, maxLength: 1600 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('messages' as const), uris: fc.array(uri, { maxLength: 40 }) }),
      },
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('read' as const), uri }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('body' as const), uri }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'close' as const }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), fc.boolean(), (ops, listsEvicted) => {
        const ledger = new FoundLinks();
        const model = new Model();
        let id = 0;
        for (const o of ops) {
          id += 1;
          if (o.kind === 'result' || o.kind === 'messages') {
            const content = o.uris.map((u, i) => (i % 3 === 2 ? { type: 'text', text: 'x' } : link(u)));
            const got =
              o.kind === 'result'
                ? ledger.rememberResult({ content }, 't', id, at, listsEvicted)
                : ledger.remember(
                    content.flatMap((item, index) => (item.type === 'resource_link' ? [{ index, link: item }] : [])),
                    null,
                    id,
                    () => at,
                  );
            const evicted: FoundLink[] = [];
            const found: FoundLink[] = [];
            content.forEach((item, index) => {
              if (item.type !== 'resource_link') return;
              const f = { link: item, contentIndex: index, responseId: id, read: false } as unknown as FoundLink;
              found.push(f);
              model.add(f, evicted);
            });
            expect(got.found.map(shape)).toEqual(found.map(shape));
            // the ledger's own found links stand in for the model's from now on (same shape, one identity)
            got.found.forEach((f, i) => {
              model.listed[model.listed.indexOf(found[i] as FoundLink)] = f;
            });
            const shown = o.kind === 'result' && !listsEvicted ? [] : evicted;
            expect(got.evicted.map(shape)).toEqual(shown.map(shape));
          } else if (o.kind === 'read') {
            const u = `guide://h/${o.uri}`;
            const want = model.newest(u);
            const got = ledger.forRead(u, () => at);
            if (want === undefined) expect(shape(got)).toEqual([u, null, null, true]);
            else expect(got).toBe(want);
          } else if (o.kind === 'body') {
            const item = link(o.uri);
            const known = model.newest(item.uri) !== undefined;
            const evicted: FoundLink[] = [];
            const got = ledger.keepFromBody(item, id, at);
            if (!known) model.add({ link: item, contentIndex: null, responseId: id, read: true } as never, evicted);
            expect(got.map(shape)).toEqual(evicted.map(shape));
            if (!known) model.listed[model.listed.length - 1] = ledger.forRead(item.uri, () => at);
          } else {
            expect(ledger.takeUnread()).toEqual(model.listed.filter((f) => !f.read));
            model.listed = [];
          }
        }
        expect(ledger.takeUnread()).toEqual(model.listed.filter((f) => !f.read));
      }),
      { numRuns: 150 },
    );
  });
});
