// Red team (issue 39, hidden-style round 12), a refused link surviving in JSON the front ends do not open on first
// sight. Round 11 had the proxy, the decorator and the hooks judge a `resource_link` in an embedded resource's JSON
// text; the same link one level deeper (an embedded JSON resource inside that JSON text), the same JSON text as a
// base64 blob, a link's JSON text as a string member of `structuredContent` (Codex gives the model
// `structuredContent`), the same embedded JSON resource in a prompt's message (`prompts/get`), and a read's
// `application/json` body that is a tool result holding the link pass whole. Each is what a host, a framework or a
// model reads as a link. Through the proxy and the decorator over the real answering server, Claude Code's and Codex's
// post hooks on their real event shapes. Controls: the same shapes with an ordinary address are handed on.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
// key: nested embedded json <front> — surviving (src/flow/judge-embedded.ts, src/hook/hook-embedded.ts: one level of
// embedded JSON is opened) — owner: lead (src/flow), notice39 (src/hook)
// key: embedded json blob <front> — surviving (only an embedded resource's `text` is read for links) — owner: lead
// key: structured json string <front> — surviving (a string member of `structuredContent` that is a JSON text is not
// read for links; src/flow/structured-links.ts, src/hook/structured-links.ts) — owner: lead, notice39
// key: prompt embedded json <front> — surviving (a prompt message's embedded JSON resource is not opened) — owner: lead
// key: read body json link <front> — surviving (a read's JSON body holding a tool result's link passes) — owner: lead; held
// since readjson15 (src/flow/read-body-links.ts)
import { afterEach, describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { codexToolReturned, toolReturned } from '../hook/hook-events.ts';
import { callWith, fronts } from './hidden-fronts.ts';
import { decoded, embedded, givenOn, nestedJson, ordinary, resultText } from './round12-cases.ts';
import { closeAll, hostPath, link, metadata } from './scripted-host.ts';
import { caseKeys } from './round-cases.ts';

// nested embedded json, embedded json blob, structured json string, prompt embedded json: held since flow39's rule (a
// string or JSON blob whose whole text is one JSON object or array is judged as structured data); read body json link
// held since readjson15: a read's body that is one JSON object or array is structured data too (lead's design call)
const open = new Set<string>();
const it = caseKeys(open);

afterEach(closeAll);
const hooks = hookScratch('linkgate-redteam-r12surviving-');
const b64 = (text: string) => Buffer.from(text).toString('base64');
const seen = /docs\.example\/guide/;

// [key, the tool result holding the link to `uri`, the hosts whose post hook sees the shape]
const shapes: [string, (uri: string) => Record<string, unknown>, string[]][] = [
  ['nested embedded json', (uri) => ({ content: [nestedJson(uri)] }), ['claude-code', 'codex']],
  [
    'embedded json blob',
    (uri) => ({
      content: [
        {
          type: 'resource',
          resource: { uri: 'rt://docs/r.json', mimeType: 'application/json', blob: b64(resultText(uri)) },
        },
      ],
    }),
    [],
  ],
  [
    'structured json string',
    (uri) => ({
      content: [{ type: 'text', text: 'ok' }],
      structuredContent: { payload: JSON.stringify(link(uri, 'x')) },
    }),
    ['codex'],
  ],
];
const postEvent: Record<string, (result: Record<string, unknown>) => unknown> = {
  'claude-code': (result) => toolReturned('fixture', 'links', result['content'] as unknown[]),
  codex: (result) => codexToolReturned(result),
};

describe('red team, surviving (round 12): a link in JSON one step further in', () => {
  for (const [key, result, hosts] of shapes) {
    for (const [front, make] of fronts) {
      it(`${key} ${front}`)(`${front}, ${key}: the metadata link is not handed on`, async () => {
        const answer = await callWith(await make(), { result: result(metadata) });
        expect(decoded(JSON.stringify(answer))).not.toContain(hostPath);
      });
      test(`control: ${front}, ${key} with an ordinary address: handed on`, async () => {
        const answer = await callWith(await make(), { result: result(ordinary) });
        expect(decoded(JSON.stringify(answer))).toMatch(seen);
      });
    }
    for (const host of hosts) {
      const event = postEvent[host] as (r: Record<string, unknown>) => unknown;
      it(`${key} ${host}`)(`${host}, ${key}: the metadata link does not reach the model`, async () => {
        const sent = event(result(metadata));
        const run = await hooks.hook(host, sent);
        expect(run.code, run.stderr).toBe(0);
        expect(givenOn(run.stdout, sent)).not.toContain(hostPath);
      });
      test(`control: ${host}, ${key} with an ordinary address: handed on`, async () => {
        const sent = event(result(ordinary));
        const run = await hooks.hook(host, sent);
        expect(givenOn(run.stdout, sent)).toMatch(seen);
      });
    }
  }
});

describe('red team, surviving (round 12): a JSON link in a prompt and in a read body', () => {
  const doc = 'https://docs.example/r.json';
  // [key, the answers scripted before the request, the request]
  const asks: [string, (uri: string) => Record<string, unknown>, [string, Record<string, unknown>]][] = [
    [
      'prompt embedded json',
      (uri) => ({
        'prompts/get': {
          result: { messages: [{ role: 'user', content: embedded('rt://docs/p.json', resultText(uri)) }] },
        },
      }),
      ['prompts/get', { name: 'p' }],
    ],
    [
      'read body json link',
      (uri) => ({
        'resources/read': { result: { contents: [{ uri: doc, mimeType: 'application/json', text: resultText(uri) }] } },
      }),
      ['resources/read', { uri: doc }],
    ],
  ];
  for (const [key, answers, [method, params]] of asks)
    for (const [front, make] of fronts) {
      it(`${key} ${front}`)(`${front}, ${key}: the metadata link is not handed on`, async () => {
        const gated = await make();
        await callWith(gated, { result: { content: [link(doc, 'r')] }, answers: answers(metadata) });
        expect(JSON.stringify(await gated.request(method, params))).not.toContain(hostPath);
      });
      test(`control: ${front}, ${key} with an ordinary address: handed on`, async () => {
        const gated = await make();
        await callWith(gated, { result: { content: [link(doc, 'r')] }, answers: answers(ordinary) });
        expect(JSON.stringify(await gated.request(method, params))).toMatch(seen);
      });
    }
});
