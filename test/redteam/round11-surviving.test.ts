// Red team (issue 39, hidden-style round 11), a refused link or its address surviving where rounds 5–10 did not put
// it: the Copilot SDK's `binaryResultsForLlm` (the binaries the model is handed beside `textResultForLlm`; the hooks
// judged `contents` and the text), a `structuredContent` member named `__proto__` (JSON.parse makes it an own member,
// an object spread or an assignment treats it as the prototype), an embedded resource inside `structuredContent` whose
// own uri is the metadata address, an embedded resource whose text is a JSON tool result holding a `resource_link`
// (a host shows the model the text), and a tool result marked `isError`. First sight (the link itself must be judged)
// and, for the Copilot SDK, a later event of the session. Through the proxy and the decorator over the real answering
// server, Claude Code's and Codex's post hooks on their real event shapes, and the Copilot SDK hooks as the SDK calls
// them; controls: the same shapes with an ordinary address are handed on.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
// key: copilot binaries later — surviving (src/frameworks/copilot-sdk-hooks.ts judged `contents` and
// `textResultForLlm`, never `binaryResultsForLlm`) — mended: a binary that stands for no judged item (an image's data,
// an embedded blob) is left out with a notice, redteam11
// key: embedded json link codex, embedded json link claude-code — surviving (the hooks do not read a `resource_link` in
// an embedded resource's JSON text, which the proxy and the decorator withhold; src/hook/hook-embedded.ts) — owner: hook39
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { copilotSdkHooks } from '../../src/frameworks/copilot-sdk-hooks.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { hookScratch } from '../hook/hook-args.ts';
import { codexToolReturned, toolReturned } from '../hook/hook-events.ts';
import { callWith, fronts } from './hidden-fronts.ts';
import { handed } from './round10-hosts.ts';
import { closeAll, hostPath, link, metadata, policyFile, scratch } from './scripted-host.ts';
import { caseKeys } from './round-cases.ts';

const open = new Set<string>([]);
const it = caseKeys(open);

afterEach(closeAll);
const hooks = hookScratch('linkgate-redteam-r11surviving-');
const b64 = (text: string) => Buffer.from(text).toString('base64');
const ordinary = 'https://docs.example/guide/a.txt';

describe('red team, surviving (round 11): the Copilot SDK binaries beside the text', () => {
  /** One session's hooks: `post` judges a result of the `docs` server's `links` tool (its items and binaries). */
  async function session() {
    const hooks = copilotSdkHooks({
      policy: await loadPolicy(policyFile),
      records: callbackSink(() => {}),
      stateDir: path.join(await scratch(), 'state'),
    });
    const invocation = { sessionId: 's1' };
    return async (contents: unknown[], binaryResultsForLlm: unknown[] = []) => {
      await hooks.onPreMcpToolCall(
        { sessionId: 's1', serverName: 'docs', toolName: 'links', arguments: {} },
        invocation,
      );
      const toolResult = { textResultForLlm: 'ok', resultType: 'success', contents, binaryResultsForLlm };
      const input = { sessionId: 's1', timestamp: new Date(), workingDirectory: '/tmp', toolName: 'docs-links' };
      const answer = await hooks.onPostToolUse({ ...input, toolArgs: {}, toolResult }, invocation);
      // no answer: the model reads the result as it came
      return JSON.stringify(answer === undefined ? toolResult : answer.modifiedResult);
    };
  }
  const data = (address: string) => b64(`fetch ${address}`);
  const binary = (address: string) => [{ type: 'resource', mimeType: 'text/plain', data: data(address) }];
  // the embedded blob the Copilot builds a `resource` binary from
  const blob = (address: string) => ({
    type: 'resource',
    resource: { uri: 'rt://docs/notes.txt', mimeType: 'text/plain', blob: data(address) },
  });
  const decoded = (text: string) =>
    [text, ...[...text.matchAll(/"(?:data|blob)":"([^"]*)"/g)].map((m) => Buffer.from(m[1] ?? '', 'base64'))].join(
      '\n',
    );

  it('copilot binaries later')(
    'a later result of the session: a text binary naming the refused address does not reach the model',
    async () => {
      const post = await session();
      expect(await post([link(metadata, 'creds')])).toContain('linkgate refused the link');
      const answer = await post([{ type: 'text', text: 'ok' }], binary(metadata));
      expect(decoded(answer)).not.toContain(hostPath);
      expect(answer).toContain('linkgate withheld 1 binary');
    },
  );

  test('a later result: the binary stands for an embedded blob naming the refused address: not handed on', async () => {
    const post = await session();
    await post([link(metadata, 'creds')]);
    expect(decoded(await post([blob(metadata)], binary(metadata)))).not.toContain(hostPath);
  });

  // reading13 F1: a binary whose data is a judged image's, declared as another kind and type, is no binary of that
  // image: handed on, the model would read what was allowed as a PNG as text/plain
  const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
  const image = { type: 'image', mimeType: 'image/png', data: png };
  test("a binary of an allowed image's data under another kind and type is not handed on", async () => {
    const post = await session();
    const answer = JSON.parse(await post([image], [{ type: 'resource', mimeType: 'text/plain', data: png }])) as {
      binaryResultsForLlm: unknown[];
      textResultForLlm: string;
    };
    expect(answer.binaryResultsForLlm).toEqual([]);
    expect(answer.textResultForLlm).toContain('linkgate withheld 1 binary');
  });

  test('control: the binary of that image as an image of its type: handed on', async () => {
    const post = await session();
    const binaries = [{ type: 'image', mimeType: 'image/png', data: png }];
    const answer = JSON.parse(await post([image], binaries)) as { binaryResultsForLlm: unknown[] };
    expect(answer.binaryResultsForLlm).toEqual(binaries);
  });

  test('control: a later result whose binary stands for an embedded blob of an ordinary address: handed on', async () => {
    const post = await session();
    await post([link(metadata, 'creds')]);
    const answer = JSON.parse(await post([blob(ordinary)], binary(ordinary))) as { binaryResultsForLlm: unknown[] };
    expect(answer.binaryResultsForLlm).toEqual(binary(ordinary));
  });
});

