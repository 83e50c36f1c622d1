// The screen in front of the markdown renderers (markdown-screen.ts) counts an attribute's `=` only inside what may
// be a raw tag: checked here against every real renderer as its users run it. Whenever the screen says no page can
// hold anything, no renderer's page holds anything the HTML reader reports; and the tags that may run past their
// first `>` (a line break, a quoted value) keep every `=` counted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { findActiveMarkdown } from '../../../src/content/markdown/active-markdown.ts';
import { mayHoldActiveMarkdown, rawTagSpans } from '../../../src/content/markdown/markdown-screen.ts';
import { mayHoldActiveMarkup } from '../../../src/content/svg-html/markup-screen.ts';
import { liveIn } from './markdown-differential.ts';

// what the screen has to tell apart: attributes and `=` in and out of tags, tags cut by line breaks, quotes, block
// quote and list marks, table cells, code, links and images whose text or title holds quotes
const pieces = [
  '<b ',
  '<img src=x ',
  '</b ',
  '<b>',
  '>',
  '> ',
  '\n',
  '\n\n',
  '\n> ',
  '\n- ',
  '\n    ',
  ' onclick=alert(1)',
  ' onerror=alert(1)',
  'onmouseover=alert(1)',
  ' style=x:expression(alert(1))',
  ' data-action=save',
  '"onclick=alert(1)',
  '<T & {',
  '<P extends X',
  '<Buffer 76 ',
  ' * ',
  '[^1]: ',
  '<pre>',
  '</pre>',
  '<x-y a="b">',
  ' Options = {}',
  'options = {}',
  'JSONSchema',
  'on',
  '=',
  '= ',
  ' =',
  '/',
  '<div ',
  '<form',
  '<frameset',
  '<formdata',
  '<iframe',
  '"',
  "'",
  'title="',
  "title='",
  ' x=y ',
  '`',
  '```\n',
  '|',
  '| --- |\n',
  '[a](b "',
  '![x" onerror="alert(1)',
  '](y)',
  '[a](',
  '[a]: ',
  ']: ',
  '](\n',
  'javascript:alert(1)',
  'data:text/html,<script>x',
  'data:text/html,x',
  '&colon;',
  '&#106;',
  '&#x6a;avascript',
  '&Tab;',
  '\\:',
  '\r\n',
  '[^',
  '*',
  '<!--',
  '-->',
  '<div',
  '<textarea>',
  // elements reported only with certain attributes, and indented code (every renderer escapes it)
  '<object>',
  '<object data=x>',
  '<object\n',
  '<param name=src value=x>',
  '<embed>',
  '<embed src=x>',
  '<meta http-equiv=refresh content=0>',
  '<Meta = X>',
  '<script>',
  '    ',
  '\t',
  '\n\t',
  '\n    <object data=x>',
  '1. ',
  '+ ',
  'x',
  ' ',
];

const text = fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((parts) => parts.join(''));

