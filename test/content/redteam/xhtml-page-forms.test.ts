// An XHTML page's own forms, frames, relative refresh and `base` are its own, as an HTML page's are (lead's design
// call, session 14: a page is judged by the browser's page rules): a `.xhtml` manual with a GET search form, sent as
// text/plain, octet-stream or no type (a host saving it opens it by its name) or declared application/xhtml+xml, was
// denied because its XML reading judged every xhtml element as `foreignObject` content in an SVG. What runs on the
// page (script, a refresh to another origin) is still denied, and xhtml inside an SVG's `foreignObject` keeps the
// rendered rules. The oracle is Chromium serving the page as application/xhtml+xml.
import { describe, expect, test } from 'vitest';
import { findActiveXml } from '../../../src/content/svg-html/active-xml.ts';
import { profileGate } from '../consumers/profile-gate.ts';
import { useChromiumOracles } from './chromium-oracles.ts';
import { judgeSendings, letThrough, refused, type Sending } from './judge-variants.ts';

const { becomesLive, isLive } = useChromiumOracles();
const manual = (head: string, body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" lang="en"><head><title>Manual: constructors</title>${head}</head>
<body><h1>Constructors</h1>
<form action="search.php" method="get"><p><input name="query" type="text" size="20" value=""/>
<input name="submit" type="submit" value="Search"/></p></form>
<p>Each constructor returns a new <code>xsltStylesheetPtr</code>.</p>${body}</body></html>
`;
const sendings: Sending[] = [['guide://doc/manual/constructors.xhtml', 'text/plain']];
// policies/default.yaml refuses pages (and octet-stream) by their type: with them admitted, the bytes decide
const pageGate = profileGate(undefined, ['text/html', 'application/xhtml+xml', 'application/octet-stream']);
const pageSendings: Sending[] = [
  ['https://docs.example/guide/', 'application/xhtml+xml'],
  ['guide://doc/manual/constructors.xhtml', 'application/xhtml+xml'],
  ['guide://doc/manual/constructors.xhtml', 'application/octet-stream'],
  ['guide://doc/manual/constructors.xhtml', undefined],
];

describe('an xhtml manual page with its search form', () => {
  test('is inert in Chromium and allowed', { timeout: 60_000 }, async (ctx) => {
    const page = manual('', '');
    expect(await isLive(ctx, 'application/xhtml+xml', page)).toBe(false);
    expect(refused(await judgeSendings({ text: page }, sendings))).toEqual([]);
    expect(refused(await judgeSendings({ text: page }, pageSendings, pageGate))).toEqual([]);
  });

  test.for([
    ['a script', '', `<script>fetch('http://ran.test/')</script>`],
    ['a refresh to another origin', '<meta http-equiv="refresh" content="0;url=http://elsewhere.test/"/>', ''],
  ] as const)('with %s, live in Chromium and denied', { timeout: 60_000 }, async ([, head, body], ctx) => {
    const page = manual(head, body);
    expect(await becomesLive(ctx, 'application/xhtml+xml', page)).toBe(true);
    expect(letThrough(await judgeSendings({ text: page }, sendings))).toEqual([]);
    expect(letThrough(await judgeSendings({ text: page }, pageSendings, pageGate))).toEqual([]);
  });

  test("xhtml in an svg's foreignObject keeps the rendered rules", () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg"><foreignObject width="9" height="9"><form xmlns="http://www.w3.org/1999/xhtml" action="https://elsewhere.test/"/></foreignObject></svg>`;
    expect(findActiveXml(svg, 'svg').active).toMatch(/^xhtml content holds/);
  });
});
