// The MDX consumer against MDX itself (issue 41 items 2 and 6): the real `@mdx-js/mdx` compiler, installed on demand
// into the test cache (never a dependency), compiles and evaluates each body with a recording JSX runtime. An attack
// is shown active by the oracle (an export, import or expression ran; a rendered element carries a handler
// function, `dangerouslySetInnerHTML`, a script or a script url) and withheld by the gate under a profile with
// `mdx`; a benign control is shown inert by the oracle and allowed. Under CI=true a missing compiler fails the suite.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { defaultConsumerIds } from '../../../src/content/consumers/content-consumer.ts';
import { createGate } from '../../../src/gate/create-gate.ts';
import { parsePolicy } from '../../../src/policy/load-policy.ts';
import { frameworkSuite, importFrom } from '../../frameworks/framework-package.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const defaultYaml = readFileSync(path.join(repoRoot, 'policies/default.yaml'), 'utf8');
const gateFor = (consumers: readonly string[]) =>
  createGate(
    parsePolicy(defaultYaml.replace(/^content:\n/m, `content:\n  consumers: [${consumers.join(', ')}]\n`), 'mdx.yaml'),
  );
// attacks are judged by the mdx adapter alone, so each deny is its own; controls under the whole profile with mdx
const mdxOnly = gateFor(['mdx']);
const withMdx = gateFor([...defaultConsumerIds, 'mdx']);

const suite = frameworkSuite('the mdx compiler', {
  name: '@mdx-js/mdx',
  version: '3.1.1',
  entry: 'node_modules/@mdx-js/mdx/index.js',
});

interface Element {
  type: unknown;
  props: Record<string, unknown>;
}
interface Mdx {
  evaluate(
    file: string,
    options: Record<string, unknown>,
  ): Promise<{ default: (props: Record<string, unknown>) => unknown }>;
}

// what a run of the compiled page did: code the page ran, and active props of the elements it rendered
async function oracle(mdx: Mdx, text: string): Promise<string[]> {
  const ran: string[] = [];
  const seen: string[] = [];
  const record = (type: unknown, props: Record<string, unknown>): Element => {
    if (typeof type === 'string') {
      if (type === 'script' || type === 'iframe') seen.push(`a <${type}> element`);
      // React writes a style element's string children as its css: a browser fetches what an @import names
      const css = [props['children']]
        .flat()
        .filter((c) => typeof c === 'string')
        .join('');
      if (type === 'style' && /@import\b/i.test(css)) seen.push('a css @import in a <style> element');
      for (const [key, value] of Object.entries(props)) {
        if (/^on/i.test(key) && typeof value === 'function') seen.push(`a ${key} handler`);
        if (key === 'dangerouslySetInnerHTML') seen.push('dangerouslySetInnerHTML');
        if ((key === 'href' || key === 'src') && typeof value === 'string' && /^\s*javascript:/i.test(value))
          seen.push(`a javascript: ${key}`);
      }
    }
    return { type, props };
  };
  const global = globalThis as { __mdxRan?: (what: string) => void };
  global.__mdxRan = (what) => ran.push(what);
  try {
    const page = await mdx.evaluate(text, {
      Fragment: Symbol('fragment'),
      jsx: record,
      jsxs: record,
      baseUrl: pathToFileURL(`${repoRoot}/`).href,
    });
    // the site's components: a component name maps to an element of its own
    page.default({ components: { Callout: 'aside' } });
  } finally {
    delete global.__mdxRan;
  }
  return [...ran.map((r) => `ran ${r}`), ...seen];
}

async function decide(gate: ReturnType<typeof createGate>, text: string) {
  const uri = 'guide://docs/page.mdx';
  const decision = await gate.decideRead({
    stage: 'read',
    link: { type: 'resource_link', uri, name: 'page', mimeType: 'text/markdown' },
    result: { resultType: 'complete', contents: [{ uri, mimeType: 'text/markdown', text }] },
  });
  return { effect: decision.effect, why: decision.reasons.map((r) => `${r.code}: ${r.message}`).join('; ') };
}

const attacks: [string, string][] = [
  ['an export that runs at build', 'export const meta = globalThis.__mdxRan("export")\n\n# Page\n'],
  ['an import that runs at build', 'import "data:text/javascript,globalThis.__mdxRan(%22import%22)"\n\n# Page\n'],
  ['a flow expression', '# Page\n\n{globalThis.__mdxRan("expression")}\n'],
  ['a text expression', 'Hello {globalThis.__mdxRan("inline")} world\n'],
  ['a jsx handler', '<button onClick={() => globalThis.__mdxRan("click")}>Go</button>\n'],
  ['dangerouslySetInnerHTML', '<div dangerouslySetInnerHTML={{__html: "<img src=x onerror=alert(1)>"}} />\n'],
  ['a script element', '<script>{"alert(1)"}</script>\n'],
  ['a spread attribute', '<a {...{href: "javascript:alert(1)"}}>x</a>\n'],
  ['a javascript link', '[docs](javascript:alert(1))\n'],
  ['a jsx javascript href', '<a href="javascript:alert(1)">docs</a>\n'],
  // hidden round 5, rebuilt (contentred): expressions where a markdown eye does not look
  ['an expression in a component prop', '<Callout title={globalThis.__mdxRan("prop")}>Note</Callout>\n'],
  ['an expression in a heading', '# Title {globalThis.__mdxRan("heading")}\n'],
  ['an expression in a nested list item', '- one\n  - {globalThis.__mdxRan("list")}\n'],
  ['an export after the content', '# Page\n\nText.\n\nexport const late = globalThis.__mdxRan("late")\n'],
  ['an expression after a BOM with CRLF lines', '\ufeff# Page\r\n\r\n{globalThis.__mdxRan("crlf")}\r\n'],
  ['a jsx error handler', '<img src="x.png" onError={() => globalThis.__mdxRan("error")} />\n'],
  // expressions that look like literals but are not one (issue 41 item 5: literals are allowed)
  ['a template with a substitution', 'Version {`${globalThis.__mdxRan("template")}`}\n'],
  ['a literal then a call', 'Version {"1.2.3", globalThis.__mdxRan("sequence")}\n'],
  ['a call on a literal', 'Version {"x".constructor.constructor("globalThis.__mdxRan(1)")()}\n'],
  // a css @import in a jsx <style>, as text or as a literal expression (review of the remote-load finding)
  ['a style element importing css', '# T\n\n<style>@import url(https://evil.example/x.css);</style>\n'],
  [
    'a style element importing css by a literal',
    '# T\n\n<style>{"@import url(https://evil.example/x.css);"}</style>\n',
  ],
];

