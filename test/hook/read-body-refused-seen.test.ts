// A link refused inside a read's JSON body for a reason other than its address (a declared type or size, a scheme) is
// kept in the session's state as a link the answering server returned (`SessionState.addSeen`), as a tool result's
// refused link is: a later read of its uri from another server is `server.mismatch`, and from the answering server it
// is judged as that link (its declared type and size). Through Claude Code's hook. Fails on main: only the address of
// a link refused for its address was kept, so the read from another server was judged as that server's own link and
// allowed, and the read from the answering server as a bare uri, allowed. A body link nothing refused is kept the same
// way (`keptBodyLinks`, the one rule of both front ends): read from another server it is `server.mismatch`, as a tool
// result's link is; failed on main (only refused links were kept, so the other server's read was allowed).
import { describe, expect, test } from 'vitest';
import { uri } from '../fixtures/body-quoting-reads.ts';
import { hookScratch } from './hook-args.ts';
import { readRequested, readReturned, toolReturned } from './hook-events.ts';

const hooks = hookScratch('linkgate-read-body-seen-');
const target = 'https://files.example/tool.bin';

/** The deny reason of a read of `target` from `server`, or '' when the hook let it through. */
async function readTarget(server: string, id: string): Promise<string> {
  const run = await hooks.hook('claude-code', readRequested(server, target, { toolUseId: id }));
  expect(run.code, run.stderr).toBe(0);
  return run.stdout === '' ? '' : String(JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason);
}

describe("claude-code: a link refused in a read's body for what it declares", () => {
  test.each([
    ['a declared type', { mimeType: 'application/x-msdownload' }, 'type.declared-not-allowed'],
    ['a declared size', { size: 50 * 1024 * 1024 }, 'size.declared-too-large'],
  ])(
    '%s: another server reading it is server.mismatch, the answering one is refused again',
    async (_, declared, code) => {
      const body = JSON.stringify({ see: { type: 'resource_link', uri: target, name: 'tool', ...declared } });
      await hooks.hook(
        'claude-code',
        toolReturned('fixture', 'links', [{ type: 'resource_link', uri, name: 'guide' }]),
      );
      await hooks.hook('claude-code', readRequested('fixture', uri));
      const read = await hooks.hook(
        'claude-code',
        readReturned('fixture', uri, [{ uri, mimeType: 'application/json', text: body }]),
      );
      expect(read.code, read.stderr).toBe(0);
      expect(read.stdout).toContain('linkgate');
      expect(await readTarget('other', 'toolu_r2')).toContain('server.mismatch');
      expect(await readTarget('fixture', 'toolu_r3')).toContain(code);
    },
  );

  test("a body link nothing refused is kept as the answering server's too: another server reading it is server.mismatch", async () => {
    const body = JSON.stringify({ see: { type: 'resource_link', uri: target, name: 'tool' } });
    await hooks.hook('claude-code', toolReturned('fixture', 'links', [{ type: 'resource_link', uri, name: 'guide' }]));
    await hooks.hook('claude-code', readRequested('fixture', uri));
    await hooks.hook('claude-code', readReturned('fixture', uri, [{ uri, mimeType: 'application/json', text: body }]));
    expect(await readTarget('other', 'toolu_r2')).toContain('server.mismatch');
  });

  test('control: an allowed uri string in a body is an address in data, not kept: another server reads it', async () => {
    const body = JSON.stringify({ see: target });
    await hooks.hook('claude-code', toolReturned('fixture', 'links', [{ type: 'resource_link', uri, name: 'guide' }]));
    await hooks.hook('claude-code', readRequested('fixture', uri));
    await hooks.hook('claude-code', readReturned('fixture', uri, [{ uri, mimeType: 'application/json', text: body }]));
    expect(await readTarget('other', 'toolu_r2')).toBe('');
  });

  test('control: a body link nothing refused stays readable from the answering server', async () => {
    const body = JSON.stringify({ see: { type: 'resource_link', uri: target, name: 'tool' } });
    await hooks.hook('claude-code', toolReturned('fixture', 'links', [{ type: 'resource_link', uri, name: 'guide' }]));
    await hooks.hook('claude-code', readRequested('fixture', uri));
    await hooks.hook('claude-code', readReturned('fixture', uri, [{ uri, mimeType: 'application/json', text: body }]));
    expect(await readTarget('fixture', 'toolu_r3')).toBe('');
  });
});
