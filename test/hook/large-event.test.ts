// A large hook event answers well within the host's timeout (issue 39 item 1, what was left). On main a 64 MiB tool
// result of about 490 000 links (under the event's value cap) was judged link by link: the 1 024 the state keeps,
// then a record and a notice for every link past the cap. It took 18.8 s at load 12 on 2 cores, and the
// fail-closed answer of the hook's own 20 s deadline came at 22–24 s, close to the 30 s a host gives the hook.
// Now a result of more than `maxItemsPerEvent` items is withheld whole before any item is judged, and the state
// keeps that it could not keep the server's links. Each case runs the hook as its own process, as the host does,
// and waits for it to end (no timed assertion): the answer must withhold the result, by the item cap or by the
// hook's deadline, never pass a link of it on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { maxEventBytes } from '../../src/cli/hook-command.ts';
import { maxItemsPerEvent } from '../../src/hook/event-budget.ts';
import { maxLinksPerEvent } from '../../src/hook/session-state.ts';
import { runCli } from '../helpers/run-cli.ts';
import { readRequested } from './hook-events.ts';
import { runHookProcess } from './hook-process.ts';

const dir = mkdtempSync(join(tmpdir(), 'linkgate-large-event-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const timings: string[] = [];
afterAll(() => console.log(`[measure] hook answer times, large events: ${timings.join(', ')}`));

const state = (host: string) => join(dir, host);
const refused = 'http://169.254.169.254/latest/meta-data';
const vault = 'vault://keys/prod';
const padName = 'p'.repeat(58);

/** A post event of `host` whose tool result holds `count` links (padding, then `vault`, then the refused link). */
function linksEvent(host: 'codex' | 'claude-code', count: number): string {
  const uris = Array.from({ length: count - 2 }, (_, i) => `guide://pad/${i}`);
  uris.push(vault, refused);
  const items = uris.map((uri, i) =>
    host === 'codex'
      ? `{"type":"resource_link","uri":"${uri}","name":"pad ${i} ${padName}"}`
      : `{"type":"text","text":"[Resource link: pad ${i} ${padName}] ${uri}"}`,
  );
  const fields =
    host === 'codex'
      ? { session_id: 's1', cwd: '/tmp', transcript_path: null, model: 'm', permission_mode: 'default' }
      : { session_id: 's1', cwd: '/tmp', transcript_path: '/tmp/linkgate-none.jsonl', permission_mode: 'default' };
  const event = JSON.stringify({
    ...fields,
    hook_event_name: 'PostToolUse',
    tool_name: 'mcp__docs__get',
    tool_input: {},
    tool_use_id: 'call_get',
    tool_response: '@',
  });
  const content = `[${items.join(',')}]`;
  return event.replace('"@"', host === 'codex' ? `{"content":${content}}` : content);
}

/** A read of `vault` from `server`, before it runs, in the same session. */
function readEvent(host: 'codex' | 'claude-code', server: string): unknown {
  if (host === 'claude-code') return readRequested(server, vault, { session: 's1' });
  return {
    session_id: 's1',
    cwd: '/tmp',
    transcript_path: null,
    model: 'm',
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'read_mcp_resource',
    tool_input: { server, uri: vault },
    tool_use_id: `call_read_${server}`,
  };
}

/** The text a host hands the model for the hook's answer (Codex: the block's reason; Claude Code: the items). */
function shown(host: 'codex' | 'claude-code', stdout: string): string {
  const answer = JSON.parse(stdout) as Record<string, unknown>;
  if (host === 'codex') {
    expect(answer['decision']).toBe('block');
    return String(answer['reason']);
  }
  const output = (answer['hookSpecificOutput'] as { updatedToolOutput: { text: string }[] }).updatedToolOutput;
  return output.map((item) => item.text).join('\n');
}

describe.each(['codex', 'claude-code'] as const)('%s: a tool result of about 490 000 links', (host) => {
  it('is withheld whole, and a link of it read from another server is server.mismatch', async () => {
    const count = 490_000;
    const event = linksEvent(host, count);
    // the case of the issue: just under the byte cap, under the value cap (parsed, not refused unread)
    expect(event.length).toBeLessThan(maxEventBytes);
    expect(event.length).toBeGreaterThan(maxEventBytes * 0.9);
    const run = await runHookProcess(
      ['hook', host, '--policy', 'policies/default.yaml', '--state', state(host)],
      event,
    );
    timings.push(`${host} ${count} links ${run.elapsedMs} ms`);
    expect(run.code, run.stderr).toBe(0);
    const text = shown(host, run.stdout);
    // the result withheld whole: by the item cap, or (on a machine too loaded for that) by the hook's deadline
    expect(text).toMatch(
      /^linkgate withheld (the result of tool `get`: content\.too-many-items|this tool result: the hook failed)/,
    );
    expect(text.split('\n')).toHaveLength(1);
    for (const uri of [refused, vault, 'guide://pad/0']) expect(run.stdout).not.toContain(uri);
    if (text.includes('content.too-many-items')) {
      // the state keeps that it could not keep the server's links: none is readable from another server
      const read = await runCli(
        ['hook', host, '--policy', 'policies/default.yaml', '--state', state(host)],
        JSON.stringify(readEvent(host, 'other')),
      );
      expect(read.stdout).toContain('server.mismatch');
    }
  }, 120_000);
});

describe('claude code: a read result of about 490 000 items', () => {
  // over `read.maxItems` the read is denied by its count; on main every item was replaced by its own notice, an
  // answer of 150 MB (more than twice the event) that the host had to read within its timeout
  it('is withheld by one notice', async () => {
    const count = 490_000;
    const items = Array.from(
      { length: count },
      (_, i) => `{"uri":"guide://doc","mimeType":"text/plain","text":"${i} ${padName}"}`,
    );
    const event = JSON.stringify({
      ...readRequested('docs', 'guide://doc', { session: 'r1' }),
      hook_event_name: 'PostToolUse',
      tool_response: '@',
    }).replace('"@"', `{"contents":[${items.join(',')}]}`);
    expect(event.length).toBeLessThan(maxEventBytes);
    expect(event.length).toBeGreaterThan(maxEventBytes * 0.8);
    const run = await runHookProcess(
      ['hook', 'claude-code', '--policy', 'policies/default.yaml', '--state', state('read')],
      event,
    );
    timings.push(`read of ${count} items ${run.elapsedMs} ms`);
    expect(run.code, run.stderr).toBe(0);
    const output = (
      JSON.parse(run.stdout) as { hookSpecificOutput: { updatedToolOutput: { contents: { text: string }[] } } }
    ).hookSpecificOutput.updatedToolOutput.contents;
    expect(output).toHaveLength(1);
    expect(output[0]?.text).toMatch(
      /^linkgate withheld (the body of .*content\.too-many-items|this tool result: the hook failed)/,
    );
  }, 120_000);
});

describe('the item cap', () => {
  // links one by one up to the cap (the state keeps `maxLinksPerEvent`, the rest withheld each with its notice); one
  // item more withholds the result whole
  it.each([maxItemsPerEvent, maxItemsPerEvent + 1])(
    'claude code: a result of %i links',
    async (count) => {
      const run = await runHookProcess(
        ['hook', 'claude-code', '--policy', 'policies/default.yaml', '--state', join(dir, `cap-${count}`)],
        linksEvent('claude-code', count),
      );
      expect(run.code, run.stderr).toBe(0);
      const output = (JSON.parse(run.stdout) as { hookSpecificOutput: { updatedToolOutput: { text: string }[] } })
        .hookSpecificOutput.updatedToolOutput;
      expect(run.stdout).not.toContain(refused);
      if (count > maxItemsPerEvent) {
        expect(output).toHaveLength(1);
        expect(output[0]?.text).toMatch(/^linkgate withheld the result of tool `get`: content\.too-many-items/);
        return;
      }
      expect(output).toHaveLength(count);
      expect(output[0]?.text).toBe(`[Resource link: pad 0 ${padName}] guide://pad/0`);
      expect(output[maxLinksPerEvent - 1]?.text).toContain(`guide://pad/${maxLinksPerEvent - 1}`);
      expect(output[maxLinksPerEvent]?.text).toMatch(/^linkgate withheld the link .*content\.too-many-items/);
      expect(output.at(-1)?.text).toMatch(/^linkgate withheld the link .*content\.too-many-items/);
    },
    120_000,
  );
});