const controls: [string, string][] = [
  [
    'a how-to with code in fences and inline code',
    '# Exports\n\nWrite `export const x = 1` or `{value}`:\n\n```js\nexport const meta = {title: "x"}\n```\n',
  ],
  ['an mdx comment', '# Page\n\n{/* a note for editors */}\n\nText.\n'],
  [
    'a component with string props',
    '<Callout type="note" title="Heads up">Read the [guide](https://example.com/guide).</Callout>\n',
  ],
  ['html-like jsx without handlers', '<details>\n<summary>More</summary>\n\nHidden *text*.\n\n</details>\n'],
  ['escaped braces', '# Templates\n\nWrite \\{name\\} where the name goes.\n'],
  // literals: evaluating one runs nothing (issue 41 item 5)
  ['a string-literal expression', '# Release\n\nVersion {"1.2.3"} is out.\n'],
  ['literal expressions on their own lines', '# Numbers\n\n{42}\n\n{`plain template`}\n\n{null}\n'],
  ['a style element without an import', '# T\n\n<style>{"h1 { color: teal }"}</style>\n'],
];

describe('mdx: the real compiler runs each attack, the gate withholds it', () => {
  test.for(attacks)('%s', async ([, text], ctx) => {
    const mdx = await importFrom<Mdx>(suite.require(ctx), '@mdx-js/mdx');
    expect(await oracle(mdx, text)).not.toEqual([]);
    const verdict = await decide(mdxOnly, text);
    expect(verdict.effect, verdict.why).toBe('deny');
    expect(verdict.why).toMatch(/mdx: /);
  });
});

describe('mdx: each benign control is inert to the real compiler and allowed', () => {
  test.for(controls)('%s', async ([, text], ctx) => {
    const mdx = await importFrom<Mdx>(suite.require(ctx), '@mdx-js/mdx');
    expect(await oracle(mdx, text)).toEqual([]);
    expect(await decide(withMdx, text)).toEqual({ effect: 'allow', why: '' });
  });
});

// An svg `data:` url in a markdown image (session 14's design call for the markdown renderers, svg-data-modes.test.ts):
// MDX compiles the image to an `<img>`, where Chromium runs an svg with script off and loads nothing from it, so the
// image is allowed; as a link target (or a definition a link uses) it is a document and stays denied
describe('mdx: a markdown image of an svg data url', () => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`;
  const data = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  // the elements the compiled page renders a url of the svg into, by type and prop
  async function drawnAs(mdx: Mdx, text: string): Promise<string[]> {
    const drawn: string[] = [];
    const record = (type: unknown, props: Record<string, unknown>): Element => {
      for (const [key, value] of Object.entries(props)) if (value === data) drawn.push(`${String(type)} ${key}`);
      return { type, props };
    };
    const page = await mdx.evaluate(text, { Fragment: Symbol('fragment'), jsx: record, jsxs: record });
    page.default({});
    return drawn;
  }

  test.for([
    ['inline', `# Tool\n\n![logo](${data}) fast.\n`],
    ['by reference', `# Tool\n\n![logo][l]\n\n[l]: ${data}\n`],
    ['inside a link elsewhere', `# Tool\n\n[![logo](${data})](https://example.com/tool)\n`],
  ] as const)('%s: compiled to an img, allowed', async ([, text], ctx) => {
    const mdx = await importFrom<Mdx>(suite.require(ctx), '@mdx-js/mdx');
    expect(await drawnAs(mdx, text)).toEqual(['img src']);
    expect(await decide(withMdx, text)).toEqual({ effect: 'allow', why: '' });
  });

  test.for([
    ['a link target', `# Tool\n\n[logo](${data})\n`],
    ['a definition a link uses too', `# Tool\n\n![logo][l] and [the logo][l]\n\n[l]: ${data}\n`],
  ] as const)('%s: compiled to an a href, denied', async ([, text], ctx) => {
    const mdx = await importFrom<Mdx>(suite.require(ctx), '@mdx-js/mdx');
    expect(await drawnAs(mdx, text)).toContain('a href');
    const verdict = await decide(mdxOnly, text);
    expect(verdict.effect, verdict.why).toBe('deny');
    expect(verdict.why).toMatch(/mdx: a markdown (link|definition) with a `data:` url/);
  });
});
