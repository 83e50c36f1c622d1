// Red team (issue 39, hidden-style round 13), the hook's host adapters (src/hook/*-host.ts) on shapes a host or a
// tool's schema may give them. Windsurf's hook judges an MCP call by its url arguments (`url`, `uri`, `urls`, `uris`):
// a fetch tool whose schema names the argument `URL` or `Uris` (as its author wrote it; the model fills it in) had
// its refused address fetched unjudged. Cursor's generic `postToolUse` of an `MCP:<server>:<tool>` names the server
// by the tool name, its output the JSON text `tool_output`. Each hook as the host runs it. Controls: the same shapes
// with an ordinary url.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none
// (windsurf's url argument by any case mended by redteam16 in src/hook/windsurf-host.ts).
import { describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { handed } from './round10-hosts.ts';
import { refusedHost } from './round12-cases.ts';
import { doc, windsurfCall } from './round13-hosts.ts';
import { hostPath, link, metadata } from './scripted-host.ts';

const hooks = hookScratch('linkgate-redteam-r13adapters-');

describe("red team, adapters (round 13): Windsurf's url arguments as a tool's schema names them", () => {
  const shapes: [string, (url: string) => Record<string, unknown>][] = [
    ['`URL`', (url) => ({ URL: url })],
    ['`Uri`', (url) => ({ Uri: url })],
    ['`URLS` as a list', (url) => ({ URLS: [doc, url] })],
  ];
  for (const [label, args] of shapes) {
    test(`windsurf: the metadata address as ${label} is refused`, async () => {
      const run = await hooks.hook('windsurf', windsurfCall(args(metadata)));
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('linkgate');
      expect(run.stderr).not.toContain(refusedHost);
    });
    test(`control: windsurf: the ordinary url as ${label} goes ahead`, async () => {
      expect((await hooks.hook('windsurf', windsurfCall(args(doc)))).code).toBe(0);
    });
  }
  test('windsurf: a url argument in another case that is no string fails closed', async () => {
    expect((await hooks.hook('windsurf', windsurfCall({ Url: { href: metadata } }))).code).toBe(2);
  });
});

describe("red team, adapters (round 13): Cursor's generic postToolUse of an MCP tool", () => {
  const event = (items: unknown[]) => ({
    hook_event_name: 'postToolUse',
    conversation_id: 'cur1',
    generation_id: 'gen1',
    tool_name: 'MCP:fixture:links',
    tool_input: {},
    tool_output: JSON.stringify({ content: items }),
  });
  test('cursor: the refused link in tool_output is replaced by its notice', async () => {
    const run = await hooks.hook('cursor', event([link(doc, 'a'), link(metadata, 'creds')]));
    expect(handed(run.stdout)).toContain('linkgate refused the link');
    expect(run.stdout).not.toContain(hostPath);
    expect(run.stdout).toContain(doc);
  });
  test('control: cursor: an ordinary result is left alone', async () => {
    expect((await hooks.hook('cursor', event([link(doc, 'a')]))).stdout).toBe('');
  });
});
