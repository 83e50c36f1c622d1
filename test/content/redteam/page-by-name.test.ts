// A page by its name or type is judged by the browser's page rules alone (lead's design call, session 14: a body is
// judged only by the consumers that would read it). libxslt's manual pages (Debian's libxslt1-dev, 63 of
// /usr/share/doc's refusals in bench/ordinary-files.ts --seed 41, sent as text/plain) hold a GET search `<form>`: the
// markdown renderers' rule counts a form as active on a page they make of markdown, but a body named `.html` is a page
// whose markup holds its own forms, so the pages a renderer makes of it are judged by a browser page's rules (what
// runs). The oracle is Chromium serving the page as text/html: nothing runs and nothing is asked for off its origin.
// The same page with a script runs there and stays denied.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { profileGate } from '../consumers/profile-gate.ts';
import { useChromiumOracles } from './chromium-oracles.ts';
import { judgeSendings, letThrough, refused, type Sending } from './judge-variants.ts';

const { becomesLive, isLive } = useChromiumOracles();
const page = gunzipSync(
  readFileSync(
    path.join(
      import.meta.dirname,
      '../../conformance/ordinary-files/libxslt1-dev-1.1.35--html__APIconstructors.html.gz',
    ),
  ),
).toString('latin1');
const uri = 'guide://doc/libxslt1-dev/html/APIconstructors.html';
// (named `.xhtml` it is read by the browser's XML parser, whose reading of xhtml elements counts a form as active, as in
// an svg's `foreignObject`: not changed by the call)
const sendings: Sending[] = [
  [uri, 'text/plain'],
  ['guide://doc/libxslt1-dev/html/APIconstructors.htm', 'text/plain'],
];
// policies/default.yaml refuses text/html by name (and html undeclared by its real type): with it admitted, the bytes
// decide
const htmlGate = profileGate(undefined, ['text/html']);
// declared text/html it is a page whatever its uri's name: at a directory-style uri with no extension too
const htmlSendings: Sending[] = [
  [uri, 'text/html'],
  [uri, undefined],
  ['https://docs.example/guide/', 'text/html'],
  ['https://docs.example/guide/constructors', 'text/html'],
];

describe("libxslt's manual page with its search form", () => {
  test('is inert in Chromium and allowed when named or declared a page', { timeout: 60_000 }, async (ctx) => {
    expect(page).toMatch(/<form action="search\.php"[^>]*method="get"/);
    expect(await isLive(ctx, 'text/html', page)).toBe(false);
    expect(refused(await judgeSendings({ text: page }, sendings))).toEqual([]);
    expect(refused(await judgeSendings({ text: page }, htmlSendings, htmlGate))).toEqual([]);
  });

  test('with a script, runs in Chromium and is denied', { timeout: 60_000 }, async (ctx) => {
    const scripted = page.replace('</body>', "<script>fetch('http://ran.test/')</script></body>");
    expect(await becomesLive(ctx, 'text/html', scripted)).toBe(true);
    expect(letThrough(await judgeSendings({ text: scripted }, sendings))).toEqual([]);
    expect(letThrough(await judgeSendings({ text: scripted }, htmlSendings, htmlGate))).toEqual([]);
  });
});
