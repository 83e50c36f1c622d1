// A meta refresh's url as the HTML standard's declarative refresh steps read it, and whether a url leaves the page's
// origin (the WHATWG URL parser against a stand-in page): what a browser page does by itself with no click.
import { expect, test } from 'vitest';
import { findActiveHtml, findActiveRenderedHtml } from '../../../src/content/svg-html/active-html.ts';
import { leavesPage, refreshLeavesPage, refreshUrl } from '../../../src/content/svg-html/leaves-page.ts';

test.each([
  ['0; url=http://evil.test/x', 'http://evil.test/x'],
  ['0;URL=next.html', 'next.html'],
  ['5, url = "http://evil.test/a b"', 'http://evil.test/a b'],
  ["1.5; url='//evil.test/'", '//evil.test/'],
  ['0 http://evil.test/', 'http://evil.test/'],
  ['0,http://evil.test/', 'http://evil.test/'],
  ['.5;url=x', 'x'],
  ['0; urlfoo', 'urlfoo'],
  ['0;  url=next.html  ', 'next.html'],
])('refresh content %j navigates to %j', (content, url) => {
  expect(refreshUrl(content)).toBe(url);
});

test.each(['0', ' 30 ', '0;', '0; ', 'x; url=http://evil.test/', '0x;url=http://evil.test/', ''])(
  'refresh content %j navigates nowhere else',
  (content) => {
    expect(refreshUrl(content)).toBeNull();
  },
);

test.each([
  ['http://evil.test/', true],
  ['//evil.test/x', true],
  ['\\\\evil.test\\x', true],
  ['/\\evil.test', true],
  ['javascript:alert(1)', true],
  ['HTTP://page.invalid.evil.test/', true],
  ['http://[::1', true],
  ['next.html', false],
  ['../docs/index.html', false],
  ['/manual/', false],
  ['#top', false],
  ['?q=1', false],
  ['', false],
  ['  x.html\n', false],
])('%j leaves the page: %s', (url, leaves) => {
  expect(leavesPage(url)).toBe(leaves);
});

test.each([
  ['0', false],
  ['0;', false],
  ['0; url=index.html', false],
  ['0; url=http://evil.test/', true],
  // a value the standard's steps do not read may be read otherwise by another browser: it fails closed
  ['x; url=http://evil.test/', true],
  ['0x;url=index.html', true],
])('refresh content %j may leave the page: %s', (content, leaves) => {
  expect(refreshLeavesPage(content)).toBe(leaves);
});

test('a browser page withholds a refresh or base to another origin and keeps its own', () => {
  expect(findActiveHtml('<meta http-equiv="refresh" content="0; url=http://evil.test/x"><p>Moved</p>')).toBe(
    'a meta refresh to another origin',
  );
  expect(findActiveHtml('<META HTTP-EQUIV="Refresh" CONTENT="0;URL=//evil.test/">')).toBe(
    'a meta refresh to another origin',
  );
  expect(findActiveHtml('<base href="http://evil.test/"><link rel="stylesheet" href="s.css">')).toBe(
    'a `base` whose url is another origin',
  );
  expect(findActiveHtml('<meta http-equiv="refresh" content="0; url=manual/index.html">')).toBeNull();
  expect(findActiveHtml('<meta http-equiv="refresh" content="300">')).toBeNull();
  expect(findActiveHtml('<base href="../"><form action="search.php" method="get"><input name="q"></form>')).toBeNull();
  // on a page a markdown renderer makes, any refresh or base counts, as before
  expect(findActiveRenderedHtml('<meta http-equiv="refresh" content="300">')).toBe('a meta refresh');
});
