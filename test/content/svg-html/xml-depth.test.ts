// Element nesting in SVG/XML: saxes resolves each element's namespace prefixes by walking every open element, so a
// deep document costs depth² (a 1 MiB SVG of nested `<g>` took tens of seconds). Past libxml2's default depth, which
// browsers' XML readers share, the item is withheld as too complex; ordinary nesting is judged as before.
import { describe, expect, test } from 'vitest';
import { maxXmlDepth } from '../../../src/content/svg-html/active-xml.ts';
import { decideItem } from '../decide-item.ts';

const nested = (depth: number, unit = '<g>', close = '</g>', inner = ''): Buffer =>
  Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${unit.repeat(depth)}${inner}${close.repeat(depth)}</svg>`);

describe('svg nesting depth', () => {
  test.each([
    { name: 'groups', unit: '<g>', close: '</g>' },
    { name: 'groups with entities', unit: '<g>&#38;&amp;', close: '</g>' },
    { name: 'prefixed elements', unit: '<s:g xmlns:s="http://www.w3.org/2000/svg">', close: '</s:g>' },
  ])('$name: up to the limit judged, past it too complex', async ({ unit, close }) => {
    // the svg element itself is one level
    expect(await decideItem(nested(maxXmlDepth - 1, unit, close), 'image/svg+xml')).toMatchObject({ effect: 'allow' });
    for (const depth of [maxXmlDepth, 4 * maxXmlDepth, 20_000]) {
      expect(await decideItem(nested(depth, unit, close), 'image/svg+xml')).toMatchObject({
        effect: 'partial',
        codes: ['content.too-complex'],
      });
    }
  });

  test('script within the limit is still found; self-closing elements do not count as depth', async () => {
    const script = '<script>alert(1)</script>';
    expect(await decideItem(nested(10, '<g>', '</g>', script), 'image/svg+xml')).toMatchObject({ effect: 'deny' });
    const flat = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(5000)}</svg>`);
    expect(await decideItem(flat, 'image/svg+xml')).toMatchObject({ effect: 'allow' });
  });
});
