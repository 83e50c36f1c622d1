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
