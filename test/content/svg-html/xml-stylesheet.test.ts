import { describe, expect, it, test } from 'vitest';
import { findActiveMarkup } from '../../../src/content/svg-html/active-markup.ts';
import { xmlStylesheetAttributes } from '../../../src/content/svg-html/xml-stylesheet.ts';

const SVG = 'http://www.w3.org/2000/svg';
const svgWith = (body: string): string => `<?xml-stylesheet ${body}?><svg xmlns="${SVG}"><rect width="1"/></svg>`;

describe('xml-stylesheet pseudo-attributes, as the XML-stylesheet specification reads them', () => {
  it('reads names and quoted values, decoding references', () => {
    expect(xmlStylesheetAttributes(`type="text/css"  href='a&amp;b&#46;css' media="x&#x3c;y"`)).toEqual(
      new Map([
        ['type', 'text/css'],
        ['href', 'a&b.css'],
        ['media', 'x<y'],
      ]),
    );
    expect(xmlStylesheetAttributes(' type = "text/css" ')).toEqual(new Map([['type', 'text/css']]));
    expect(xmlStylesheetAttributes('')).toEqual(new Map());
  });

  it('a pseudo-attribute spelled inside another value is not one', () => {
    expect(xmlStylesheetAttributes(`href='x type="text/css"' type="text/xsl"`)?.get('type')).toBe('text/xsl');
  });

  test.each([
    ['an unquoted value', 'type=text/css'],
    ['no separating space', 'type="text/css"href="a.css"'],
    ['an unclosed value', 'type="text/css'],
    ['a `<` in a value', 'type="text/css" href="<x"'],
    ['an unknown entity', 'type="text&nbsp;css"'],
    ['a repeated name', 'type="text/css" type="text/xsl"'],
    ['a name without a value', 'alternate type="text/css"'],
  ])('%s does not parse', (_name, body) => {
    expect(xmlStylesheetAttributes(body)).toBeNull();
  });
});

describe('an xml-stylesheet instruction in svg', () => {
  test.each([
    ['css', 'type="text/css" href="a.css"'],
    ['css with a media list', `type="text/css" href="a.css" media="screen" title='t'`],
  ])('%s is inert', (_name, body) => {
    expect(findActiveMarkup(svgWith(body), 'svg')).toBeNull();
  });

  test.each([
    ['xslt behind a css type inside the href', `href='x.xsl type="text/css"' type="text/xsl"`, /not css/],
    ['xslt behind a css type inside a title', `title=' type="text/css"' type="text/xsl" href="x.xsl"`, /not css/],
    ['a type written with a character reference', 'type="text/xs&#108;" href="x.xsl"', /not css/],
    ['a repeated type', 'type="text/css" type="text/xsl" href="x.xsl"', /do not parse/],
    ['an unparseable body', 'type="text/css" href=x.xsl', /do not parse/],
  ])('%s is active', (_name, body, why) => {
    expect(findActiveMarkup(svgWith(body), 'svg')).toMatch(why);
  });
});
