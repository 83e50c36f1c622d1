// Ordinary files the over-blocking measurement (bench/ordinary-files.ts: 1500 files of node_modules, seed 41) found
// withheld or denied under policies/default.yaml, kept allowed (issue 41 item 5). Each is committed as it was
// published (gzip of the package's file, `source` names it), so the test holds whatever node_modules holds: a node
// shebang over a javascript source or a declaration file, `#<Object>` in a changelog, a NEL or a stray U+0083 in
// text. Each has its denied twin: the same bytes made active for the consumer that reads them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const dir = path.join(import.meta.dirname, 'ordinary-files');
const gate = createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));

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

async function decide(uri: string, mimeType: string, text: string): Promise<{ effect: string; why: string }> {
  const decision = await gate.decideRead({
    stage: 'read',
    link: { type: 'resource_link', uri, name: path.basename(uri), mimeType },
    result: { resultType: 'complete', contents: [{ uri, mimeType, text }] },
  });
  return { effect: decision.effect, why: decision.reasons.map((r) => `${r.code}: ${r.message}`).join('; ') };
}

test('the list holds the files the measurement found', () => {
  expect(files.length).toBe(14);
});

describe('ordinary files once over-blocked are allowed, declared by extension and as text/plain', () => {
  test.for(files.flatMap((f) => [...new Set([f.mimeType, 'text/plain'])].map((mimeType) => ({ ...f, mimeType }))))(
    '$source as $mimeType ($why)',
    async (f) => {
      expect(await decide(uriOf(f.source), f.mimeType, textOf(f))).toEqual({ effect: 'allow', why: '' });
    },
  );
});

const byKind = (word: string): OrdinaryFile[] => files.filter((f) => f.why.includes(word));

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

  test.for(byKind('U+0085').map((f) => ({ ...f })))('$source with a C1 CSI in place of its NEL', async (f) => {
    const text = textOf(f).replace('\u0085', '\u009b2J');
    expect((await decide(uriOf(f.source), f.mimeType, text)).why).toMatch(/c1 control/);
  });
});
