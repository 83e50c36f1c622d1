// A uri two servers both return (two file servers sharing a folder) is readable from each that returned it, and still
// never from a server that did not (issue 39 item 2: "first server wins" refused the read from the second server).
import { describe, expect, it } from 'vitest';
import { hookScratch } from './hook-args.ts';
import { readRequested, resourcesListed, toolReturned } from './hook-events.ts';

const scratch = hookScratch('linkgate-two-servers-');
const hook = (event: unknown) => scratch.hook('claude-code', event);
const shared = 'guide://shared/report.md';
const link = (uri: string) => ({ type: 'resource_link', uri, name: 'report' });

/** The deny reason of a read of `shared` from `server`, or '' when the hook let it through. */
async function read(server: string, id: string): Promise<string> {
  const run = await hook(readRequested(server, shared, { toolUseId: id }));
  expect(run.code, run.stderr).toBe(0);
  return run.stdout === '' ? '' : String(JSON.parse(run.stdout).hookSpecificOutput.permissionDecisionReason);
}

describe('a uri two servers returned', () => {
  it('reads from each of them, in either order, and from no other', async () => {
    await hook(toolReturned('files-a', 'find', [link(shared)], { toolUseId: 'toolu_a' }));
    await hook(toolReturned('files-b', 'find', [link(shared)], { toolUseId: 'toolu_b' }));
    expect(await read('files-b', 'r1')).toBe('');
    expect(await read('files-a', 'r2')).toBe('');
    expect(await read('files-c', 'r3')).toContain('server.mismatch');
  });

  it('a listing adds its server too', async () => {
    await hook(toolReturned('files-a', 'find', [link(shared)], { toolUseId: 'toolu_a' }));
    await hook(resourcesListed([{ server: 'files-b', uri: shared, name: 'report' }]));
    expect(await read('files-b', 'r1')).toBe('');
    expect(await read('files-c', 'r2')).toContain('server.mismatch');
  });

  it('returned by one server only, it is not readable from another', async () => {
    await hook(toolReturned('files-a', 'find', [link(shared)], { toolUseId: 'toolu_a' }));
    expect(await read('files-b', 'r1')).toContain('server.mismatch');
    expect(await read('files-a', 'r2')).toBe('');
  });
});
