// Hosts that cut or replace a read's body before the hook sees it (issue 32, item 3): Codex CLI 0.171 cuts a read's
// output to about 12 000 characters with `…N chars truncated…` in the middle (observed with an 11 MiB text read),
// Gemini CLI 0.61 passes a blob item as `[Binary Data (<type>)]`. Neither is ever judged or recorded as the whole body.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { linkRecordLines, runCli } from '../helpers/run-cli.ts';

type Event = Record<string, unknown>;
const observed = (host: string) =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, `../real-host/observed/${host}/hook-events.json`), 'utf8')
      .replaceAll('<run>', '/tmp/linkgate-cut-run')
      .replaceAll('<uuid>', 'u1')
      .replaceAll('<stamp>', '1'),
  ) as Event[];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-cut-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function hook(host: string, event: Event, mode: 'enforce' | 'observe' = 'enforce') {
  const state = join(dir, `state-${mode}`);
  const args = ['hook', host, '--policy', 'policies/default.yaml', '--state', state, '--records', join(dir, 'r.jsonl')];
  return runCli([...args, '--mode', mode], JSON.stringify(event));
}
const records = () => linkRecordLines(readFileSync(join(dir, 'r.jsonl'), 'utf8')) as LinkRecord[];

// the body of an 11 MiB text read, and Codex's read output for it cut as Codex 0.171 cuts it: the first and last
// 6 000 characters of the JSON text, `…N chars truncated…` between them
const line = (i: number) => `line ${String(i).padStart(8, '0')} CUT-BODY-MARKER of the huge text body\n`;
const huge = Array.from({ length: (11 * 1024 * 1024) / line(0).length + 1 }, (_, i) => line(i)).join('');
function codexCut(uri: string, contents: unknown[]): string {
  const whole = JSON.stringify({ server: 'fixture', uri, contents });
  const keep = 6000;
  return `${whole.slice(0, keep)}…${whole.length - 2 * keep} chars truncated…${whole.slice(-keep)}`;
}

function codexRead(phase: 'PreToolUse' | 'PostToolUse', uri: string, response?: string): Event {
  const template = observed('codex').find(
    (e) => e['hook_event_name'] === phase && e['tool_use_id'] === 'call_read_text',
  ) as Event;
  const event = { ...template, tool_input: { server: 'fixture', uri }, tool_use_id: 'call_huge' };
  return response === undefined ? event : { ...event, tool_response: response };
}

