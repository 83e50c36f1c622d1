import { describe, expect, test } from 'vitest';
import {
  findActiveMarkup,
  type MarkupFlavour,
  mayHoldActiveMarkup,
} from '../../../src/content/svg-html/active-markup.ts';
import { WorkBudget, WorkExhausted } from '../../../src/content/work-budget.ts';
import { maxNestedMarkup } from '../../../src/content/svg-html/active-html.ts';

describe('findActiveMarkup', () => {
  test.each<[string, string, MarkupFlavour, RegExp]>([
    ['script element', '<p>x</p><script>alert(1)</script>', 'html', /`<script>` element/],
    [
      'namespaced svg script',
      '<svg xmlns:svg="http://www.w3.org/2000/svg"><svg:script>x</svg:script></svg>',
      'svg',
      /`<script>` element/,
    ],
    ['upper-case script', '<SCRIPT SRC=x></SCRIPT>', 'text', /`<script>` element/],
    [
      'event handler without script',
      'notes\n<img src=x onerror="alert(1)">',
      'text',
      /event-handler attribute `onerror`/,
    ],
    ['svg onload', '<svg onload="alert(1)"/>', 'svg', /`onload`/],
    ['handler after a slash', '<svg/onload=alert(1)>', 'html', /`onload`/],
    ['handler after a slash in svg', '<svg/onload=alert(1)>', 'svg', /`onload`|allow-list/],
    ['javascript url', '<a href="javascript:alert(1)">x</a>', 'html', /`javascript:`/],
    ['entity-encoded javascript url', '<a xlink:href="jav&#x61;script:alert(1)"/>', 'svg', /after entity decoding/],
    ['decimal entity without semicolon', '<a href="&#106avascript:alert(1)">', 'html', /`javascript:`/],
    ['tab inside the scheme', '<a href="java\tscript:alert(1)">', 'html', /`javascript:`/],
    ['vbscript url', '<a href="vbscript:msgbox">', 'html', /`vbscript:`/],
    ['html data url', '<iframe src="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;">', 'html', /`data:` url/],
    [
      'svg animate to a script url',
      '<svg><animate attributeName="href" values="javascript:alert(1)"/></svg>',
      'svg',
      /`javascript:`/,
    ],
    [
      'srcdoc with an encoded script',
      '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
      'html',
      /`srcdoc` document holds a `<script>`/,
    ],
    ['hta', '<html><HTA:APPLICATION ID="x"/></html>', 'html', /hta application/],
    [
      'svg tiny handler element',
      '<svg><handler type="application/ecmascript">alert(1)</handler></svg>',
      'svg',
      /`<handler>`/,
    ],
    [
      'animation setting a handler',
      '<svg><set attributeName="onmouseover" to="alert(1)"/></svg>',
      'svg',
      /animation that sets an event-handler/,
    ],
    [
      'meta refresh to a data url',
      '<meta http-equiv="refresh" content="0;url=data:text/html;base64,PHNjcmlwdD4=">',
      'html',
      /`data:` url/,
    ],
    ['plugin element', '<object data="x.swf"></object>', 'html', /plugin element/],
    ['markdown javascript link', 'see [here](javascript:alert(1))', 'text', /markdown link/],
    ['markdown reference definition', '[x]: javascript:alert(1)\n', 'text', /markdown link/],
    ['markdown autolink', '<javascript:alert(1)>', 'text', /`javascript:`/],
    ['xml entity declarations', '<!DOCTYPE svg [<!ENTITY x "<script>">]><svg/>', 'svg', /dtd internal subset/],
    [
      'an entity expanding to a javascript: url',
      '<!DOCTYPE svg [<!ENTITY x "javascript:void.x">]><svg><a href="&x;"/></svg>',
      'svg',
      /javascript:/,
    ],
    ['xslt', '<?xml-stylesheet type="text/xsl" href="x.xsl"?><svg/>', 'svg', /xslt/],
  ])('finds %s', (_, text, flavour, message) => {
    expect(findActiveMarkup(text, flavour)).toMatch(message);
  });

  test.each<[string, string, MarkupFlavour]>([
    ['plain svg', '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>', 'svg'],
    ['svg with a png data url', '<svg><image href="data:image/png;base64,iVBORw0KGgo="/></svg>', 'svg'],
    ['prose about javascript', 'JavaScript: the good parts is a book; onload = when the page loads', 'text'],
    ['markdown with inline html', '<details><summary>more</summary>text</details>', 'text'],
    ['comparison operators', 'if a < b and c > d then onward = 1', 'text'],
    ['a css stylesheet instruction', '<?xml-stylesheet type="text/css" href="a.css"?><svg/>', 'svg'],
    ['entity-encoded markup as text', 'write &lt;script&gt; to show a tag', 'text'],
    ['unterminated tag at the end', 'a <b', 'text'],
  ])('allows %s', (_, text, flavour) => {
    expect(findActiveMarkup(text, flavour)).toBeNull();
  });

  test.each<[string, string, MarkupFlavour, RegExp]>([
    ['a quoted `>` inside a tag', '<img alt=">" onerror="alert(1)" src=x>', 'html', /`onerror`/],
    ['a single-quoted `>` inside a tag', "<a title='a>b' href='javascript:alert(1)'>", 'html', /`javascript:`/],
    [
      'a handler past 64 KiB of attribute space',
      `<img src=x${' '.repeat(70_000)}onerror=alert(1)>`,
      'html',
      /`onerror`/,
    ],
    ['script after an unterminated quoted value', '<a title="x> <script>alert(1)</script>', 'text', /script/],
  ])('reads a tag as far as an html tokenizer does: %s', (_, text, flavour, message) => {
    expect(findActiveMarkup(text, flavour)).toMatch(message);
  });

  // inputs that made former patterns rescan the rest of the text for every match: the parsers read them in one
  // pass (a quadratic reading of these would not finish within the test's time-out); two that micromark reads in
  // quadratic time, now that it reads every body, are bounded by the item's budget (markdown/renderer-cost.test.ts)
  test.each<[string, string, MarkupFlavour]>([
    ['many unterminated tags', '<a '.repeat(200_000) + 'x', 'text'],
    ['whitespace after an attribute', `<a href=${' '.repeat(60_000)}x>`, 'html'],
    ['whitespace after a quoted attribute', `<a attributeName="${' '.repeat(60_000)}x>`, 'html'],
    ['a chain of attribute names', `<a ${'href='.repeat(13_000)}>`, 'html'],
    ['a long handler-like name', `<a on${'a'.repeat(60_000)}>`, 'html'],
    ['many markdown link openers', `](${' '.repeat(61)}`.repeat(50_000), 'text'],
    ['many markdown destinations starting like a scheme', '](j'.repeat(100_000), 'text'],
    ['many markdown destinations starting with a reference', '](&'.repeat(100_000), 'text'],
    ['stylesheet instructions without `>`', `<svg>${'<?xml-stylesheet '.repeat(40_000)}`, 'svg'],
    ['many empty tags', '<a>'.repeat(200_000), 'html'],
    ['style elements that never close', '<style>'.repeat(100_000), 'html'],
    ['style attributes full of comment openers', `<a style="${'/*'.repeat(50_000)}">`, 'html'],
    ['a markdown destination after a long run of spaces', `[x](${' '.repeat(200_000)}https://example.com)`, 'text'],
    ['tags glued into one another', '<a<b'.repeat(100_000), 'text'],
    ['entity-encoded tags inside attributes', '<a t="&lt;b&gt;">'.repeat(50_000), 'html'],
  ])('reads adversarial input once: %s', (_, text, flavour) => {
    expect(findActiveMarkup(text, flavour)).toBeNull();
  });

  const encode = (s: string): string => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;');
  // a `title` is text to the browser, however much markup it spells
  test('entity-encoded markup in an ordinary attribute stays text', () => {
    let doc = 'x'.repeat(100_000);
    for (let level = 0; level < maxNestedMarkup + 3; level++) doc = `<i title="${encode(doc)}">`;
    expect(findActiveMarkup(doc, 'html')).toBeNull();
  });

  // each `srcdoc` is a document of its own; past the cap the gate denies unread rather than skip the check
  test.each([maxNestedMarkup, maxNestedMarkup + 1, maxNestedMarkup + 3])(
    'srcdoc documents nested %i levels deep fail closed past the cap',
    (levels) => {
      let doc = '<p>inert</p>';
      for (let level = 0; level < levels; level++) doc = `<iframe srcdoc="${encode(doc)}"></iframe>`;
      const found = findActiveMarkup(doc, 'html');
      if (levels <= maxNestedMarkup) expect(found).toBeNull();
      else expect(found).toMatch(/nested deeper than 4 levels/);
    },
  );

  test.each([
    [
      'a script two levels down',
      '<iframe srcdoc="&lt;iframe srcdoc=&quot;&amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt;&quot;&gt;">',
      /`srcdoc` document holds a `srcdoc` document holds a `<script>`/,
    ],
    [
      'a handler one level down',
      '<iframe srcdoc="&lt;img src=x &#111;nerror=alert(1)&gt;">',
      /`srcdoc` document holds .*`onerror`/,
    ],
    ['a script glued to a tag name', '<a<script>alert(1)</script>', /markdown renders to html with a `<script>`/],
    [
      'a style element with expression()',
      '<style>p { width: expression(alert(1)) }</style>',
      /`expression\(\)` in a `<style>` element/,
    ],
    [
      'a style attribute with an escaped expression()',
      '<p style="width: e\\xpression(alert(1))">',
      /`expression\(\)` in a `style` attribute/,
    ],
    ['a markdown destination after 100 spaces', `[x](${' '.repeat(100)}javascript:alert(1))`, /markdown link/],
    [
      'a markdown scheme spread over 60 tab references',
      `[x](j${'&Tab;'.repeat(60)}avascript:alert(1))`,
      /markdown link/,
    ],
  ])('finds %s', (_, text, message) => {
    expect(findActiveMarkup(text, 'text')).toMatch(message);
  });

  test('a page holding only a plugin parameter with a value reaches the HTML parser', () => {
    // Chromium takes an object's url from a `<param>`; the screen in front of the parser let it by as text
    const page = '<p>Video:</p>\n<param name="movie" value="https://example.com/x.swf">';
    expect(mayHoldActiveMarkup(page)).toBe(true);
    expect(findActiveMarkup(page, 'html')).toMatch(/plugin parameter/);
    expect(findActiveMarkup('<p>a <param name="autoplay" value="true"> b</p>', 'text')).toMatch(/plugin parameter/);
  });

  test("an svg attribute's srcdoc document is read on the item's budget", () => {
    // off the allow-list, but an attribute's value is read before its name is: the page parse is charged
    const inner = `&lt;p&gt;${'word '.repeat(200_000)}&lt;/p&gt;`;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg"><g srcdoc="${inner}"/></svg>`;
    const budget = new WorkBudget(Number.POSITIVE_INFINITY, 50_000_000);
    expect(() => findActiveMarkup(svg, 'svg', budget)).toThrow(WorkExhausted);
    expect(findActiveMarkup(svg, 'svg')).toMatch(/allow-list/);
  });

  test('markdown destinations are read with their character references decoded', () => {
    expect(findActiveMarkup('[a](&#x6A;avascript:alert(1))', 'text')).toMatch(/markdown link/);
  });
});
