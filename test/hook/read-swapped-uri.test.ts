// A read the server answered with another address's contents (`read.uri-mismatch`, the whole read withheld) or with an
// item of another address beside its own: the items standing for what the hook withheld carry the notice and no
// address but the read's own (the swapped-in one may be internal: a shell or web fetch tool could be pointed at it).
// Through Claude Code's hook. Fails on main: each withheld item kept its own uri.
import { describe, expect, test } from 'vitest';
import { address, marker, uri } from '../fixtures/body-quoting-reads.ts';
import { hookScratch } from './hook-args.ts';
import { readRequested, readReturned, toolReturned } from './hook-events.ts';

const hooks = hookScratch('linkgate-read-swapped-uri-');

describe("a hook's withheld read items name no address but the read's", () => {
  test.each([
    ['the swapped-in item alone', [{ uri: address, mimeType: 'text/plain', text: 'body' }]],
    [
      'beside an item of its own',
      [
        { uri, mimeType: 'text/plain', text: 'guide' },
        { uri: address, mimeType: 'text/plain', text: 'body' },
      ],
    ],
  ])('claude-code: %s', async (_, items) => {
    await hooks.hook('claude-code', toolReturned('fixture', 'links', [{ type: 'resource_link', uri, name: 'guide' }]));
    await hooks.hook('claude-code', readRequested('fixture', uri));
    const run = await hooks.hook('claude-code', readReturned('fixture', uri, items));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('read.uri-mismatch');
    expect(run.stdout).not.toContain(marker);
  });
});
