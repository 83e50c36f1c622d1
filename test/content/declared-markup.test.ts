// Text declared html or xml is read by the reader its type names: a browser's HTML parser takes any text as a page
// (a bare `<p>x</p>` or prose is rendered), an XML parser takes a root element as the document's root whether or not an
// XML declaration comes first. Neither is withheld as uninterpretable before that reader judged it; script either
// reader runs is still withheld, and text that opens with no element is still no XML document.
import { describe, expect, test } from 'vitest';
import { decideBody, profileGate } from './consumers/profile-gate.ts';

const gate = profileGate(undefined, ['text/html', 'application/xhtml+xml', 'application/xml', 'text/xml']);
const xmlTypes = ['application/xml', 'text/xml', 'application/xml; charset=utf-8'];

describe('text declared html is a page whatever it opens with', () => {
  test.each([
    ['a bare fragment', '<p>x</p>'],
    ['a fragment after white space', '\n  <h1>Guide</h1>\n<p>Some <b>bold</b> text.</p>\n'],
    ['prose', 'Plain prose, no markup at all.\n'],
    ['json', '{"a": 1}\n'],
  ])('%s is allowed', async (_name, text) => {
    for (const uri of ['guide://site/page', 'guide://site/page.html'])
      expect(await decideBody(gate, uri, 'text/html', { text }), uri).toEqual({ effect: 'allow', why: '' });
  });

  test.each([
    ['a handler in a fragment', '<p>x</p><img src=x onerror=alert(1)>'],
    ['a script in a fragment', '<div><script>alert(1)</script></div>'],
    ['a javascript: link in prose', 'See [the docs](javascript:alert(1)).'],
  ])('%s is still denied as active', async (_name, text) => {
    const verdict = await decideBody(gate, 'guide://site/page', 'text/html', { text });
    expect(verdict.effect).toBe('deny');
    expect(verdict.why).toMatch(/content\.executable/);
  });
});

describe('text declared xml with a root element and no prolog is an xml document', () => {
  test.each([
    ['a bare root', '<root><a>x</a></root>'],
    ['an empty root', '<root/>\n'],
    [
      'an atom feed',
      '<feed xmlns="http://www.w3.org/2005/Atom"><title>Releases</title><entry><title>v2</title></entry></feed>\n',
    ],
    ['a comment before the root', '<!-- generated -->\n<project><version>1.0</version></project>\n'],
  ])('%s is allowed', async (_name, text) => {
    for (const mimeType of xmlTypes)
      expect(await decideBody(gate, 'guide://site/doc', mimeType, { text }), mimeType).toEqual({
        effect: 'allow',
        why: '',
      });
  });

  test.each([
    [
      'an xhtml script under a prefix',
      '<doc><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script></doc>',
    ],
    ['an xhtml handler', '<doc><img xmlns="http://www.w3.org/1999/xhtml" src="x" onerror="alert(1)"/></doc>'],
    ['an xml-stylesheet from elsewhere', '<?xml-stylesheet type="text/xsl" href="https://x.test/t.xsl"?><doc/>'],
  ])('%s is still withheld', async (_name, text) => {
    for (const mimeType of xmlTypes) {
      const verdict = await decideBody(gate, 'guide://site/doc', mimeType, { text });
      expect(verdict.effect, mimeType).not.toBe('allow');
      expect(verdict.why, mimeType).toMatch(/content\.(executable|remote-load)/);
    }
  });

  test('text that opens with no element is still no xml document', async () => {
    const verdict = await decideBody(gate, 'guide://site/doc', 'application/xml', { text: 'hello world\n' });
    expect(verdict.effect).toBe('partial');
    expect(verdict.why).toMatch(/content\.uninterpretable/);
  });
});

// Elements in the XHTML namespace run in any document an XML parser reads, whatever its root or prefix (Firefox and
// Chromium: application/xhtml+xml and application/xml are parsed as XML, and a `.xhtml` or `.xml` file opened from
// disk too). parse5 reads `<x:script>` as an unknown element, so such a body is judged as xml (saxes, namespaces).
const ns = 'http://www.w3.org/1999/xhtml';
const prefixedScript = `<x:script xmlns:x="${ns}">alert(1)</x:script>`;

describe('a body an XML parser reads is judged as xml, whatever its root', () => {
  test.each([
    ['under an unknown root', `<doc>${prefixedScript}</doc>`],
    ['as the root', prefixedScript],
    ['under an xhtml html root', `<html xmlns="${ns}"><body>${prefixedScript}</body></html>`],
    ['behind a comment longer than the head', `<!--${'x'.repeat(40_000)}--><doc>${prefixedScript}</doc>`],
  ])('a prefixed xhtml script %s is withheld as executable under xml types', async (_name, text) => {
    for (const mimeType of ['application/xhtml+xml', ...xmlTypes]) {
      const verdict = await decideBody(gate, 'guide://site/doc', mimeType, { text });
      expect(verdict.effect, mimeType).toBe('deny');
      expect(verdict.why, mimeType).toMatch(/content\.executable/);
    }
  });

  test.each([
    ['report.xhtml', 'text/plain'],
    ['report.xml', 'text/plain'],
    ['report.xml', 'application/octet-stream'],
    ['report.svg', 'text/plain'],
    ['report.xhtml', undefined],
  ])(
    'a prefixed xhtml script named %s sent as %s is withheld (a host opening it by its name parses it as xml)',
    async (name, mimeType) => {
      const octetGate = profileGate(undefined, ['application/octet-stream']);
      const uri = `guide://site/${name}`;
      const verdict = await octetGate.decideRead({
        stage: 'read',
        link: { type: 'resource_link', uri, name },
        result: {
          resultType: 'complete',
          contents: [{ uri, ...(mimeType === undefined ? {} : { mimeType }), text: `<doc>${prefixedScript}</doc>` }],
        },
      });
      expect(verdict.effect).toBe('deny');
      expect(verdict.reasons.map((r) => r.code)).toContain('content.executable');
    },
  );

  test('the same body under text/html is a page whose `x:script` is no script (the HTML parser), and is allowed', async () => {
    expect(await decideBody(gate, 'guide://site/page', 'text/html', { text: `<doc>${prefixedScript}</doc>` })).toEqual({
      effect: 'allow',
      why: '',
    });
  });
});
