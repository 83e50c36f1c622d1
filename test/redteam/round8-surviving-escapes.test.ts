// Surviving forms of a refused address (issue 39, round 8's "not decoded yet", notices39): backslash escapes written
// inside HTML character references or percent encoding (`&#92;x2f`, `%5Cx2f`, `&bsol;u002f`: a browser or URL decoder
// gives `\x2f`, which a script or a model reads as `/`), and markdown and JavaScript escapes mixed in one text (a
// `\x5c.` that a script reads as the markdown escape `\.`). Each oracle is the readers in turn (entities' decodeHTML,
// decodeURIComponent, the script escapes, markdown-it); a control shows each reads the refused address out of the
// spelling. Beside the refusal and after it, through the proxy and the decorator over the real answering server, and
// as a notice's name (the sibling of a refused link).
import { decodeHTML } from 'entities';
import MarkdownIt from 'markdown-it';
import { afterEach, describe, expect, test } from 'vitest';
import { callWith, fronts, noticesIn } from './hidden-fronts.ts';
import { closeAll, hostPath, link, metadata } from './scripted-host.ts';
import { prose } from './round-cases.ts';

afterEach(closeAll);

const markdownIt = new MarkdownIt({ html: true, linkify: true });
const withoutScheme = metadata.slice('http://'.length);

const js = (s: string) =>
  s
    .replace(/\\x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)))
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
const markdown = (s: string) => decodeHTML(markdownIt.render(s).replace(/<[^>]*>/g, ''));
const percent = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

// [label, oracle, the text naming the address in that spelling]
const spellings: [string, (s: string) => string, string][] = [
  ['`\\x2f` inside character references', (s) => js(decodeHTML(s)), metadata.replaceAll('/', '&#92;x2f')],
  ['`\\x2f` percent-encoded', (s) => js(percent(s)), `fetch ${metadata.replaceAll('/', '%5Cx2f')}`],
  ['`\\u002f` as `&bsol;`', (s) => js(decodeHTML(s)), `see ${metadata.replaceAll('/', '&bsol;u002f')} now`],
  ['`\\x2e` as `&#x5c;`', (s) => js(decodeHTML(s)), metadata.replaceAll('.', '&#x5c;x2e')],
  [
    'a script escape spelling a markdown one',
    (s) => markdown(js(s)),
    `see http://${withoutScheme.replaceAll('.', '\\x5c.')}`,
  ],
  [
    'a reference spelling a markdown escape',
    (s) => markdown(decodeHTML(s)),
    `see http&#92;://${withoutScheme.replaceAll('.', '&#92;.')}`,
  ],
  [
    'markdown and script escapes mixed',
    (s) => js(markdown(s)),
    `see http\\://${withoutScheme.replaceAll('.', '\\.').replaceAll('/', '\\x2f')}`,
  ],
];

describe('surviving escapes: the oracles read the address out of each spelling', () => {
  for (const [label, oracle, text] of spellings)
    test(`control: ${label}`, () => {
      expect(oracle(text).toLowerCase()).toContain(hostPath);
      expect(text.toLowerCase()).not.toContain(hostPath);
    });
});

for (const [front, start] of fronts)
  describe(`surviving escapes through the ${front}`, () => {
    for (const [label, oracle, text] of spellings) {
      test(`${label}, beside the refused link, does not survive`, async () => {
        const f = await start();
        const answer = await callWith(f, { result: { content: [link(metadata, 'creds'), prose(text)] } });
        expect(JSON.stringify(answer)).toContain('linkgate');
        expect(JSON.stringify(answer)).not.toContain(JSON.stringify(text).slice(1, -1));
      });

      test(`${label}, in a later result, does not survive`, async () => {
        const f = await start();
        await callWith(f, { result: { content: [link(metadata, 'creds')] } });
        const answer = await callWith(f, { result: { content: [prose(text)] } });
        expect(JSON.stringify(answer)).not.toContain(JSON.stringify(text).slice(1, -1));
      });

      test(`${label}, as a refused sibling's name, is left out of its notice`, async () => {
        const f = await start();
        const other = 'http://10.0.0.7/admin/keys';
        const answer = await callWith(f, { result: { content: [link(metadata, 'creds'), link(other, text)] } });
        const notices = noticesIn(answer);
        expect(notices.length).toBeGreaterThanOrEqual(2);
        for (const notice of notices) expect(oracle(notice).toLowerCase()).not.toContain(hostPath);
      });
    }
  });
