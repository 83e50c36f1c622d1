// A hook's read notice hands the model nothing of the body it withholds (issue 39 item 3). A reason's message may
// quote what the server sent: a page's stylesheet href (css-import.ts), an attribute or element name (active-html.ts,
// active-xml.ts), a zip entry's name (zip-kind.ts), the item's declared type (judge-content.ts), the answer's
// `resultType` (decide-read.ts). A read notice showed every such message beside its code, and was searched for no
// address beyond the link's name: an internal address, or one the session refused, was handed on in the gate's own
// words, and an attribute name's backtick closed the notice's quote. One rule (`showsMessage`, gate-notice.ts): a
// notice shows a reason's message only where the policy wrote it; the record keeps every message. Each case checks the
// record quotes the marker (so the message does quote the body) and the notice does not, through Claude Code's and
// Codex's hooks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cases, type Item, marker, uri } from '../fixtures/body-quoting-reads.ts';
import { hookScratch } from './hook-args.ts';
import { codexToolReturned, readRequested, readReturned, toolReturned } from './hook-events.ts';

const hooks = hookScratch('linkgate-read-notice-messages-');

// [host, the tool result listing the page's link, the read's pre event, its post event]
const hosts: [string, () => unknown, () => unknown, (items: Item[], extra: Item) => unknown][] = [
  [
    'claude-code',
    () => toolReturned('fixture', 'links', [{ type: 'resource_link', uri, name: 'guide' }], { toolUseId: 't_links' }),
    () => readRequested('fixture', uri),
    (items, extra) => ({ ...readReturned('fixture', uri, items), tool_response: { contents: items, ...extra } }),
  ],
  [
    'codex',
    () => codexToolReturned({ content: [{ type: 'resource_link', uri, name: 'guide' }] }, { toolUseId: 'c_links' }),
    () => ({
      ...codexToolReturned(undefined, { toolUseId: 'c_read' }),
      hook_event_name: 'PreToolUse',
      tool_name: 'read_mcp_resource',
      tool_input: { server: 'fixture', uri },
      tool_response: undefined,
    }),
    (items, extra) => ({
      ...codexToolReturned(JSON.stringify({ server: 'fixture', uri, contents: items, ...extra }), {
        toolUseId: 'c_read',
      }),
      tool_name: 'read_mcp_resource',
      tool_input: { server: 'fixture', uri },
    }),
  ],
];

describe("a hook's read notice quotes nothing the server sent", () => {
  for (const [host, listed, pre, post] of hosts)
    test.each(cases)(
      `${host}: %s: withheld by its code, the record keeps the message`,
      async (_, items, extra, code) => {
        await hooks.hook(host, listed());
        await hooks.hook(host, pre());
        const run = await hooks.hook(host, post(items, extra));
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).toContain('linkgate withheld the body of');
        expect(run.stdout).toContain(code);
        // the message quotes the body: the record keeps it
        expect(readFileSync(join(hooks.dir, 'r.jsonl'), 'utf8')).toContain(marker);
        expect(run.stdout).not.toContain(marker);
      },
    );
});
