// The hook records every link a tool result lists (issue 40 item 3): a link allowed and never read leaves a discovery
// record written as the hook judges the result (superseded by a later record of the same link), so the report counts
// it once, as never read; a link over the per-event cap is withheld and recorded too (`content.too-many-items`). On
// main the hook wrote nothing for an unread link, and nothing for a link over the cap: the report said "0 never read".
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maxLinksPerEvent } from '../../src/hook/session-state.ts';
import { jsonLines, runCli } from '../helpers/run-cli.ts';
import { readRequested, readReturned, toolReturned } from './hook-events.ts';

type Json = Record<string, unknown>;
let dir: string;
let records: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-discovery-'));
  records = join(dir, 'records.jsonl');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const hook = (event: unknown) =>
  runCli(
    ['hook', 'claude-code', '--policy', 'policies/default.yaml', '--state', join(dir, 'state'), '--records', records],
    JSON.stringify(event),
  );
const written = () => jsonLines(readFileSync(records, 'utf8')) as Json[];
const link = (name: string, uri: string) => ({ type: 'text', text: `[Resource link: ${name}] ${uri}` });

async function report(): Promise<Json> {
  const run = await runCli(['report', '--format', 'json', records], '');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Json;
}

describe('claude code: links listed and never read', () => {
  it('each leaves a discovery record; a read supersedes it; the report counts the unread one once, as never read', async () => {
    const post = await hook(
      toolReturned('docs', 'get', [
        link('a', 'guide://manuals/a'),
        link('b', 'guide://manuals/b'),
        link('pw', 'file:///etc/passwd'),
      ]),
    );
    expect(post.code, post.stderr).toBe(0);
    const after = written();
    const kinds = (uri: string) => after.filter((r) => r['uri'] === uri).map((r) => r['kind'] ?? 'link');
    console.info(
      `[measure] records after the tool result: ${after.length} (${JSON.stringify(after.map((r) => r['kind'] ?? 'link'))})`,
    );
    expect(kinds('guide://manuals/a')).toEqual(['discovered']);
    expect(kinds('guide://manuals/b')).toEqual(['discovered']);
    expect(kinds('file:///etc/passwd')).toEqual(['link']);
    const discovered = after.find((r) => r['uri'] === 'guide://manuals/a') as Json;
    expect(discovered).toMatchObject({ verdict: 'link-only', host: { name: 'claude-code' } });
    expect((discovered['stages'] as Json)['requested']).toBeNull();

    // the model reads `a`: its read supersedes the discovery record
    expect((await hook(readRequested('docs', 'guide://manuals/a'))).code).toBe(0);
    const body = [{ uri: 'guide://manuals/a', mimeType: 'text/plain', text: 'packing list\n' }];
    expect((await hook(readReturned('docs', 'guide://manuals/a', body))).code).toBe(0);

    const json = await report();
    const text = (await runCli(['report', records], '')).stdout;
    console.info(
      `[measure] report: ${text.split('\n').find((l) => l.includes('never read')) ?? '(no never-read line)'}`,
    );
    // three links, each counted once: a delivered, b never read, pw refused
    expect(text).toMatch(/1\s+delivered whole, 1 never read/);
    expect(JSON.stringify(json)).toContain('"links":3');
  });
});

describe('claude code: links over the per-event cap', () => {
  it('are withheld with a notice naming their record, and recorded with the cap reason code', async () => {
    const pad = Array.from({ length: maxLinksPerEvent }, (_, i) => link(`pad ${i}`, `guide://pad/${i}`));
    const over = [link('key', 'vault://keys/prod'), link('second', 'vault://keys/other')];
    const post = await hook(toolReturned('docs', 'get', [...pad, ...over]));
    expect(post.code, post.stderr).toBe(0);
    const output = JSON.parse(post.stdout).hookSpecificOutput.updatedToolOutput as { text: string }[];
    expect(output[maxLinksPerEvent]?.text).toMatch(
      // an event past the cap names no link (its capped links' addresses are unknown: any name may spell one)
      /^linkgate withheld the link \(scheme `vault`\): content\.too-many-items/,
    );
    expect(output[maxLinksPerEvent]?.text).toMatch(/record `[0-9a-f]{10}`/);
    const all = written();
    const finals = all.filter((r) => r['kind'] === undefined);
    console.info(`[measure] ${all.length} records for ${maxLinksPerEvent + 2} links, ${finals.length} final`);
    expect(all).toHaveLength(maxLinksPerEvent + 2);
    for (const uri of ['vault://keys/prod', 'vault://keys/other']) {
      const r = finals.find((f) => f['uri'] === uri) as Json;
      expect(r).toMatchObject({ verdict: 'link-only' });
      const codes = ((r['decisions'] as Json)['link'] as { reasons: { code: string }[] }).reasons.map((x) => x.code);
      expect(codes).toEqual(['content.too-many-items']);
    }
  });
});
