// The one rule of which links of a read's JSON body a front end keeps, and as whose (`keptBodyLinks`): every link
// object, allowed or refused, and every refused uri string, as the answering server's; one per uri, the refusing one
// when one refused it. The decorator's ledger and the hook's state both keep what it gives (read-body-kept-links,
// read-body-refused-seen).
import { describe, expect, test } from 'vitest';
import type { Decision } from '../../src/decision/decision.ts';
import { keptBodyLinks } from '../../src/flow/kept-body-links.ts';

const allow = { effect: 'allow', reasons: [] } as unknown as Decision;
const deny = { effect: 'deny', reasons: [{ code: 'type.declared-not-allowed' }] } as unknown as Decision;
const link = (uri: string, extra: Record<string, unknown> = {}) => ({
  type: 'resource_link',
  uri,
  name: 'n',
  ...extra,
});

describe('keptBodyLinks', () => {
  test("link objects allowed or refused and refused uri strings are kept as the answering server's", () => {
    const kept = keptBodyLinks(
      [
        { link: link('a://1'), decision: allow, bare: false },
        { link: link('a://2'), decision: deny, bare: false },
        { link: link('a://3'), decision: deny, bare: true },
        { link: link('a://4'), decision: allow, bare: true },
      ],
      'docs',
    );
    expect(kept.map((k) => [k.link['uri'], k.decision.effect, k.server])).toEqual([
      ['a://1', 'allow', 'docs'],
      ['a://2', 'deny', 'docs'],
      ['a://3', 'deny', 'docs'],
    ]);
  });

  test('a uri held twice is kept once: as its refusing link, in the place of the first', () => {
    const refusing = link('a://1', { mimeType: 'application/x-msdownload' });
    const kept = keptBodyLinks(
      [
        { link: link('a://1'), decision: allow, bare: false },
        { link: link('a://2'), decision: allow, bare: false },
        { link: refusing, decision: deny, bare: false },
        { link: link('a://1'), decision: deny, bare: true },
      ],
      'docs',
    );
    expect(kept.map((k) => k.link)).toEqual([refusing, link('a://2')]);
  });

  test('a non-object link is never kept', () => {
    expect(keptBodyLinks([{ link: 'a://1', decision: deny, bare: true }], 'docs')).toEqual([]);
  });
});
