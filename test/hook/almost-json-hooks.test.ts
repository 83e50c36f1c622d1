// The hooks judge what their host hands the model as the proxy and the decorator do (issue 39 item 5): a tool result
// text, a `structuredContent` JSON string, or a read body that opens like JSON, does not parse (a trailing comma, a
// comment) and names `resource_link` is withheld (`content.shape`); a read body declared JSON whose bytes are not
// UTF-8 is withheld (`content.uninterpretable`). Control: such a text naming no resource_link, its address allowed,
// is handed on as it came.
import { describe, expect, it } from 'vitest';
import { givenOn } from '../redteam/round12-cases.ts';
import { hookScratch } from './hook-args.ts';
import { codexReadReturned, codexToolReturned, readReturned, toolReturned } from './hook-events.ts';

const hooks = hookScratch('linkgate-almost-json-');
const metadata = 'http://169.254.169.254/latest/meta-data/iam/';
const address = '169.254.169.254';
const doc = 'https://docs.example/r.json';
const almost = `{"content":[{"type":"resource_link","uri":"${metadata}","name":"m"},]}`;
const commented = `[{"type":"resource\\u005flink","uri":"${metadata}","name":"m"}] // links`;
const notUtf8 = Buffer.concat([Buffer.from(`{"see":"${metadata}","x":"`), Buffer.from([0xff, 0x22, 0x7d])]);

// [host, the post event of an MCP tool whose result is the one text item `text`]
const toolHosts: [string, (text: string) => unknown][] = [
  ['claude-code', (text) => toolReturned('docs', 'lookup', [{ type: 'text', text }])],
  ['claude-code (a string output)', (text) => ({ ...toolReturned('docs', 'lookup', []), tool_response: text })],
  ['codex', (text) => codexToolReturned({ content: [{ type: 'text', text }] })],
  [
    'codex (structuredContent, a string)',
    (text) => codexToolReturned({ content: [{ type: 'text', text: 'see' }], structuredContent: text }),
  ],
];
const hostOf = (name: string) => name.split(' ')[0] as string;

describe('linkgate hook: a tool result text that opens like JSON and does not parse', () => {
  for (const [name, event] of toolHosts) {
    it(`${name}: naming resource_link, it is withheld`, async () => {
      for (const text of [almost, commented]) {
        const sent = event(text);
        const run = await hooks.hook(hostOf(name), sent);
        expect(run.code, run.stderr).toBe(0);
        const given = givenOn(run.stdout, sent);
        expect(given).not.toContain(address);
        expect(given).toContain('content.shape');
      }
    });

    it(`control: ${name}: naming no resource_link, an allowed address in it, it is handed on as it came`, async () => {
      const run = await hooks.hook(hostOf(name), event('{"see":"https://docs.example/guide/a.txt",}'));
      expect(run).toMatchObject({ code: 0, stdout: '' });
    });
  }
});

// [host, the post-read event whose one item is `item`]
const readHosts: [string, (item: Record<string, unknown>) => unknown][] = [
  ['claude-code', (item) => readReturned('fixture', doc, [item])],
  ['codex', (item) => codexReadReturned('fixture', doc, [item])],
];

describe('linkgate hook: a read body declared JSON that does not parse, or whose bytes are not UTF-8', () => {
  for (const [host, event] of readHosts)
    it(`${host}: withheld, the address not handed on`, async () => {
      for (const [item, code] of [
        [{ uri: doc, mimeType: 'application/json', text: almost }, 'content.shape'],
        [{ uri: doc, mimeType: 'application/json', blob: notUtf8.toString('base64') }, 'content.uninterpretable'],
      ] as const) {
        const sent = event(item);
        const run = await hooks.hook(host, sent);
        expect(run.code, run.stderr).toBe(0);
        const given = givenOn(run.stdout, sent);
        expect(given).not.toContain(address);
        expect(given).not.toContain(notUtf8.toString('base64'));
        expect(given).toContain(code);
      }
    });
});
