// Red team (issue 39, hidden-style round 14), cost of one event's links as a server can shape them: a rendered link
// line padded with `] guide://a (` (Claude Code's shape) or ` at ` (Gemini CLI's) so every split is a candidate, a
// result of a thousand lines each just under the split cap, and the padding of a result past the links the state
// keeps (through Cline's hook, which earlier rounds padded least) before a read of a link past it from another
// server. Each hook as the host runs it must answer, hand on nothing refused, and keep the same-server check; CPU and
// wall time are printed as `[measure]`, never asserted.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none.
import { describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { toolReturned } from '../hook/hook-events.ts';
import { geminiToolReturned, measured } from './round10-hosts.ts';
import { givenOn } from './round12-cases.ts';
import { clineResult, doc } from './round13-hosts.ts';
import { hostPath, link, metadata } from './scripted-host.ts';

const hooks = hookScratch('linkgate-redteam-r14cost-');
const within = { timeout: 120_000 };
const text = (t: string) => ({ type: 'text', text: t });

describe('red team, cost (round 14): crafted rendered link lines', () => {
  test(
    'claude-code: a link line padded with 5 000 `] guide://a (`, the metadata uri last: answered, not handed on',
    within,
    async () => {
      const line = `[Resource link: x${'] guide://a ('.repeat(5000)}] ${metadata} (d)`;
      const event = toolReturned('fixture', 'links', [text(line), link(doc, 'a')]);
      const run = await measured('claude-code padded line', () => hooks.hook('claude-code', event));
      expect(run.code, run.stderr).toBe(0);
      expect(givenOn(run.stdout, event)).not.toContain(hostPath);
    },
  );
  test(
    'gemini-cli: a `Resource Link:` line padded with 20 000 ` at `, the metadata uri last: answered, not handed on',
    within,
    async () => {
      const event = geminiToolReturned([[metadata, `x${' at '.repeat(20_000)}`]]);
      const run = await measured('gemini padded line', () => hooks.hook('gemini-cli', event));
      expect(run.code, run.stderr).toBe(0);
      expect(givenOn(run.stdout, event)).not.toContain(hostPath);
    },
  );
  test(
    'claude-code: 1 000 lines each of 60 splits, then the metadata link: answered, not handed on',
    within,
    async () => {
      const line = (i: number) =>
        `[Resource link: n${i}${'] guide://a'.repeat(30)}${' (x'.repeat(29)}] guide://p/${i} (d)`;
      const items = [
        ...Array.from({ length: 1000 }, (_, i) => text(line(i))),
        text(`[Resource link: creds] ${metadata}`),
      ];
      const event = toolReturned('fixture', 'links', items);
      const run = await measured('claude-code 1 000 lines of 60 splits', () => hooks.hook('claude-code', event));
      expect(run.code, run.stderr).toBe(0);
      expect(givenOn(run.stdout, event)).not.toContain(hostPath);
    },
  );
  test('control: claude-code: an ordinary rendered line is left alone', async () => {
    const run = await hooks.hook('claude-code', toolReturned('fixture', 'links', [text(`[Resource link: a] ${doc}`)]));
    expect(run.stdout).toBe('');
  });
});

describe('red team, cost (round 14): padding past the links the state keeps, through Cline', () => {
  const key = 'vault://keys/prod';
  const padded = [
    ...Array.from({ length: 1100 }, (_, i) => link(`https://docs.example/p/${i}.txt`, `p${i}`)),
    link(key, 'key'),
  ];
  const readFrom = (server: string) => ({
    hookName: 'tool_call',
    taskId: 'conv_1',
    tool_call: { id: 'toolu_read', name: 'access_mcp_resource', input: { server_name: server, uri: key } },
  });
  test('1 100 links then the key from fx: a read of the key from another server is refused', within, async () => {
    const returned = await measured('cline 1 101 links', () => hooks.hook('cline', clineResult({ content: padded })));
    expect(returned.code, returned.stderr).toBe(0);
    const run = await hooks.hook('cline', readFrom('other'));
    expect(run.stdout).toContain('linkgate');
  });
  test('control: the key alone from fx: a read from fx goes ahead', async () => {
    await hooks.hook('cline', clineResult({ content: [link(key, 'key')] }));
    expect((await hooks.hook('cline', readFrom('fx'))).stdout).toBe('');
  });
});
