// SMIL animation `values` are split on `;` alone (SMIL 3.0 §5.4.3), so an entry may hold a newline or tab that the
// WHATWG URL parser then removes: `0;java⏎script:…` animates `href` to a `javascript:` url. Each variant is checked
// first with the real URL parser (the consumer's reading), then against the gate.
import { describe, expect, test } from 'vitest';
import { decideItem } from '../decide-item.ts';

const breaks = ['\n', '\t', '\r\n', '&#10;', '&#9;', '&#x0A;'];
const decode = (s: string) =>
  s
    .replace(/&#x0A;/g, '\n')
    .replace(/&#10;/g, '\n')
    .replace(/&#9;/g, '\t');

const variants = breaks.flatMap((br) => [
  {
    name: `values split inside the scheme (${JSON.stringify(br)})`,
    attr: 'values',
    value: `0;java${br}script:alert(1)`,
  },
  {
    name: `values with spaces around (${JSON.stringify(br)})`,
    attr: 'values',
    value: `#a; java${br}script:alert(1) ;#b`,
  },
  { name: `to (${JSON.stringify(br)})`, attr: 'to', value: `java${br}script:alert(1)` },
]);

const svg = (attr: string, value: string) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a id="l"><text>x</text>` +
      `<animate attributeName="href" ${attr}="${value}" begin="0s" fill="freeze"/></a></svg>`,
  );

describe('svg smil values read as the consumer splits and parses them', () => {
  test.each(variants)('$name', async ({ attr, value }) => {
    // the consumer: split on `;` (SMIL), then the WHATWG URL parser
    const entries = attr === 'values' ? decode(value).split(';') : [decode(value)];
    const protocols = entries.map((entry) => {
      try {
        return new URL(entry.trim()).protocol;
      } catch {
        return null;
      }
    });
    expect(protocols).toContain('javascript:');
    expect(await decideItem(svg(attr, value), 'image/svg+xml')).toMatchObject({ effect: 'deny' });
  });

  test('ordinary animation values stay allowed', async () => {
    for (const value of ['0;1;0', '#a;#b', 'red; blue ;green', '10 20; 30 40']) {
      expect(await decideItem(svg('values', value), 'image/svg+xml'), value).toMatchObject({ effect: 'allow' });
    }
  });
});
