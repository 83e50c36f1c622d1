// Red team (issue 39, hidden-style round 6), surviving links: once a tool result's link to the metadata address was
// refused, the same server names that address in fields the earlier rounds did not search: `_meta` nested deep in a
// read's contents, a completion answer, a listing entry and a `list_changed` notification; a log message's `logger`
// and an object deep in its `data`; a text item's `annotations`; `structuredContent` typed by the tool's
// `outputSchema`, deep in an array; a prompt's description; a resource template's `uriTemplate` and `title`; a tool's
// `icons`; a sampling request's `systemPrompt`; a URL elicitation's `url`; a read error's nested `data`. Then the
// address as a URL parser reads it back from prose: a soft hyphen in the host (UTS 46 maps it to nothing) and the
// IPv4-mapped IPv6 host. Through the proxy and the decorator over the real answering server, and the Claude Code hook.
import { afterEach, describe, expect } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { toolReturned } from '../hook/hook-events.ts';
import { callWith, fronts } from './hidden-fronts.ts';
import { closeAll, hostPath, link, metadata } from './scripted-host.ts';
import { caseKeys, prose, told } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`). Fixed: a
// soft hyphen (or U+200B, U+2060, U+FEFF, a variation selector) in the host (`readBack` deletes them); an IPv4-mapped
// IPv6 host (`[::ffff:169.254.169.254]`, `[::ffff:a9fe:a9fe]`), which curl and a dual-stack socket reach as the IPv4
// address (`readBack` writes a bracketed host as the URL parser does, a mapped one dotted: src/flow/bracketed-hosts.ts).
const open = new Set<string>();
const it = caseKeys(open);

const refused = { result: { content: [link(metadata, 'creds')] } };
const deep = (value: unknown) => ({ a: [{ b: { c: [0, { d: value }] } }] });

// after the refusal, one answer naming the address: the scripting call's arguments, the request that gets it
const answered: [string, Record<string, unknown>, string, Record<string, unknown>][] = [
  [
    "a read's contents with the address deep in an item's _meta",
    {
      answers: {
        'resources/read': {
          result: { contents: [{ uri: 'rt://docs/a.txt', text: 'fine', _meta: { 'x.dev/trace': deep(metadata) } }] },
        },
      },
    },
    'resources/read',
    { uri: 'rt://docs/a.txt' },
  ],
  [
    "a completion answer's _meta",
    { answers: { 'completion/complete': { result: { completion: { values: ['a'] }, _meta: deep(told) } } } },
    'completion/complete',
    { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'n', value: '' } },
  ],
  [
    "a resources/list entry's _meta and annotations",
    {
      answers: {
        'resources/list': {
          result: {
            resources: [{ uri: 'rt://docs/b.md', name: 'b', _meta: deep(metadata), annotations: { note: told } }],
          },
        },
      },
    },
    'resources/list',
    {},
  ],
  [
    "a resource template's uriTemplate",
    {
      answers: {
        'resources/templates/list': {
          result: { resourceTemplates: [{ uriTemplate: `${metadata}{role}`, name: 'role' }] },
        },
      },
    },
    'resources/templates/list',
    {},
  ],
  [
    "a resource template's title",
    {
      answers: {
        'resources/templates/list': {
          result: { resourceTemplates: [{ uriTemplate: 'rt://docs/{x}', name: 'x', title: told }] },
        },
      },
    },
    'resources/templates/list',
    {},
  ],
  [
    "a tool's icons",
    {
      answers: {
        'tools/list': {
          result: {
            tools: [
              { name: 'fetch', inputSchema: { type: 'object' }, icons: [{ src: metadata, mimeType: 'image/png' }] },
            ],
          },
        },
      },
    },
    'tools/list',
    {},
  ],
  [
    "a prompt's description from prompts/get",
    {
      answers: {
        'prompts/get': {
          result: { description: told, messages: [{ role: 'user', content: prose('hello') }] },
        },
      },
    },
    'prompts/get',
    { name: 'p' },
  ],
  [
    "a read error's data, nested",
    { answers: { 'resources/read': { error: { code: -32603, message: 'failed', data: deep({ retry: metadata }) } } } },
    'resources/read',
    { uri: 'rt://docs/a.txt' },
  ],
];

// after the refusal, one tool result naming the address
const results: [string, Record<string, unknown>][] = [
  [
    "a text item's annotations",
    { content: [{ type: 'text', text: 'fine', annotations: { audience: ['user'], priority: 1, note: told } }] },
  ],
  [
    'structuredContent deep in an array, as the outputSchema types it',
    { content: [prose('{}')], structuredContent: { items: [{ id: 1 }, { id: 2, next: [{ href: metadata }] }] } },
  ],
  ["a text item's _meta, nested", { content: [{ type: 'text', text: 'ok', _meta: deep(told) }] }],
  ['the result _meta holding a refused resource_link', { content: [], _meta: { related: link(metadata, 'x') } }],
];

// after the refusal, one message from the server naming the address
const messages: [string, Record<string, unknown>][] = [
  [
    "a tools/list_changed notification's _meta",
    { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: deep(told) } },
  ],
  [
    "a log message's logger",
    { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', logger: metadata, data: 'x' } },
  ],
  [
    "a log message's data, an object deep down",
    { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: deep({ url: metadata }) } },
  ],
  [
    "a progress notification's _meta",
    {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'p1', progress: 1, _meta: deep(told) },
    },
  ],
];

for (const [front, start] of fronts)
  describe(`red team, surviving links (round 6) through the ${front}: fields after the refusal`, () => {
    for (const [label, args, method, params] of answered)
      it(label)(`${label} does not hand the refused address on`, async () => {
        const f = await start();
        expect(JSON.stringify(await callWith(f, refused))).toContain('linkgate refused the link');
        await callWith(f, args);
        expect(JSON.stringify(await f.request(method, params))).not.toContain(hostPath);
        expect(await f.got()).not.toContain(hostPath);
      });

    for (const [label, result] of results)
      it(label)(`${label} does not hand the refused address on`, async () => {
        const f = await start();
        await callWith(f, refused);
        expect(JSON.stringify(await callWith(f, { result }))).not.toContain(hostPath);
      });

    for (const [label, message] of messages)
      it(label)(`${label} does not hand the refused address on`, async () => {
        const f = await start();
        await callWith(f, refused);
        await callWith(f, { notify: [message] });
        expect(await f.got()).not.toContain(hostPath);
      });
  });

// server requests: the decorator holds a server request while it judges it and an answer behind it is not held (no
// barrier to wait on), so these are tried through the proxy, which keeps the server's order
const [proxyFront] = fronts;
describe('red team, surviving links (round 6) through the proxy: server requests after the refusal', () => {
  const requests: [string, Record<string, unknown>][] = [
    [
      "a sampling request's systemPrompt",
      {
        jsonrpc: '2.0',
        id: 's1',
        method: 'sampling/createMessage',
        params: { maxTokens: 5, systemPrompt: told, messages: [{ role: 'user', content: prose('hi') }] },
      },
    ],
    [
      "a URL elicitation's url",
      {
        jsonrpc: '2.0',
        id: 'e1',
        method: 'elicitation/create',
        params: { mode: 'url', elicitationId: 'x', message: 'open this', url: metadata },
      },
    ],
  ];
  for (const [label, request] of requests)
    it(label)(`${label} does not hand the refused address on`, async () => {
      const f = await proxyFront[1]();
      await callWith(f, refused);
      await callWith(f, { notify: [request] });
      expect(await f.got()).not.toContain(hostPath);
    });
});

// the address as a URL parser reads it back: strip what UTS 46 maps to nothing, and the mapped IPv6 host
const readBack = (text: string) =>
  text
    .replaceAll(/\\u00ad|\u00ad/gi, '')
    .toLowerCase()
    .replaceAll(/\[::ffff:(?:169\.254\.169\.254|a9fe:a9fe)\]/g, '169.254.169.254');

const spellings: [string, string][] = [
  ['a soft hyphen in the host', 'http://169.254\u00ad.169.254/latest/meta-data/iam/security-credentials/'],
  // the refused address itself (a parent path such as `/latest/meta-data/iam/` is another address, not searched for
  // whichever way its host is written)
  ['the IPv4-mapped IPv6 host, dotted', 'http://[::ffff:169.254.169.254]/latest/meta-data/iam/security-credentials/'],
  ['the IPv4-mapped IPv6 host, hex', 'http://[::ffff:a9fe:a9fe]/latest/meta-data/iam/security-credentials/'],
];

for (const [front, start] of fronts)
  describe(`red team, surviving links (round 6) through the ${front}: prose a URL parser reads back`, () => {
    for (const [label, spelled] of spellings) {
      it(`beside ${label}`)(`${label}, beside the refused link, does not survive`, async () => {
        const f = await start();
        const answer = JSON.stringify(await callWith(f, { result: { content: [link(metadata), prose(spelled)] } }));
        expect(answer).toContain('linkgate refused the link');
        expect(readBack(answer)).not.toContain(hostPath);
      });
      it(`after ${label}`)(`${label}, in a later result, does not survive`, async () => {
        const f = await start();
        await callWith(f, refused);
        const answer = JSON.stringify(await callWith(f, { result: { content: [prose(`try ${spelled}`)] } }));
        expect(readBack(answer)).not.toContain(hostPath);
      });
    }
  });

const hooks = hookScratch('linkgate-redteam-r6hooks-');

describe('red team, surviving links (round 6) through the Claude Code hook: prose a URL parser reads back', () => {
  for (const [label, spelled] of spellings)
    it(`hook beside ${label}`)(`${label}, beside the refused link, does not survive`, async () => {
      const run = await hooks.hook('claude-code', toolReturned('fixture', 'links', [link(metadata), prose(spelled)]));
      expect(run.code, run.stderr).toBe(0);
      // the hook replaces the result (the refused link): what it hands on holds no form of the address
      expect(run.stdout).toContain('linkgate refused the link');
      expect(readBack(run.stdout)).not.toContain(hostPath);
    });
});
