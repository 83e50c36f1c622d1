// Text declared html or xml is read by the reader its type names: a browser's HTML parser takes any text as a page
// (a bare `<p>x</p>` or prose is rendered), an XML parser takes a root element as the document's root whether or not an
// XML declaration comes first. Neither is withheld as uninterpretable before that reader judged it; script either
// reader runs is still withheld, and text that opens with no element is still no XML document.
import { describe, expect, type TestContext, test } from 'vitest';
import { decideBody, profileGate } from './consumers/profile-gate.ts';
import { useChromium } from './svg-html/chromium-suite.ts';

const chromium = useChromium();

// how Chromium renders `text` served as application/xml: whether its root is an html element and how many links it
// has (the test skipped when no Chromium runs here; under CI=true a missing one fails the suite)
async function renderedAsXml(ctx: TestContext, text: string): Promise<{ html: boolean; links: number }> {
  const browser = chromium.browser();
  if (browser === undefined) return ctx.skip(chromium.skipReason());
  const page = await browser.newPage();
  try {
    await page.route('http://page.test/**', (route) => route.fulfill({ contentType: 'application/xml', body: text }));
    await page.goto('http://page.test/doc', { waitUntil: 'load' });
    return await page.evaluate<{ html: boolean; links: number }>(
      '({ html: document.documentElement instanceof HTMLElement, links: document.links.length })',
    );
  } finally {
    await page.close();
  }
}

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

// An XHTML page (declared application/xhtml+xml, named `.xhtml`, or an xml document whose root is the xhtml `<html>`)
// is a page: its type check is the page's, so the same body is admitted or refused alike whichever parser its type or
// name hands it to, and it is read for script by the XML parser that opens it as well as by the HTML parser.
const xhtmlPage = `<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="${ns}"><head><title>Guide</title><link rel="stylesheet" href="style.css"/></head><body><p>Docs</p></body></html>\n`;
const pageBodies = [
  ['an xhtml page', xhtmlPage],
  ['an xhtml page without prolog', `<html xmlns="${ns}"><body><p>Docs</p></body></html>`],
  ['a page fragment', '<link rel="stylesheet" href="style.css"><p>Docs</p>'],
  ['a fragment in the xhtml namespace', `<div xmlns="${ns}"><p>Docs</p></div>`],
  ['prose', 'Release notes, no markup.\n'],
] as const;

