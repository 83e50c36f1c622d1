// A name the server chose (an element or attribute name, a vue directive, a jsx prop) is quoted into a finding's
// message through quoteValue: a backtick cannot close the quote and a bidi override (U+202E) or a line separator
// cannot reorder or split what the reader sees. Each case is a finding whose message showed the raw name before.
import { describe, expect, test } from 'vitest';
import { findActiveHtml } from '../../src/content/svg-html/active-html.ts';
import { findActiveXml } from '../../src/content/svg-html/active-xml.ts';
import { profileGate } from './consumers/profile-gate.ts';
import { judgeSendings } from './redteam/judge-variants.ts';

// the characters quoteValue escapes, none of which may reach a message raw
const unsafeRaw = /\u202e|\u200d|\u2028/;
const vitepressOnly = profileGate(['vitepress']);
const mdxOnly = profileGate(['mdx']);

async function why(gate: ReturnType<typeof profileGate>, uri: string, text: string): Promise<string> {
  const [verdict] = await judgeSendings({ text }, [[uri, 'text/markdown']], gate);
  expect(verdict?.effect).toBe('deny');
  return verdict?.why ?? '';
}

describe('server-chosen names in findings are quoted', () => {
  // U+200D is a name character to XML (saxes); U+202E and a backtick are not, and saxes ends the name before them
  test.for([
    [
      'an svg element outside the allow-list',
      '<svg xmlns="http://www.w3.org/2000/svg"><x\u200d\u202e`y/></svg>',
      'an svg element `<x\\u200d>` outside the allow-list',
    ],
    [
      'an svg attribute outside the allow-list',
      '<svg xmlns="http://www.w3.org/2000/svg"><rect z\u200d="1"/></svg>',
      'an svg attribute `z\\u200d` outside the allow-list',
    ],
  ] as const)('active-xml: %s', ([, svg, message]) => {
    expect(findActiveXml(svg, 'svg').active).toBe(message);
  });

  // parse5 reads an attribute name up to white space, `/`, `>` or `=`: a handler's name may hold anything else
  test('active-html: an event-handler attribute with a backtick and U+202E', () => {
    expect(findActiveHtml('<p on\u202e`x="go()">a</p>')).toBe("an event-handler attribute `on\\u202e'x`");
  });

  // raw html inside an html block is parsed by parse5, whose names hold any character but space, `/`, `>` and `=`
  test('vitepress: a directive and an element name with a backtick and U+202E', async () => {
    const message = await why(
      vitepressOnly,
      'guide://docs/page.md',
      '<div>\n<p\u202e` v-x\u202e`="a">b</p\u202e`>\n</div>\n',
    );
    expect(message).toContain("a vue directive `v-x\\u202e'` on `<p\\u202e'>`");
    expect(message).not.toMatch(unsafeRaw);
  });

  // jsx names are javascript identifiers, which may hold U+200D
  test('mdx: a jsx element and prop name with U+200D', async () => {
    const message = await why(
      mdxOnly,
      'guide://docs/page.mdx',
      '# T\n\n<Call\u200dout ti\u200dtle={globalThis.x()} />\n',
    );
    expect(message).toContain('mdx: jsx `<Call\\u200dout>` with an expression in `ti\\u200dtle`');
    expect(message).not.toMatch(unsafeRaw);
  });

  // a notebook output's bundle key is the server's: any vendor type ending in javascript runs as script in a viewer
  test('notebook: a script output whose type holds a backtick and U+202E', async () => {
    const key = 'application/vnd.x`\u202e.javascript';
    const notebook = JSON.stringify({
      nbformat: 4,
      nbformat_minor: 5,
      metadata: {},
      cells: [
        {
          cell_type: 'code',
          source: [],
          metadata: {},
          outputs: [{ output_type: 'display_data', data: { [key]: 'go()' } }],
        },
      ],
    });
    const [verdict] = await judgeSendings({ text: notebook }, [['guide://nb/run.ipynb', 'application/json']]);
    expect(verdict?.effect).toBe('deny');
    expect(verdict?.why).toContain("a `application/vnd.x'\\u202e.javascript` output, which viewers run as script");
    expect(verdict?.why).not.toMatch(unsafeRaw);
  });

  // the svg script elements are a fixed pair: the name a finding shows is quoted as every other element's is
  test('active-html: an svg handler element is quoted as other elements are', () => {
    expect(findActiveHtml('<svg><handler>go()</handler></svg>')).toBe('an svg `<handler>` element');
  });
});