describe('codex cli: a read output Codex cut before the hook', () => {
  const uri = 'fixture://docs/huge.txt';
  const cut = codexCut(uri, [{ uri, mimeType: 'text/plain', text: huge }]);

  it('the cut is what Codex hands the hook: about 12 000 characters that still parse', () => {
    expect(huge.length).toBeGreaterThan(11 * 1024 * 1024);
    expect(cut.length).toBeLessThan(12_100);
    expect(JSON.parse(cut)).toMatchObject({ contents: [{ uri, mimeType: 'text/plain' }] });
  });

  it('enforce: withheld as over the cap, nothing of it reaches the model, the record is not body-obtained', async () => {
    expect(await hook('codex', codexRead('PreToolUse', uri))).toMatchObject({ code: 0, stdout: '' });
    const run = await hook('codex', codexRead('PostToolUse', uri, cut));
    expect(run.code, run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe('block');
    expect(answer.reason).not.toContain('CUT-BODY-MARKER');
    expect(answer.reason).toContain('content.too-large');
    const [record] = records();
    expect(record?.verdict).toBe('link-only');
    expect(record?.stages.received).toMatchObject({ truncated: true });
    expect(record?.decisions.read?.reasons.map((r) => [r.code, r.rule])).toContainEqual([
      'content.too-large',
      'read.maxBytes',
    ]);
    expect(record?.decisions.read?.reasons.at(-1)?.message).toContain('chars truncated…');
    expect(recordViolations(record as LinkRecord)).toEqual([]);
  });

  it('observe: answers nothing, and records the would-deny of a cut body (never body-obtained)', async () => {
    expect(await hook('codex', codexRead('PreToolUse', uri), 'observe')).toMatchObject({ code: 0, stdout: '' });
    expect(await hook('codex', codexRead('PostToolUse', uri, cut), 'observe')).toMatchObject({ code: 0, stdout: '' });
    const [record] = records();
    expect(record).toMatchObject({ mode: 'observe', wouldDeny: true, verdict: 'partially-interpreted' });
    expect(record?.stages.received).toMatchObject({ truncated: true });
    expect(recordViolations(record as LinkRecord)).toEqual([]);
  });

  it('a cut that leaves the other items whole: only the cut one is taken as over the cap', async () => {
    const contents = [
      { uri, mimeType: 'text/plain', text: huge.slice(0, 6 * 1024 * 1024) },
      { uri, mimeType: 'text/plain', text: 'SECOND-ITEM' },
    ];
    const run = await hook('codex', codexRead('PostToolUse', uri, codexCut(uri, contents)));
    const answer = JSON.parse(run.stdout) as { reason: string };
    expect(answer.reason).not.toContain('CUT-BODY-MARKER');
    const [record] = records();
    expect(record?.decisions.read?.items?.map((i) => [i.index, i.effect])).toEqual([
      [0, 'deny'],
      [1, 'allow'],
    ]);
    expect(record?.verdict).toBe('link-only');
  });

  it('an output with no marker is judged as before: the whole body', async () => {
    const whole = JSON.stringify({ server: 'fixture', uri, contents: [{ uri, mimeType: 'text/plain', text: 'hi' }] });
    expect(await hook('codex', codexRead('PostToolUse', uri, whole))).toMatchObject({ code: 0, stdout: '' });
    expect(records()[0]).toMatchObject({ verdict: 'body-obtained' });
    expect(records()[0]?.stages.received?.truncated).toBeUndefined();
  });
});

describe('gemini cli: a read whose blob Gemini replaced by its placeholder', () => {
  const uri = 'fixture://docs/readme.txt';
  const geminiRead = (llmContent: string): Event => {
    const template = observed('gemini-cli').find(
      (e) => e['hook_event_name'] === 'AfterTool' && e['tool_name'] === 'read_mcp_resource',
    ) as Event;
    return { ...template, tool_input: { uri }, tool_response: { llmContent, returnDisplay: 'read' } };
  };
  // Gemini joins the items: the text item's text and a newline, then the blob item's placeholder and a newline
  const mixed = 'TEXT-PART of the readme\n[Binary Data (image/png)]\n';

  it('observe: the text item delivered, the blob recorded as not delivered (not body-obtained)', async () => {
    expect(await hook('gemini-cli', geminiRead(mixed), 'observe')).toMatchObject({ code: 0, stdout: '' });
    const [record] = records();
    expect(record?.verdict).not.toBe('body-obtained');
    expect(record?.stages.received?.itemCount).toBe(2);
    expect(record?.stages.delivered?.items).toEqual([0]);
    expect(record?.stages.delivered?.dropped).toEqual([{ index: 1, effect: 'deny', codes: ['content.shape'] }]);
    expect(record).toMatchObject({ wouldDeny: true });
    expect(recordViolations(record as LinkRecord)).toEqual([]);
  });

  it('enforce: the bodiless blob is withheld (content.shape) and the record says nothing was obtained', async () => {
    const answer = JSON.parse((await hook('gemini-cli', geminiRead(mixed))).stdout) as {
      decision: string;
      reason: string;
    };
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toContain('content.shape');
    expect(records()[0]?.verdict).toBe('link-only');
  });

  it('a text read with no placeholder stays one text item, delivered whole', async () => {
    expect(await hook('gemini-cli', geminiRead('just text\n'), 'observe')).toMatchObject({ code: 0, stdout: '' });
    expect(records()[0]).toMatchObject({ verdict: 'body-obtained' });
  });
});
