// No ordinary file blocked (issue 41 item 5): a body is read by the consumers that would read it. Source files
// declared text/plain are shown as text (no markdown renderer reads a `.ts` or `.css` file), a shortcut shown in a
// fenced code block of a how-to is code, and an svg shown as an image through a `data:` url runs as an image.
// Each allowed case has its denied twin: the same bytes where a consumer would read them as active.
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../../src/gate/create-gate.ts';
import { loadPolicy } from '../../../src/policy/load-policy.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));

async function decide(uri: string, mimeType: string, text: string): Promise<{ effect: string; why: string }> {
  const decision = await gate.decideRead({
    stage: 'read',
    link: { type: 'resource_link', uri, name: 'file', mimeType },
    result: { resultType: 'complete', contents: [{ uri, mimeType, text }] },
  });
  return { effect: decision.effect, why: decision.reasons.map((r) => `${r.code}: ${r.message}`).join('; ') };
}

const typescript = [
  "import type { Plugin } from './plugin';",
  'export interface Registry { plugins: Map<string, object>; base?: URL }',
  '/** Renders into an <iframe> sandbox and falls back to <object> when frames are off; see <base href>. */',
  'export function mount<T extends object>(target: Array<object>, options: Record<string, object>): T[] {',
  '  return target.filter((x): x is T => x !== null) as T[];',
  '}',
  '',
].join('\n');
const declarations =
  'declare function pick<base>(o: object): Promise<object>;\nexport declare const iframe: <iframe>() => void;\n';
const css =
  '/* <base> styles: the <iframe> wrapper and <object> fallback */\n.embed > iframe, .embed > object { border: 0; }\n';

describe('plain-text source declared text/plain is not rendered as markdown', () => {
  test.each([
    ['a typescript module', 'guide://repo/src/registry.ts', typescript],
    ['a declaration file', 'guide://repo/types/index.d.ts', declarations],
    ['a stylesheet', 'guide://repo/styles/embed.css', css],
  ])('%s is allowed', async (_, uri, text) => {
    expect(await decide(uri, 'text/plain', text)).toEqual({ effect: 'allow', why: '' });
  });

  test.each([
    ['no extension', 'guide://repo/src/registry', typescript],
    ['a markdown extension', 'guide://repo/README.md', typescript],
  ])('the same source under %s is still read as markdown (a renderer may show it) and denied', async (_, uri, text) => {
    const verdict = await decide(uri, 'text/plain', text);
    expect(verdict.effect).toBe('deny');
    expect(verdict.why).toMatch(/markdown renders to html/);
  });

  test('source declared text/markdown is rendered whatever its name', async () => {
    expect((await decide('guide://repo/src/registry.ts', 'text/markdown', typescript)).effect).toBe('deny');
  });
});

const shortcut = '[InternetShortcut]\nURL=file:///C:/Windows/System32/calc.exe\n';
const howTo = (body: string): string => `# Desktop shortcuts\n\nSave this as \`calc.url\`:\n\n${body}\nThen open it.\n`;

describe('a shortcut shown in a fenced code block is code, not a shortcut', () => {
  test.each([
    ['a backtick fence', howTo(`\`\`\`ini\n${shortcut}\`\`\`\n`)],
    ['a tilde fence', howTo(`~~~\n${shortcut}~~~\n`)],
    ['an indented code block', howTo(shortcut.replace(/^/gm, '    '))],
    ['a fence in a list item', howTo(`1. Write:\n\n   \`\`\`\n   ${shortcut.replace(/\n(?=.)/g, '\n   ')}   \`\`\`\n`)],
  ])('%s in a markdown how-to is allowed', async (_, text) => {
    expect(await decide('guide://docs/shortcuts.md', 'text/markdown', text)).toEqual({ effect: 'allow', why: '' });
  });

  test.each([
    ['outside any fence', howTo(shortcut), 'guide://docs/shortcuts.md'],
    ['after a closed fence', howTo(`\`\`\`\nexample\n\`\`\`\n${shortcut}`), 'guide://docs/shortcuts.md'],
    ['in a fence of a body named `.url`', howTo(`\`\`\`\n${shortcut}\`\`\`\n`), 'guide://docs/calc.url'],
  ])('a section %s is a shortcut and denied', async (_, text, uri) => {
    const verdict = await decide(uri, 'text/markdown', text);
    expect(verdict.effect).toBe('deny');
    expect(verdict.why).toMatch(/internet shortcut/);
  });
});

const innerSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>alert(1)</script><rect width="8" height="8"/></svg>';
const svgData = `data:image/svg+xml,${encodeURIComponent(innerSvg)}`;
const svgData64 = `data:image/svg+xml;base64,${Buffer.from(innerSvg).toString('base64')}`;
const outer = (body: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="16" height="16">${body}</svg>`;

describe('an svg shown as an image is judged as the image it runs as (script off)', () => {
  test.each([
    ['svg `<image href>`', outer(`<image width="8" height="8" href="${svgData}"/>`)],
    [
      'svg `<image xlink:href>` in base64 (what Inkscape writes)',
      outer(`<image width="8" height="8" xlink:href="${svgData64}"/>`),
    ],
    [
      'svg `<feImage href>`',
      outer(`<filter id="f"><feImage href="${svgData}"/></filter><rect width="8" height="8" filter="url(#f)"/>`),
    ],
  ])('%s is allowed', async (_, svg) => {
    expect(await decide('guide://art/icon.svg', 'image/svg+xml', svg)).toEqual({ effect: 'allow', why: '' });
  });

  test.each([
    ['as a link target', outer(`<a href="${svgData}"><rect width="8" height="8"/></a>`)],
    [
      'as an image of a non-image attribute',
      outer(`<image width="8" height="8" href="https://example.com/a.png" style="x" mask="${svgData}"/>`),
    ],
    ['as an iframe in markdown', `# Icon\n\n<iframe src="${svgData}"></iframe>\n`],
  ])('an svg document %s is denied', async (_, body) => {
    const [uri, mime] = body.startsWith('#')
      ? ['guide://docs/icon.md', 'text/markdown']
      : ['guide://art/icon.svg', 'image/svg+xml'];
    const verdict = await decide(uri, mime, body);
    expect(verdict.effect).toBe('deny');
    expect(verdict.why).toMatch(/data:|iframe/);
  });

  test('an html `<img src>` showing an svg data url is allowed in html read by the renderers', async () => {
    const md = `# Icon\n\n<img alt="icon" src="${svgData}">\n`;
    expect(await decide('guide://docs/icon.md', 'text/markdown', md)).toEqual({ effect: 'allow', why: '' });
  });
});

// an icon served as text/plain (a server that labels every text file so): Chromium shows text/plain as text, and the
// browser consumer reads svg bytes for script whatever the label, so the label no longer denies an inert icon
describe('an svg icon declared text/plain is judged as the svg it is', () => {
  const icon =
    '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><path d="M2 2h12v12H2z" fill="currentColor"/></svg>\n';
  test('an inert icon is allowed', async () => {
    expect(await decide('guide://icons/close.svg', 'text/plain', icon)).toEqual({ effect: 'allow', why: '' });
  });
  test('an icon with a handler is still denied', async () => {
    const verdict = await decide('guide://icons/close.svg', 'text/plain', icon.replace('<path', '<path onclick="x()"'));
    expect(verdict.effect).toBe('deny');
    expect(verdict.why).toMatch(/event-handler/);
  });
});
