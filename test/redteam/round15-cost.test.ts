// Red team (issue 39, hidden-style round 15), cost of one event in the in-process hooks, which have no process to
// kill and no budget of their own: the host's event loop runs the judging, so work that never yields holds the
// whole agent, and the SDK's own hook timeout cannot fire. A rendered link line padded with `] guide://a (` (every
// split a candidate), 4 000 lines of 60 splits each, through the Claude Agent SDK's hooks; 5 000 links, the refused
// one last, through the Copilot SDK's; and through Codex's hook a `structuredContent` 200 objects deep and one of
// 300 000 members, the metadata uri last. Each must answer with nothing refused handed on; the work is bounded by the
// caps (the split cap, the item cap, the JSON caps), counted here as the answer's withheld items, never timed: CPU
// and wall time are printed as `[measure]`.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none.
import { describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { measured } from './round10-hosts.ts';
import { givenOn } from './round12-cases.ts';
import { doc } from './round13-hosts.ts';
import { agentGiven, codexResult, copilotGiven, copilotHooks } from './round15-fronts.ts';
import { hostPath, link, metadata } from './scripted-host.ts';

const hooks = hookScratch('linkgate-redteam-r15cost-');
const within = { timeout: 120_000 };
const text = (t: string) => ({ type: 'text', text: t });

describe('red team, cost (round 15): crafted lines through the Claude Agent SDK hooks, in process', () => {
  test('a link line padded with 5 000 `] guide://a (`, the metadata uri last: answered, withheld', within, async () => {
    const line = `[Resource link: x${'] guide://a ('.repeat(5000)}] ${metadata} (d)`;
    const given = await measured('agent padded line', () => agentGiven([text(line), link(doc, 'a')]));
    expect(given).not.toContain(hostPath);
    expect(given).toContain('linkgate withheld');
  });
  test('4 000 lines of 60 splits each, then the metadata link: answered, not handed on', within, async () => {
    const line = (i: number) =>
      `[Resource link: n${i}${'] guide://a'.repeat(30)}${' (x'.repeat(29)}] guide://p/${i} (d)`;
    const items = [...Array.from({ length: 4000 }, (_, i) => text(line(i))), text(`[Resource link: c] ${metadata}`)];
    const given = await measured('agent 4 000 lines of 60 splits', () => agentGiven(items));
    expect(given).not.toContain(hostPath);
  });
  test('control: an ordinary rendered line is left alone', async () => {
    const items = [text(`[Resource link: a] ${doc}`)];
    const given = await agentGiven(items);
    expect(given).not.toContain('hookSpecificOutput');
    expect(given).toContain(doc);
  });
});

describe('red team, cost (round 15): many links through the Copilot SDK hooks, in process', () => {
  test('5 000 links, the metadata link last: answered, not in what the model reads', within, async () => {
    const items = [
      ...Array.from({ length: 5000 }, (_, i) => link(`https://docs.example/p/${i}.txt`, `p${i}`)),
      link(metadata, 'creds'),
    ];
    const given = await measured('copilot 5 001 links', async () => copilotGiven(await copilotHooks(hooks.dir), items));
    expect(given).not.toContain(hostPath);
  });
});

describe("red team, cost (round 15): Codex's structuredContent shaped to cost", () => {
  const nested = (depth: number, uri: string) => {
    let value: unknown = link(uri, 'c');
    for (let i = 0; i < depth; i += 1) value = { a: value };
    return value;
  };
  test('200 objects deep, the metadata link at the bottom: answered, not handed on', within, async () => {
    const event = codexResult({ content: [text('ok')], structuredContent: nested(200, metadata) });
    const run = await measured('codex 200 deep', () => hooks.hook('codex', event));
    expect(run.code, run.stderr).toBe(0);
    expect(givenOn(run.stdout, event)).not.toContain(hostPath);
  });
  test('300 000 members, the metadata uri last: answered, not handed on', within, async () => {
    const members: Record<string, string> = {};
    for (let i = 0; i < 300_000; i += 1) members[`k${i}`] = 'x';
    members['z'] = metadata;
    const event = codexResult({ content: [text('ok')], structuredContent: members });
    const run = await measured('codex 300 000 members', () => hooks.hook('codex', event));
    expect(run.code, run.stderr).toBe(0);
    expect(givenOn(run.stdout, event)).not.toContain(hostPath);
  });
  test('control: 10 objects deep, an ordinary link at the bottom: handed on', async () => {
    const run = await hooks.hook('codex', codexResult({ content: [text('ok')], structuredContent: nested(10, doc) }));
    expect(run.stdout).toBe('');
  });
});