describe('red team, surviving (round 11): shapes a front end may read differently', () => {
  // [key, the tool result with the link's `uri`] (a raw JSON text where JSON.parse must make the member)
  const shapes: [string, (uri: string) => unknown][] = [
    [
      'proto member',
      (uri) =>
        JSON.parse(
          `{"content":[{"type":"text","text":"ok"}],"structuredContent":{"__proto__":${JSON.stringify(link(uri, 'x'))}}}`,
        ),
    ],
    [
      'structured embedded uri',
      (uri) => ({
        content: [{ type: 'text', text: 'ok' }],
        structuredContent: {
          attachments: [{ type: 'resource', resource: { uri, mimeType: 'text/plain', text: 'x' } }],
        },
      }),
    ],
    [
      'embedded json link',
      (uri) => ({
        content: [
          {
            type: 'resource',
            resource: {
              uri: 'rt://docs/result.json',
              mimeType: 'application/json',
              text: JSON.stringify({ content: [link(uri, 'next')] }),
            },
          },
        ],
      }),
    ],
    ['error result', (uri) => ({ isError: true, content: [{ type: 'text', text: 'failed, see:' }, link(uri, 'log')] })],
  ];

  for (const [front, make] of fronts)
    for (const [key, result] of shapes) {
      test(`${front}, ${key}: the metadata link is not handed on`, async () => {
        const answer = await callWith(await make(), { result: result(metadata) });
        expect(JSON.stringify(answer)).not.toContain(hostPath);
      });
      test(`control: ${front}, ${key} with an ordinary address: handed on`, async () => {
        const answer = await callWith(await make(), { result: result(ordinary) });
        expect(JSON.stringify(answer)).toContain('docs.example/guide');
      });
    }

  // [host, the post event of the result]
  const hosts: [string, (result: Record<string, unknown>) => unknown][] = [
    ['codex', (result) => codexToolReturned(result)],
    ['claude-code', (result) => toolReturned('fixture', 'links', result['content'] as unknown[])],
  ];
  for (const [host, event] of hosts)
    for (const [key, result] of shapes.filter(([k]) => host === 'codex' || k === 'embedded json link')) {
      it(`${key} ${host}`)(`${host}, ${key}: the metadata link does not reach the model`, async () => {
        const given = event(result(metadata) as Record<string, unknown>);
        const run = await hooks.hook(host, given);
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout.trim() === '' ? JSON.stringify(given) : handed(run.stdout)).not.toContain(hostPath);
      });
      test(`control: ${host}, ${key} with an ordinary address: handed on`, async () => {
        const given = event(result(ordinary) as Record<string, unknown>);
        const run = await hooks.hook(host, given);
        expect(run.stdout.trim() === '' ? JSON.stringify(given) : handed(run.stdout)).toContain('docs.example/guide');
      });
    }
});
