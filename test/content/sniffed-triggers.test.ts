// The screen in front of parse5 for binary read as a page: a trigger the sniffed screen finds by chance in pixel data
// (` oNV=`, `&#207*`) no longer sends megabytes to parse5, and every trigger a browser may act on still does. The
// property holds the refinement to parse5's own reading: a body the sniffed screen passes and this one drops is one
// in which parse5 finds nothing active.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { handlerNameAnyLength, runsAsHandler } from '../../src/content/browser-handlers.ts';
import { mayRunAsSniffedPage } from '../../src/content/sniffed-triggers.ts';
import { findActiveSniffedHtml } from '../../src/content/svg-html/active-html.ts';
import { mayHoldActiveMarkupUtf8 } from '../../src/content/svg-html/markup-screen.ts';

const bytes = (text: string): Buffer => Buffer.from(text, 'latin1');
// noise around each case, as pixel data holds it
const inNoise = (text: string): Buffer => bytes(`\u0089\u00fePNG\u0000\u0013${text}\u0000\u00a0\u0081`);

describe('triggers a browser may act on still reach parse5', () => {
  test.each([
    ['a script tag', '<script>x()</script>'],
    ['a handler a browser runs', '<img src=x onerror=alert(1)>'],
    ['a handler after a slash', '<svg/onload=alert(1)>'],
    ['a handler in upper case', '<body ONPAGESHOW=alert(1)>'],
    ['a long handler name no list holds', `<p onwebkitsomethingnew=alert(1)>`],
    ['a style attribute', '<p style=x>'],
    ['a srcdoc attribute', '<iframe srcdoc="&lt;script&gt;">'],
    ['attributeName', '<set attributeName=onclick to=x>'],
    ['a literal script scheme', '<a href="javascript:x">'],
    ['a scheme with its first letter a reference', '<a href="&#106;avascript:x">'],
    ['a scheme with its colon a reference', '<a href="javascript&#58;x">'],
    ['a reference with leading zeros and no semicolon', '<a href="&#0000106avascript:x">'],
    ['a hex reference', '<a href="&#x6A;avascript:x">'],
    ['a reference, a tab reference and a colon reference', '<a href="&#106;ava&Tab;script&colon;x">'],
    ['a scheme in a list attribute, after a `;`', '<animate values="a;&#106;avascript:x">'],
    ['a data scheme', '<object data="&#100;ata:text/html,x">'],
    // the url parser drops tabs and newlines anywhere in a url, and parse5 decodes `&Tab;`, `&NewLine;` and `&colon;`
    ['a newline in the scheme', '<a href="java\nscript:x">'],
    ['a tab in the scheme', '<a href="java\tscript:x">'],
    ['a carriage return in the scheme', '<a href="java\rscript:x">'],
    ['a tab reference in the scheme', '<a href="java&Tab;script:x">'],
    ['a newline reference in the scheme', '<a href="java&NewLine;script:x">'],
    ['a colon reference', '<a href="javascript&colon;x">'],
    ['a colon reference in upper case', '<a href="javascript&COLON;x">'],
    ['a newline before the colon', '<a href="javascript\n:x">'],
    ['a tab reference before the colon', '<a href="javascript&Tab;:x">'],
    ['a reference, then a newline', '<a href="&#106;\navascript:x">'],
    ['a reference, then a carriage return', '<a href="&#106;\ravascript:x">'],
    ['a reference, a newline and a colon reference', '<a href="&#106;\navascript&colon;x">'],
  ])('%s', (_, text) => {
    expect(mayRunAsSniffedPage(inNoise(text))).toBe(true);
  });
});

describe('chance triggers in pixel data do not', () => {
  test.each([
    ['a handler no browser knows', '\u00b2/ONS=nMV\u00c4'],
    ['a short unknown handler in a tag', '<p onv=x>'],
    ['a reference to a letter outside a scheme', 'B\\j\u00bbU\u00ae\u00c3U&#207*-u'],
    ['a reference spelling a letter, no scheme', 'zz&#106;ava:x'],
  ])('%s', (_, text) => {
    const body = inNoise(text);
    expect(mayHoldActiveMarkupUtf8(body, 'sniffed'), 'the sniffed screen finds it').toBe(true);
    expect(mayRunAsSniffedPage(body)).toBe(false);
  });
});

test('every name of `on` and letters long enough is a handler, short ones only when a browser runs them', () => {
  expect(runsAsHandler('oncut')).toBe(true);
  expect(runsAsHandler('onend')).toBe(true);
  expect(runsAsHandler('onv')).toBe(false);
  expect(runsAsHandler('onlxq')).toBe(false);
  expect(runsAsHandler(`on${'q'.repeat(handlerNameAnyLength - 2)}`)).toBe(true);
  expect(runsAsHandler(`on${'q'.repeat(handlerNameAnyLength - 3)}`)).toBe(false);
});

// pieces of markup, references and noise: fast-check joins them into bodies of every shape
const pieces = [
  '<img ',
  '<svg',
  '<p ',
  '<script>',
  '<iframe ',
  '<set ',
  '<!--',
  '-->',
  '<textarea>',
  '</textarea>',
  ' onload=',
  ' onv=',
  ' onclick=',
  '/onerror=',
  ' oNwebkitnewevent=',
  ' style=',
  ' srcdoc=',
  ' attributeName=',
  ' href=',
  ' values=',
  ' to=',
  'x',
  'a',
  '1',
  '"',
  "'",
  '>',
  ' ',
  '\t',
  '\n',
  '=',
  '/',
  ';',
  ':',
  '&#106;',
  '&#x6a',
  '&#0106',
  '&#58;',
  '&#207',
  '&#9;',
  '&colon;',
  '&Tab;',
  '&NewLine;',
  'java',
  'avascript',
  'script',
  'data',
  'text/html,',
  '\u0000',
  '\u00ff',
  '\u0089',
  '\r',
  'javascript',
  '<a href="',
];

test('a body the sniffed screen passes and this screen drops holds nothing parse5 reports', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
      const body = bytes(parts.join(''));
      if (!mayHoldActiveMarkupUtf8(body, 'sniffed') || mayRunAsSniffedPage(body)) return;
      expect(findActiveSniffedHtml(body.toString('latin1'))).toBeNull();
    }),
    { numRuns: 20_000, seed: 41 },
  );
});

// the other way round: every body parse5 finds active (as a sniffed page is judged) passes both screens, so that no
// spelling of a scheme (tabs, newlines and references in it) is lost before parse5 reads it
test('a body parse5 reports passes both screens', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), (parts) => {
      const body = bytes(parts.join(''));
      if (findActiveSniffedHtml(body.toString('latin1')) === null) return;
      expect(mayHoldActiveMarkupUtf8(body, 'sniffed'), JSON.stringify(parts.join(''))).toBe(true);
      expect(mayRunAsSniffedPage(body), JSON.stringify(parts.join(''))).toBe(true);
    }),
    { numRuns: 20_000, seed: 41 },
  );
});
