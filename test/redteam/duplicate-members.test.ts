// A JSON text that names a member twice in one object (reading12, after round 10): JSON.parse keeps the last, so a
// refused resource_link in the first was judged as absent while the model reads the raw text, link and all. The proxy
// refuses such a line whole; the decorator and the Codex hook now withhold the text (a content text item, or a
// structuredContent given as a JSON string) with a notice, never hand it on. Controls: the same JSON with the member
// once is judged as before (the refused link replaced), and an ordinary text naming `Name` (a read name in another
// case, which only a wire reader folds) is delivered unchanged.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, test } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { callWith, fronts } from './hidden-fronts.ts';
import { closeAll, metadata } from './scripted-host.ts';

const repoRoot = join(import.meta.dirname, '../..');
const plain = JSON.stringify({ links: [{ type: 'resource_link', uri: metadata, name: 'm' }] });
const twice = `{"links":[{"type":"resource_link","uri":"${metadata}","name":"m"}],"links":[]}`;
const ordinary = JSON.stringify({ Name: 'Ada', Type: 'user', note: 'see the guide' });

describe('fronts: a JSON text item naming a member twice', () => {
  afterEach(closeAll);
  for (const [front, start] of fronts) {
    test(`${front}: the text is withheld, the refused link not handed on`, async () => {
      const answer = JSON.stringify(
        await callWith(await start(), { result: { content: [{ type: 'text', text: twice }] } }),
      );
      expect(answer).not.toContain('169.254.169.254');
      expect(answer).toMatch(/linkgate (withheld|refused)|"error":/);
    });
    test(`${front}: controls, the member once is judged as before and an ordinary Name is kept`, async () => {
      const once = JSON.stringify(
        await callWith(await start(), { result: { content: [{ type: 'text', text: plain }] } }),
      );
      expect(once).not.toContain('169.254.169.254');
      const kept = (await callWith(await start(), { result: { content: [{ type: 'text', text: ordinary }] } })) as {
        result?: { content?: { text?: string }[] };
      };
      expect(kept.result?.content?.[0]?.text).toBe(ordinary);
    });
  }
});

type Json = Record<string, unknown>;
// a PostToolUse event the real Codex sent for an MCP tool (test/real-host/observed), its response replaced
function codexEvent(response: Json): Json {
  const file = join(repoRoot, 'test/real-host/observed/codex/hook-events.json');
  const events = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const list = (Array.isArray(events) ? events : Object.values(events as Json)) as Json[];
  const event = list.find((e) => e['hook_event_name'] === 'PostToolUse' && String(e['tool_name']).startsWith('mcp__'));
  if (event === undefined) throw new Error(`no Codex PostToolUse MCP event in ${file}`);
  return { ...structuredClone(event), tool_response: response };
}

describe('the Codex hook: structuredContent as a JSON string naming a member twice', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'linkgate-twice-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const hook = (event: Json) =>
    runCli(
      ['hook', 'codex', '--policy', join(repoRoot, 'policies/default.yaml'), '--state', join(dir, 'state')],
      JSON.stringify(event),
    );

  for (const [name, response] of [
    ['structuredContent', { content: [{ type: 'text', text: 'see the links' }], structuredContent: twice }],
    ['a content text item', { content: [{ type: 'text', text: twice }] }],
  ] as const)
    it(`${name}: answered, the refused link not handed on`, async () => {
      const run = await hook(codexEvent(response));
      // an empty answer passes the result on as it came: the model would read the raw text
      expect(run.stdout).not.toBe('');
      expect(run.stdout).not.toContain('169.254.169.254');
    });

  it('control: the member once is judged as before', async () => {
    const run = await hook(
      codexEvent({ content: [{ type: 'text', text: 'see the links' }], structuredContent: plain }),
    );
    expect(run.stdout).not.toBe('');
    expect(run.stdout).not.toContain('169.254.169.254');
  });
});
