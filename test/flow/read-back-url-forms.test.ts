// A refused address written so a reader or a parser turns it back into the address: with HTML character references
// (`http&#58;//169&#46;254…`, which markdown renderers decode and linkify, and a model reads anyway), with an empty or
// default port, leading zeros in the port, or dot segments (`/./`, `x/../`, which the WHATWG URL parser and curl remove).
// The oracles are the real readers: markdown-it's rendering and `new URL`; the search is `AddressSearch`,
// the one every front end shares.
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { describe, expect, test } from 'vitest';
import { AddressSearch } from '../../src/flow/address-search.ts';
import { readBack } from '../../src/flow/read-back.ts';
import { withoutDotSegments, withoutPorts } from '../../src/flow/url-noise.ts';

const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
const markdownIt = new MarkdownIt({ html: false, linkify: true });

function refused(): AddressSearch<true> {
  const search = new AddressSearch<true>();
  search.add(metadata, true);
  return search;
}

const referenced: [string, string][] = [
  ['decimal', metadata.replace(':', '&#58;').replaceAll('.', '&#46;')],
  ['hexadecimal', metadata.replaceAll('/', '&#x2F;').replaceAll('.', '&#x2e;')],
  ['named', metadata.replace(':', '&colon;').replaceAll('.', '&period;').replaceAll('/', '&sol;')],
  ['twice', metadata.replaceAll('.', '&amp;#46;')],
  ['with percent-encoding', metadata.replaceAll('.', '&#37;2e')],
];

describe('HTML character references are read back', () => {
  for (const [label, spelled] of referenced.slice(0, 3))
    test(`control: markdown-it shows ${label} references as the address`, () => {
      expect(markdownIt.render(`fetch ${spelled} now`)).toBe(`<p>fetch ${metadata} now</p>\n`);
    });

  for (const [label, spelled] of referenced)
    test(`${label} references name the refused address`, () => {
      expect(refused().find(`fetch ${spelled} now`)).toBe(true);
    });

  test('ordinary text with ampersands is not taken for the address', () => {
    const search = refused();
    expect(search.find('a &amp; b &lt;169.254.169&gt; &#46;&#46; ?x=1&lt=2 &unknown; 169&#46;254')).toBeUndefined();
  });
});

const urlForms: [string, string][] = [
  ['the default port', metadata.replace('169.254.169.254', '169.254.169.254:80')],
  ['the default port with leading zeros', metadata.replace('169.254.169.254', '169.254.169.254:00080')],
  ['an empty port', metadata.replace('169.254.169.254', '169.254.169.254:')],
  ['a dot segment', metadata.replace('/latest/', '/./latest/')],
  ['a parent segment', metadata.replace('/latest/', '/x/../latest/')],
  ['parent segments past the root', metadata.replace('/latest/', '/../../latest/')],
  ['nested parent segments', metadata.replace('/latest/', '/a/b/../c/../../latest/./')],
  ['a trailing parent segment', `${metadata}x/..`],
  ['percent-encoded dots', metadata.replace('/latest/', '/x/%2e%2E/latest/%2e/')],
  ['every form at once, scheme-relative', `//169.254.169.254:0080/./x/../latest/meta-data/iam/./security-credentials/`],
];

describe('url forms the parser removes are read back', () => {
  for (const [label, spelled] of urlForms) {
    test(`control: the WHATWG parser reads ${label} as the refused address`, () => {
      expect(new URL(spelled, 'http://example.com/').href).toBe(metadata);
    });
    test(`${label}, in prose, names the refused address`, () => {
      expect(refused().find(`please try ${spelled} next`)).toBe(true);
      expect(refused().find(`[the keys](${spelled})`)).toBe(true);
    });
  }

  test('a parent segment never removes the host', () => {
    expect(readBack('see http://example.com/../169.254.169.254/x and "a/b","http://h/../y"')).toBe(
      'see http://example.com/169.254.169.254/x and "a/b","http://h/y"',
    );
    expect(withoutDotSegments('//h/../x a/./b/. c/x/../..')).toBe('//h/x a/b/ c/');
  });

  test('a non-default port stays (without leading zeros); a colon in prose stays', () => {
    expect(withoutPorts('host:8443/x host:08443/x at 10:30 today: see note:80 http://a')).toBe(
      'host:8443/x host:8443/x at 10:30 today: see note http://a',
    );
    expect(refused().find(metadata.replace('169.254.169.254', '169.254.169.254:8080'))).toBeUndefined();
  });

  test('any web url with dot segments and ports reads back as the parser writes it', () => {
    const segment = fc.constantFrom('a', 'b', '.', '..', '%2e', '%2E%2e', 'latest');
    fc.assert(
      fc.property(
        fc.constantFrom('http', 'https'),
        fc.constantFrom('', ':', ':80', ':443', ':0080', ':00443'),
        fc.array(segment, { maxLength: 8 }),
        (scheme, port, segments) => {
          const written = `${scheme}://169.254.169.254${port}/${segments.join('/')}`;
          const href = new URL(written).href;
          // the parser's serialization keeps the other scheme's default port; the read-back omits both
          const read = readBack(written)
            .toLowerCase()
            .replace(/^https?:\/\//, '')
            .replace(/\/$/, '');
          const expected = href.replace(/^https?:\/\//, '').replace(/\/$/, '');
          expect(read).toBe(expected.replace(/:(?:80|443)(?=\/|$)/, ''));
        },
      ),
      { seed: 7, numRuns: 2000 },
    );
  });
});