describe('an xhtml page is judged as the html page is, read by the xml parser', () => {
  const shipped = profileGate();
  const pages = profileGate(undefined, ['text/html']);
  const verdictOf = async (
    gate: ReturnType<typeof profileGate>,
    uri: string,
    mimeType: string | undefined,
    text: string,
  ) => {
    const decision = await gate.decideRead({
      stage: 'read',
      link: { type: 'resource_link', uri, name: 'page' },
      result: { resultType: 'complete', contents: [{ uri, ...(mimeType === undefined ? {} : { mimeType }), text }] },
    });
    return decision.effect;
  };

  test.each(pageBodies)('%s named .xhtml gets the verdict it gets named .html', async (_name, text) => {
    for (const [gate, label] of [
      [shipped, 'default.yaml'],
      [pages, 'default.yaml + text/html'],
    ] as const)
      for (const mimeType of [undefined, 'text/plain', 'text/html']) {
        const html = await verdictOf(gate, 'guide://site/page.html', mimeType, text);
        const xhtml = await verdictOf(gate, 'guide://site/page.xhtml', mimeType, text);
        expect(xhtml, `${label}, ${mimeType ?? 'no type'}`).toBe(html);
      }
  });

  test.each(pageBodies)(
    '%s declared application/xhtml+xml gets the verdict it gets declared text/html',
    async (_name, text) => {
      for (const gate of [shipped, pages, profileGate(undefined, ['application/xhtml+xml'])])
        for (const uri of ['guide://site/page', 'guide://site/page.xhtml'])
          expect(await verdictOf(gate, uri, 'application/xhtml+xml', text), uri).toBe(
            await verdictOf(gate, uri, 'text/html', text),
          );
    },
  );

  test('an inert xhtml page is allowed as one where pages are, under either page type and no type', async () => {
    for (const mimeType of ['application/xhtml+xml', 'text/html', undefined])
      expect(await verdictOf(pages, 'guide://site/page.xhtml', mimeType, xhtmlPage), mimeType).toBe('allow');
  });

  test('an xml document whose root is the xhtml html is admitted as a page, not as xml', async () => {
    const xmlOnly = profileGate(undefined, ['application/xml']);
    const verdict = await decideBody(xmlOnly, 'guide://site/doc', 'application/xml', { text: xhtmlPage });
    expect(verdict.effect).toBe('deny');
    expect(verdict.why).toMatch(/content\.type-not-allowed: .*real type `xhtml`/);
    const both = profileGate(undefined, ['application/xml', 'text/html']);
    expect(await decideBody(both, 'guide://site/doc', 'application/xml', { text: xhtmlPage })).toEqual({
      effect: 'allow',
      why: '',
    });
    // an html root in no namespace is no page to an xml parser
    const noNamespace = '<html><body><p>x</p></body></html>';
    expect((await decideBody(xmlOnly, 'guide://site/doc', 'application/xml', { text: noNamespace })).effect).toBe(
      'allow',
    );
  });

  // Chromium (the oracle) renders an xml document whose root is in the xhtml namespace as html elements, whatever the
  // root's name: a page (its links followed, a form in it live), no xml tree view; a root in no namespace gets the
  // tree view
  test.for([
    ['a div root', `<div xmlns="${ns}"><p>Docs</p><a href="https://example.com/">more</a></div>`],
    ['a prefixed body root', `<h:body xmlns:h="${ns}"><h:p>Docs</h:p></h:body>`],
  ] as const)(
    'an xml document with %s in the xhtml namespace is a page, admitted only as one',
    async ([, text], ctx) => {
      expect(await renderedAsXml(ctx, text)).toEqual({ html: true, links: text.includes('<a ') ? 1 : 0 });
      const xmlOnly = profileGate(undefined, ['application/xml']);
      const verdict = await decideBody(xmlOnly, 'guide://site/doc', 'application/xml', { text });
      expect(verdict.effect).toBe('deny');
      expect(verdict.why).toMatch(/content\.type-not-allowed: .*real type `xhtml`/);
      const both = profileGate(undefined, ['application/xml', 'text/html']);
      expect(await decideBody(both, 'guide://site/doc', 'application/xml', { text })).toEqual({
        effect: 'allow',
        why: '',
      });
    },
  );

  test.each([
    ['a prefixed root', `<h:html xmlns:h="${ns}"><h:body><h:p>x</h:p></h:body></h:html>`],
    ['a namespace by character references', `<html xmlns="&#104;ttp://www.w3.org/1999/&#x78;html"><body/></html>`],
    ['a namespace after a quoted >', `<html lang="a>b" xmlns='${ns}'><body/></html>`],
  ])('the xhtml html root is found as %s', async (_name, text) => {
    const xmlOnly = profileGate(undefined, ['application/xml']);
    const verdict = await decideBody(xmlOnly, 'guide://site/doc', 'application/xml', { text });
    expect(verdict.effect).toBe('deny');
    expect(verdict.why).toMatch(/real type `xhtml`/);
  });

  test.each(['text/html', 'application/xhtml+xml', 'text/plain', undefined])(
    'a prefixed xhtml script in a page named .xhtml sent as %s is withheld (its name hands it to an xml parser)',
    async (mimeType) => {
      for (const text of [
        `<doc>${prefixedScript}</doc>`,
        `<html xmlns="${ns}"><body>${prefixedScript}</body></html>`,
      ]) {
        const decision = await pages.decideRead({
          stage: 'read',
          link: { type: 'resource_link', uri: 'guide://site/page.xhtml', name: 'page' },
          result: {
            resultType: 'complete',
            contents: [{ uri: 'guide://site/page.xhtml', ...(mimeType === undefined ? {} : { mimeType }), text }],
          },
        });
        expect(decision.effect, text).toBe('deny');
        expect(decision.reasons.map((r) => r.code)).toContain('content.executable');
      }
    },
  );
});
