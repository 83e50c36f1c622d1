import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkRecordLines } from '../helpers/run-cli.ts';
import { givenOn } from '../redteam/round12-cases.ts';
import { hostPath, link, metadata } from '../redteam/scripted-host.ts';
import { hookScratch } from './hook-args.ts';
import { codexReadReturned, geminiReadReturned, readReturned } from './hook-events.ts';

// A read's body that is one JSON object or array is structured data (src/flow/read-body-links.ts): a refused link in it
// (the cloud metadata address) is replaced by its notice and the item handed on as its judged JSON, in each host's own
// read shape; an ordinary link in such a body is handed on as it came.
const hooks = hookScratch('linkgate-read-body-json-');
const doc = 'https://docs.example/r.json';
const ordinary = 'https://docs.example/guide/a.txt';
const body = (uri: string) => JSON.stringify({ content: [{ type: 'text', text: 'see' }, link(uri, 'next')] });

// [host, the post-read event whose one item is the JSON `text`]
const hosts: [string, (text: string) => unknown][] = [
  ['claude-code', (text) => readReturned('fixture', doc, [{ uri: doc, mimeType: 'application/json', text }])],
  ['codex', (text) => codexReadReturned('fixture', doc, [{ uri: doc, mimeType: 'application/json', text }])],
  ['gemini-cli', (text) => geminiReadReturned(doc, text)],
];

describe('linkgate hook: a read whose JSON body holds a link', () => {
  for (const [host, event] of hosts) {
    it(`${host}: a refused link in the body is replaced by its notice, the rest of the body handed on`, async () => {
      const sent = event(body(metadata));
      const run = await hooks.hook(host, sent);
      expect(run.code, run.stderr).toBe(0);
      const given = givenOn(run.stdout, sent);
      expect(given).not.toContain(hostPath);
      expect(given).toContain('linkgate refused the link `next`');
      expect(given).toContain('uri.non-public-address');
      // the body's other members reach the model
      expect(given).toContain('see');
      const records = linkRecordLines(readFileSync(join(hooks.dir, 'r.jsonl'), 'utf8')) as {
        uri: string;
        verdict: string;
      }[];
      expect(records.find((r) => r.uri === doc)?.verdict).toBe('partially-interpreted');
    });

    it(`control: ${host}: an ordinary link in the body is handed on unchanged`, async () => {
      const run = await hooks.hook(host, event(body(ordinary)));
      expect(run).toMatchObject({ code: 0, stdout: '' });
    });
  }
});
