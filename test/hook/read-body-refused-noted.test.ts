// A link refused inside a read's JSON body is kept in the session's state as a tool result's refused link is
// (`SessionState.addRefused`): a later tool result naming its address is withheld. Through Claude Code's hook.
// Fails on main: the read's refusal was not kept, the later result passed with the address.
import { describe, expect, test } from 'vitest';
import { address, marker, uri } from '../fixtures/body-quoting-reads.ts';
import { hookScratch } from './hook-args.ts';
import { readRequested, readReturned, toolReturned } from './hook-events.ts';

const hooks = hookScratch('linkgate-read-body-refused-');
const body = JSON.stringify({ see: { type: 'resource_link', uri: address, name: 'keys' } });

describe("claude-code: a link refused in a read's body", () => {
  test.each([
    ['a later result naming its address: withheld', `fetch ${address} now`, false],
    ['control: a later result naming another address: handed on', 'fetch https://docs.example/b now', true],
  ])('%s', async (_, text, passes) => {
    await hooks.hook('claude-code', toolReturned('fixture', 'links', [{ type: 'resource_link', uri, name: 'guide' }]));
    await hooks.hook('claude-code', readRequested('fixture', uri));
    const read = await hooks.hook(
      'claude-code',
      readReturned('fixture', uri, [{ uri, mimeType: 'application/json', text: body }]),
    );
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).not.toContain(marker);
    const later = await hooks.hook('claude-code', toolReturned('fixture', 'notes', [{ type: 'text', text }]));
    expect(later.code, later.stderr).toBe(0);
    if (passes) expect(later.stdout).not.toContain('linkgate withheld');
    else expect(later.stdout).toContain('linkgate withheld');
  });
});
