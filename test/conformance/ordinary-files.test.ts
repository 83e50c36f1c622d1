// Ordinary files the over-blocking measurement (bench/ordinary-files.ts: 1500 files of node_modules, seed 41) found
// withheld or denied under policies/default.yaml, kept allowed (issue 41 item 5). Each is committed as it was
// published (gzip of the package's file, `source` names it), so the test holds whatever node_modules holds: a node
// shebang over a javascript source or a declaration file, `#<Object>` in a changelog, a NEL or a stray U+0083 in
// text, a fenced `<script>` or `onerror` sample in a readme sent as application/octet-stream (judged with that type
// added to `content.allow`: the shipped policy refuses it by name). Each has its denied twin: the same bytes made
// active for the consumer that reads them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy, parsePolicy } from '../../src/policy/load-policy.ts';
import { pdfJsOpenScripts } from '../content/pdf/pdfjs-oracle.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const dir = path.join(import.meta.dirname, 'ordinary-files');
const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));
const octet = 'application/octet-stream';
// policies/default.yaml with octet-stream admitted, so the bytes decide
const octetGate = createGate(
  parsePolicy(
    readFileSync(path.join(repoRoot, 'policies/default.yaml'), 'utf8').replace(
      /^content:\n {2}allow:\n/m,
      `content:\n  allow:\n    - ${octet}\n`,
    ),
    'default.yaml',
  ),
);

interface OrdinaryFile {
  file: string;
  source: string;
  mimeType: string;
  why: string;
}

