import { describe, expect, test } from 'vitest';
import { findActiveCss, normalizeCss } from '../../../src/content/svg-html/active-css.ts';

describe('findActiveCss', () => {
  test.each([
    ['expression()', 'p { width: expression(alert(1)) }', /expression/],
    ['expression with a space', 'width:expression (alert(1))', /expression/],
    ['expression behind a comment', 'width: ex/**/pression(alert(1))', /expression/],
    ['expression behind a hex escape', 'width: \\65 xpression(alert(1))', /expression/],
    ['expression behind a plain escape', 'width: e\\xpression(alert(1))', /expression/],
    ['url(javascript:)', 'background: url(javascript:alert(1))', /javascript/],
    ['escaped javascript:', 'background: url(java\\73 cript:alert(1))', /javascript/],
    ['behavior', 'p { behavior: url(x.htc) }', /behavior/],
    ['-moz-binding', 'p { -moz-binding: url(x.xml#b) }', /moz-binding/],
  ])('finds %s', (_, css, message) => {
    expect(findActiveCss(css)).toMatch(message);
  });

  test.each([
    ['plain rules', 'rect { fill: red } p { width: calc(1px + 2px) }'],
    ['a word that is not a call', '/* the expression is fine */ p { color: blue }'],
    ['url of an image', 'background: url(https://example.com/a.png)'],
  ])('allows %s', (_, css) => {
    expect(findActiveCss(css)).toBeNull();
  });

  test.each([
    ['/* a */b', 'b'],
    ['\\65 x', 'ex'],
    ['\\000065x', 'ex'],
    ['a\\:b', 'a:b'],
    ['/* never closed', ''],
    ['\\0 x', '\ufffdx'],
  ])('normalizeCss(%j) → %j', (css, plain) => {
    expect(normalizeCss(css)).toBe(plain);
  });
});