describe('the screen in front of the markdown renderers', () => {
  test('whenever it passes nothing, no real renderer makes a live page (fixed seed)', () => {
    fc.assert(
      fc.property(text, (markdown) => {
        if (!mayHoldActiveMarkdown(markdown)) expect(liveIn(markdown), JSON.stringify(markdown)).toEqual([]);
      }),
      { seed: 20261205, numRuns: 4000 },
    );
  });

  // each is live in some renderer: a tag that runs past its line or its first `>` keeps every `=` counted
  test.each([
    ['a tag cut by a line break', '<b\nonclick=alert(1)>x</b>'],
    ['a block quote mark taken off inside a tag', '> <b\n> onclick=alert(1)>x</b>'],
    ['a quoted value holding a `>`', '<b title="a>" onclick=alert(1)>x</b>'],
    ['a quoted value after white space', "<b title= 'a>' onclick=alert(1)>x</b>"],
    ['a quoted value across lines', "<b title='a\nb' onclick=alert(1)>x</b>"],
    ['an html block whose tag runs past a blank line', '<div title="\n\n[x](onclick=alert(1))'],
    ['a name beginning with `=` then a quote', `<div ='x ="y' > z" onclick=alert(1)>`],
  ])('%s passes the screen and is live', (_name, markdown) => {
    expect(mayHoldActiveMarkdown(markdown)).toBe(true);
    expect(liveIn(markdown)).not.toEqual([]);
  });

  // each is live in some renderer, and passes the screen
  test.each([
    ['an object naming its data', 'a <object data=x.swf> b'],
    ['an object with a param', 'a <object>\n<param name=movie value=x.swf></object> b'],
    ['an object whose tag runs past its line', 'a <object\ndata=x.swf> b'],
    ['an embed with a src', 'a <embed src=x.swf> b'],
    ['a meta refresh', 'a <meta http-equiv=refresh content="0;url=https://example.com/"> b'],
    ['an indented line inside a list item', '- a\n\n    <object data=x.swf>\n'],
    ['an indented line inside an ordered list item', '1. a\n\n    <object data=x.swf>\n'],
    ['a param with a value by itself', 'a <param name=movie value=x.swf> b'],
    ['an indented line after a paragraph line', 'a\n    <object data=x.swf>\n'],
    ['an indented line in a <pre> block', '<pre>\n\n    <script>alert(1)</script>\n</pre>\n'],
    ['an indented line inside a tag left open', "<div title='\n\n    x' onclick=alert(1) \n"],
  ])('%s passes the screen and is live', (_name, markdown) => {
    expect(mayHoldActiveMarkdown(markdown)).toBe(true);
    expect(liveIn(markdown)).not.toEqual([]);
  });

  test('an object, embed or meta naming nothing they act on, and indented code, pass nothing', () => {
    // a declaration file's generics: `@types/node/util.d.ts`, vite's `index.d.ts`
    expect(mayHoldActiveMarkdown('function isWeakSet(object: unknown): object is WeakSet<object>;\n')).toBe(false);
    expect(mayHoldActiveMarkdown('declare class Context<Meta = PluginContextMeta> {\n')).toBe(false);
    expect(mayHoldActiveMarkdown('a <embed type=x> b')).toBe(false);
    expect(mayHoldActiveMarkdown('a\n\n    x <script>alert(1)</script>\n\tx <iframe src=y>\n')).toBe(false);
    expect(mayHoldActiveMarkdown('- a\n\nb\n\n    x <script>alert(1)</script>\n')).toBe(false);
    for (const markdown of ['a <embed type=x> b', 'a\n\n    x <script>alert(1)</script>\n\tx <iframe src=y>\n'])
      expect(liveIn(markdown)).toEqual([]);
  });

  test('an `=` inside a tag that ends on its line counts; one outside every tag does not', () => {
    expect(mayHoldActiveMarkdown('see <b onclick=alert(1)>x</b>')).toBe(true);
    expect(mayHoldActiveMarkdown('Press <kbd style="color: teal">Ctrl+S</kbd>')).toBe(true);
    // a name the HTML tokenizer reads starts after white space, `/` or a value's closing quote: `data-action` and
    // `Options` name no handler, a name glued to a quoted value does
    expect(mayHoldActiveMarkdown('Press <kbd data-action=save>Ctrl+S</kbd>')).toBe(false);
    expect(mayHoldActiveMarkdown('type T<O extends Options = {}> = O')).toBe(false);
    expect(mayHoldActiveMarkdown('<b title="x"onclick=alert(1)>')).toBe(true);
    expect(mayHoldActiveMarkdown("<b title='x'/ONCLICK=alert(1)>")).toBe(true);
    expect(mayHoldActiveMarkdown('<b xstyle=a>')).toBe(false);
    expect(mayHoldActiveMarkdown('<b STYLE=a>')).toBe(true);
    expect(mayHoldActiveMarkdown('`options = {}` and Promise<void> and Map<string, number>')).toBe(false);
    // the markup screen, reading it as a page, counts that `=`
    expect(mayHoldActiveMarkup('`options = {}` and Promise<void> and Map<string, number>')).toBe(true);
    expect(rawTagSpans(Buffer.from('a <b> c </i x=1> <'))).toEqual([2, 4, 8, 15]);
    // read as the HTML tokenizer reads a tag: a quoted value holds a `>`, a quote elsewhere is part of a name
    expect(rawTagSpans(Buffer.from('a <b title="x>" y> c'))).toEqual([2, 17]);
    expect(rawTagSpans(Buffer.from("a <b ='x ='y> z' w> c"))).toEqual([2, 18]);
    expect(rawTagSpans(Buffer.from("<b x=y'> z'>"))).toEqual([0, 7]);
    // a tag its line ends first runs to the end of the text
    expect(rawTagSpans(Buffer.from('a <b> <b\n> c <i>'))).toEqual([2, 4, 6, 16]);
    expect(mayHoldActiveMarkdown('<b title="x>" onclick=alert(1)>')).toBe(true);
    expect(mayHoldActiveMarkdown('<reference types="node" />\nlet options = {}')).toBe(false);
    expect(mayHoldActiveMarkdown('options = {}\n<b\n>')).toBe(false);
    expect(mayHoldActiveMarkdown('<b\n> options = {}')).toBe(true);
    // in a tag that ends on its line, a name starts after the `<`: what stands before it names nothing
    expect(mayHoldActiveMarkdown('type JSONSchema<Value = any> = Options<Value>')).toBe(false);
    expect(mayHoldActiveMarkdown('button<b onclick=alert(1)>')).toBe(true);
    expect(mayHoldActiveMarkdown('on<b x=1>')).toBe(false);
    // the tag's own name is no attribute: `<bon=1>` is an element named `bon=1`
    expect(mayHoldActiveMarkdown('<bon=1>')).toBe(false);
    expect(mayHoldActiveMarkdown('<b on=1>')).toBe(true);
  });

  test('a tag its line ends first counts everything after it only where a renderer may pass it on raw', () => {
    // no tag by CommonMark's grammar (`&`, a digit, `[` where an attribute starts): its `<` is escaped, its line text
    expect(mayHoldActiveMarkdown('type X = Y<T & {\n  onclick = 1 }>')).toBe(false);
    expect(mayHoldActiveMarkdown(' * <Buffer 76 26 af\n * 9d onclick = 1 >')).toBe(false);
    expect(mayHoldActiveMarkdown("F<T['input'] & {\n  onclick = 1 }>")).toBe(false);
    // a tag that may go on past the line by the grammar, or in an html block (raw line by line), still counts
    expect(mayHoldActiveMarkdown('see <b x=1\nonclick=alert(1)>')).toBe(true);
    expect(mayHoldActiveMarkdown('see <b x="1\ny" onclick=alert(1)>')).toBe(true);
    expect(mayHoldActiveMarkdown('<div>\n<T & {\nonclick=alert(1)>')).toBe(true);
    expect(mayHoldActiveMarkdown('  <P extends X\n<T & {\nonclick=alert(1)>')).toBe(true);
    expect(mayHoldActiveMarkdown('> - <div>\n<T & {\nonclick=alert(1)>')).toBe(true);
    expect(mayHoldActiveMarkdown('[^1]: <section>\n<T & {\nonclick=alert(1)>')).toBe(true);
    expect(mayHoldActiveMarkdown('<x-y a="b">\n<T & {\nonclick=alert(1)>')).toBe(true);
    expect(mayHoldActiveMarkdown('<!--\n\n<T & {\nonclick=alert(1)>\n-->')).toBe(true);
    expect(mayHoldActiveMarkdown('<pre>\n\n<T & {\nonclick=alert(1)>\n</pre>')).toBe(true);
    // a blank line ends an html block of the sixth and seventh kinds
    expect(mayHoldActiveMarkdown('<div>\n\n<T & {\nonclick=alert(1)>')).toBe(false);
    // marked passes a paragraph's text on raw after an inline `<pre>`, `<code>` or `<kbd>` tag
    expect(mayHoldActiveMarkdown('a <kbd>b <b &Tab; onerror=alert(1)')).toBe(true);
    for (const live of [
      '<div>\n<T & {\nonclick=alert(1)>',
      'a <kbd>b <b &Tab; onerror=alert(1)',
      '<pre>\n\n<T & {\nonclick=alert(1)>\n</pre>',
    ])
      expect(liveIn(live), live).not.toEqual([]);
  });

  test('after marked starts passing text on raw, a tag holding a backslash escape counts everything after it', () => {
    // marked turns `\"` into `&quot;` inside the raw text, so the `"` that seemed to end the value does not; the next
    // `"` marked writes itself (a fence's class) ends it, and parse5 reads an `img` with `onerror`
    const escaped = '<code> <img src=x @ alt="\\">\n\n```x/onerror=alert(1)//\ny\n```\n';
    expect(liveIn(escaped)).toContain('marked');
    expect(mayHoldActiveMarkdown(escaped)).toBe(true);
    expect(findActiveMarkdown(escaped)).toMatch(/onerror/);
    // before any such tag a backslash in a tag changes nothing marked writes
    expect(mayHoldActiveMarkdown('<img src=x alt="\\">\n\nplain text\n')).toBe(false);
  });

  test('the other triggers count wherever they stand', () => {
    expect(mayHoldActiveMarkdown('[x](javascript:alert(1))')).toBe(true);
    expect(mayHoldActiveMarkdown('[x](&#106;avascript:alert(1))')).toBe(true);
    expect(mayHoldActiveMarkdown('<script>alert(1)</script>')).toBe(true);
    expect(mayHoldActiveMarkdown('![a](data:text/html,x)')).toBe(true);
    // an active tag by its whole name
    expect(mayHoldActiveMarkdown('<form action=x>')).toBe(true);
    expect(mayHoldActiveMarkdown('<FRAMESET/>')).toBe(true);
    expect(mayHoldActiveMarkdown('<object\n')).toBe(true);
    expect(mayHoldActiveMarkdown('<hta:application>')).toBe(true);
    expect(mayHoldActiveMarkdown('Promise<FormData> | Map<Metadata, BaseType> | <styles>')).toBe(false);
    expect(mayHoldActiveMarkup('Promise<FormData>')).toBe(true);
    // a character reference where a url or an attribute value may be read, and in text
    expect(mayHoldActiveMarkdown('<a href=&#106;avascript&#58;alert(1)>')).toBe(true);
    expect(mayHoldActiveMarkdown('[a]: &#106;avascript&#58;alert(1)')).toBe(true);
    expect(mayHoldActiveMarkdown('the `&#39;` reference, and &#x26;')).toBe(false);
    expect(mayHoldActiveMarkdown('[a]:\r\n  javascript&colon;alert(1)')).toBe(true);
    expect(mayHoldActiveMarkdown('> [a](\n> javascript\\:alert(1))')).toBe(true);
    expect(mayHoldActiveMarkdown('<javascript:alert(1)>')).toBe(true);
    // a scheme a renderer reads as no url: prose, or a destination two lines on
    expect(mayHoldActiveMarkdown('on(event: "data", listener: (data: Buffer) => void)')).toBe(false);
    expect(mayHoldActiveMarkdown('[a](\nx\njavascript:alert(1))')).toBe(false);
    expect(liveIn('[a](\nx\njavascript:alert(1))')).toEqual([]);
  });

  test('declaration files read as markdown pass nothing to the renderers', () => {
    const nodeModules = path.resolve(import.meta.dirname, '../../../node_modules');
    for (const file of ['@types/node/http2.d.ts', '@types/node/net.d.ts', '@types/node/stream.d.ts']) {
      const declarations = readFileSync(path.join(nodeModules, file), 'utf8');
      expect(mayHoldActiveMarkup(declarations), file).toBe(true);
      expect(mayHoldActiveMarkdown(declarations), file).toBe(false);
    }
  });
});
