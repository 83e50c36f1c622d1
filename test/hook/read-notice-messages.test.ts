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
import { makeZip } from '../fixtures/make-bytes.ts';
import { hookScratch } from './hook-args.ts';
import { codexToolReturned, readRequested, readReturned, toolReturned } from './hook-events.ts';

const hooks = hookScratch('linkgate-read-notice-messages-');

// what the server's body spells, which no notice may: an internal address and a word next to it
const marker = '10.66.77.88';
const address = `http://${marker}/zq9/keys`;
const uri = 'https://docs.example/guide.md';
const page = (body: string) => `<!doctype html><html><head>${body}</head><body>guide</body></html>`;
type Item = Record<string, unknown>;
const text = (mimeType: string, body: string): Item => ({ uri, mimeType, text: body });
const blob = (mimeType: string, bytes: Buffer): Item => ({ uri, mimeType, blob: bytes.toString('base64') });

// [case, the read's items, the answer's fields beside `contents`, a reason code the notice shows]
const cases: [string, Item[], Item, string][] = [
  ['a stylesheet link', [text('text/markdown', page(`<link rel="stylesheet" href="${address}.css">`))], {}, 'content.'],
  [
    'an xml-stylesheet instruction',
    [
      text(
        'image/svg+xml',
        `<?xml-stylesheet type="text/css" href="${address}.css"?><svg xmlns="http://www.w3.org/2000/svg"/>`,
      ),
    ],
    {},
    'content.',
  ],
  [
    'an event handler named by the body',
    [text('text/markdown', page(`<div on${marker}\`allowed="1">x</div>`))],
    {},
    'content.',
  ],
  [
    'an svg element named by the body',
    [text('image/svg+xml', `<svg xmlns="http://www.w3.org/2000/svg"><x-${marker}/></svg>`)],
    {},
    'content.',
  ],
  [
    'a zip entry named by an address',
    [blob('application/zip', makeZip([{ name: `${address}/Main.class`, data: 'cafebabe' }]))],
    {},
    'content.',
  ],
  ['a declared type spelling an address', [blob(`image/${marker}`, Buffer.from('%PDF-1.4\n'))], {}, 'content.'],
  [
    'a result type spelling an address',
    [text('text/plain', 'guide')],
    { resultType: address },
    'read.result-type-unknown',
  ],
];

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