const files = readFileSync(path.join(dir, 'manifest.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as OrdinaryFile);

const uriOf = (source: string): string => `guide://corpus/${source.replace(/@[^@ ]+ /, '/')}`;
const textOf = (f: OrdinaryFile): string => gunzipSync(readFileSync(path.join(dir, f.file))).toString('utf8');

// an octet-stream body is sent as a blob, as a server sends bytes it has no type for
async function decide(uri: string, mimeType: string, text: string): Promise<{ effect: string; why: string }> {
  const body = mimeType === octet ? { blob: Buffer.from(text).toString('base64') } : { text };
  const decision = await (mimeType === octet ? octetGate : gate).decideRead({
    stage: 'read',
    link: { type: 'resource_link', uri, name: path.basename(uri), mimeType },
    result: { resultType: 'complete', contents: [{ uri, mimeType, ...body }] },
  });
  return { effect: decision.effect, why: decision.reasons.map((r) => `${r.code}: ${r.message}`).join('; ') };
}

test('the list holds the files the measurement found', () => {
  expect(files.length).toBe(18);
});

describe('ordinary files once over-blocked are allowed, declared as listed and as text/plain', () => {
  test.for(files.flatMap((f) => [...new Set([f.mimeType, 'text/plain'])].map((mimeType) => ({ ...f, mimeType }))))(
    '$source as $mimeType ($why)',
    async (f) => {
      expect(await decide(uriOf(f.source), f.mimeType, textOf(f))).toEqual({ effect: 'allow', why: '' });
    },
  );
});

const byKind = (word: string): OrdinaryFile[] => files.filter((f) => f.why.includes(word));

// the program sources among the octet-stream files (src/content/text/uri-extension.ts's list has these and more)
const programSource = /\.(?:[cm]?js|[cm]?ts)$/;

describe('their twins, made active, are still refused', () => {
  test.for(byKind('shebang').map((f) => ({ ...f })))('$source under a shell shebang, or under no name', async (f) => {
    const text = textOf(f);
    const sh = text.replace(/^#![^\n]*/, '#!/bin/sh');
    expect((await decide(uriOf(f.source), 'text/plain', sh)).why).toMatch(/shebang script/);
    expect((await decide('guide://corpus/bin/tool', 'text/plain', text)).why).toMatch(/shebang script/);
  });

  test.for(byKind('Object').map((f) => ({ ...f })))('$source with an object that loads a plugin', async (f) => {
    const text = textOf(f).replace('#<Object>', '#<Object data="http://evil.test/x.swf">');
    expect((await decide(uriOf(f.source), f.mimeType, text)).why).toMatch(/plugin element/);
    const param = textOf(f).replace('#<Object>', '#<Object><param name="movie" value="http://evil.test/x.swf">');
    expect((await decide(uriOf(f.source), f.mimeType, param)).why).toMatch(/plugin parameter/);
  });

  // a page by its name is judged by a browser page's rules (lead's design call, session 14); without a page name a
  // text/plain body is markdown, whose rendered pages count a form as active
  test.for(byKind('search `<form>`').map((f) => ({ ...f })))(
    '$source with a script, or under no page name',
    async (f) => {
      const text = textOf(f);
      const scripted = text.replace('</body>', '<script>alert(1)</script></body>');
      expect((await decide(uriOf(f.source), f.mimeType, scripted)).why).toMatch(/`<script>` element/);
      expect((await decide('guide://corpus/download', 'text/plain', text)).why).toMatch(
        /markdown renders to html with a form/,
      );
    },
  );

  test.for(byKind('U+0085').map((f) => ({ ...f })))('$source with a C1 CSI in place of its NEL', async (f) => {
    const text = textOf(f).replace('\u0085', '\u009b2J');
    expect((await decide(uriOf(f.source), f.mimeType, text)).why).toMatch(/c1 control/);
  });

  test.for(byKind('octet-stream').map((f) => ({ ...f })))(
    '$source as octet-stream with a live sample, or opening with one',
    async (f) => {
      const text = textOf(f);
      // named as markdown: the renderers read a sample outside its fence as raw html
      if (/\.md$/i.test(f.source)) {
        const live = `${text}\n<img src="x" onerror="alert(1)">\n`;
        expect((await decide(uriOf(f.source), octet, live)).why).toMatch(/handler|onerror/);
      }
      // a body that opens with a tag is read as the page it looks like, unless its name says it is program source
      // (a host going by the name shows code, and no browser sniffs octet-stream: 0bf57af)
      const opening = `<script>alert(1)</script>\n${text}`;
      for (const uri of [uriOf(f.source), 'guide://corpus/download'])
        if (programSource.test(uri)) expect((await decide(uri, octet, opening)).effect, uri).toBe('allow');
        else expect((await decide(uri, octet, opening)).why, uri).toMatch(/`<script>` element/);
      // named as a page, it is one
      expect((await decide('guide://corpus/page.html', octet, text)).effect).not.toBe('allow');
    },
  );
});

// A minimal twin of nodejs's CHANGELOG_V20.md (Debian's /usr/share/doc/nodejs, found by bench/ordinary-files.ts
// --root /usr/share): a `trailer` word, a `<<` and an MDN link whose path holds `/JavaScript` read as a pdf's object
// layer. pdf.js opens nothing in it (the oracle); what pdf.js needs, a `trailer` dictionary or an object, still is.
describe('prose naming pdf words is not a pdf; a pdf pdf.js opens in prose still is', () => {
  const changelog = [
    '# Changelog',
    '',
    '* **http**: use null prototype for headersDistinct/trailersDistinct',
    '* **http**: send the trailer',
    'trailer fields are sent after the body, see [import.meta.resolve](https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Operators/import.meta/resolve)',
    '* **src**: use `std::cout << value` in the inspector, and mention startxref and %%EOF',
    '',
  ].join('\n');
  const catalog =
    '<< /Type /Catalog /Pages << /Type /Pages /Kids [] /Count 0 >> /OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >> >>';

  test('the changelog is allowed, and pdf.js opens no document in it', async () => {
    expect(await pdfJsOpenScripts(Buffer.from(changelog)).catch((e: Error) => e.message)).toMatch(/invalid pdf/i);
    for (const mimeType of ['text/markdown', 'text/plain'])
      expect(await decide('guide://corpus/nodejs/CHANGELOG_V20.md', mimeType, changelog)).toEqual({
        effect: 'allow',
        why: '',
      });
  });

  test.for([
    ['an inline trailer', `${changelog}trailer\n<< /Root ${catalog} >>\n`],
    ['an inline trailer after a comment', `${changelog}trailer % root\n<< /Root ${catalog} >>\n`],
    ['an inline trailer after 300 spaces', `${changelog}trailer${' '.repeat(300)}<< /Root ${catalog} >>\n`],
  ])('the changelog with %s whose script pdf.js runs is denied', async ([, text]) => {
    expect(await pdfJsOpenScripts(Buffer.from(text as string))).toEqual(['app.alert(1)']);
    for (const mimeType of ['text/markdown', 'text/plain'])
      expect((await decide('guide://corpus/nodejs/CHANGELOG_V20.md', mimeType, text as string)).why).toMatch(
        /pdf active content `\/JavaScript`/,
      );
  });

  test('the changelog with an object holding an action is denied', async () => {
    const text = `${changelog}\n1 0 obj\n${catalog}\nendobj\n`;
    expect((await decide('guide://corpus/nodejs/CHANGELOG_V20.md', 'text/plain', text)).why).toMatch(
      /pdf active content `\/JavaScript`/,
    );
  });
});
