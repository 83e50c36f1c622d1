// Through `linkgate proxy` (its own process, over a real stdio server, records to `--records`), a refused link in a
// prompt (`prompts/get`) and in a server's sampling request (`sampling/createMessage`) is replaced by a notice, gets
// exactly one record with the four stages (DESIGN §2, §4c), and the notice's record ref names that record: the same
// notice, ref included, the transport decorator gives for the same messages (test/sdk/message-link-records.test.ts).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { recordRef } from '../../src/flow/record-ref.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { maskUri } from '../../src/link/mask-uri.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { tsServer } from '../e2e/run-probe.ts';
import { jsonLines, linkRecordLines } from '../helpers/run-cli.ts';
import { metadataUri } from '../sdk/message-links-server.ts';
import { processEnv, proxyCommandLine, shippedPolicy } from './proxy-helpers.ts';

type Json = Record<string, unknown>;
const server = tsServer('test/sdk/message-links-server.ts');
const refIn = (text: string) => /record `([0-9a-f]{10})`/.exec(text)?.[1];

// what the host sends, the same to the proxy and to the decorator: the handshake (with sampling), the prompt, and the
// tool call that makes the server send its sampling request (`twice`: the prompt and tool whose messages each carry the
// refused link at their first place)
const hostMessages = (twice = false): Json[] => [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: { sampling: {} },
      clientInfo: { name: 'raw-host', version: '1.0.0' },
    },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: twice ? 'twice' : 'links' } },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: twice ? 'sample-twice' : 'sample', arguments: {} } },
];

// waits for messages as they arrive: each wanted message resolves its waiter when it comes
function messageWaiter() {
  const seen: Json[] = [];
  const waiters: { match: (m: Json) => boolean; resolve: (m: Json) => void }[] = [];
  return {
    seen,
    take(message: Json) {
      seen.push(message);
      for (const w of waiters.filter((w) => w.match(message))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(message);
      }
    },
    next(match: (m: Json) => boolean): Promise<Json> {
      const already = seen.find(match);
      if (already !== undefined) return Promise.resolve(already);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}

const isAnswer = (id: number) => (m: Json) => m['id'] === id && m['method'] === undefined;
const isSampling = (m: Json) => m['method'] === 'sampling/createMessage';
const promptNotice = (answer: Json) =>
  String(((answer['result'] as { messages: { content: Json }[] }).messages[0]?.content as Json)['text']);
const samplingNotice = (request: Json) =>
  String(((request['params'] as { messages: { content: Json[] }[] }).messages[0]?.content[0] as Json)['text']);
// the text of every message's first block (of a `tool_result` block's first block, when that is the message's)
const firstTexts = (messages: { content: unknown }[]) =>
  messages.map(({ content }) => {
    const first = (Array.isArray(content) ? content[0] : content) as Json;
    return String((first['type'] === 'tool_result' ? (first['content'] as Json[])[0] : first)?.['text']);
  });

interface Seen {
  prompt: string;
  sampling: string;
  /** every message's first text, of the prompt and of the sampling request */
  texts: { prompt: string[]; sampling: string[] };
}

const seenOf = (promptAnswer: Json, sampling: Json): Seen => ({
  prompt: promptNotice(promptAnswer),
  sampling: samplingNotice(sampling),
  texts: {
    prompt: firstTexts((promptAnswer['result'] as { messages: { content: unknown }[] }).messages),
    sampling: firstTexts((sampling['params'] as { messages: { content: unknown }[] }).messages),
  },
});

// the proxy as a host starts it: its own process, stdio piped; the records file is complete once it has exited
async function viaProxy(
  twice = false,
): Promise<Seen & { lines: unknown[]; records: unknown[]; exitCode: number | null; stderr: string }> {
  const recordsFile = path.join(await mkdtemp(path.join(tmpdir(), 'linkgate-proxy-refs-')), 'records.jsonl');
  const [command, ...args] = proxyCommandLine(
    ['--policy', shippedPolicy('default'), '--server', 'docs', '--records', recordsFile],
    server,
  );
  const child = spawn(command as string, args, { stdio: ['pipe', 'pipe', 'pipe'], env: processEnv() });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const got = messageWaiter();
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      got.take(JSON.parse(buffered.slice(0, end)) as Json);
      buffered = buffered.slice(end + 1);
    }
  });
  const send = (message: Json) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const [initialize, initialized, prompt, call] = hostMessages(twice) as [Json, Json, Json, Json];
  send(initialize);
  await got.next(isAnswer(1));
  send(initialized);
  send(prompt);
  const promptAnswer = await got.next(isAnswer(2));
  send(call);
  const sampling = await got.next(isSampling);
  send({
    jsonrpc: '2.0',
    id: sampling['id'],
    result: { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'none' },
  });
  await got.next(isAnswer(3));
  child.stdin.end();
  const [exitCode] = await exited;
  const text = await readFile(recordsFile, 'utf8');
  return {
    ...seenOf(promptAnswer, sampling),
    lines: jsonLines(text),
    records: linkRecordLines(text),
    exitCode,
    stderr,
  };
}

// the transport decorator over the same server, sent the same messages with the same ids and the same server name
async function viaDecorator(twice = false): Promise<Seen> {
  const gate = createGate(await loadPolicy(shippedPolicy('default')));
  const [command, ...args] = server;
  const transport = gateTransport(new StdioClientTransport({ command: command as string, args, stderr: 'ignore' }), {
    gate,
    server: 'docs',
    sink: callbackSink(() => {}),
  });
  const got = messageWaiter();
  transport.onmessage = (message) => got.take(message);
  await transport.start();
  const send = (message: Json) => transport.send(message as JSONRPCMessage);
  const [initialize, initialized, prompt, call] = hostMessages(twice) as [Json, Json, Json, Json];
  await send(initialize);
  await got.next(isAnswer(1));
  await send(initialized);
  await send(prompt);
  const promptAnswer = await got.next(isAnswer(2));
  await send(call);
  const sampling = await got.next(isSampling);
  await got.next(isAnswer(3));
  await transport.close();
  return seenOf(promptAnswer, sampling);
}

describe('linkgate proxy: links of a prompt and of a sampling request get their records', () => {
  test('each refused link becomes a notice naming its one record, the ref the decorator gives', async () => {
    const proxied = await viaProxy();
    expect(proxied.exitCode, proxied.stderr).toBe(0);
    const refusedRecords = (proxied.records as LinkRecord[]).filter((r) => r.uri === maskUri(metadataUri));
    for (const [notice, responseId] of [
      [proxied.prompt, 2],
      [proxied.sampling, 'sample-1'],
    ] as const) {
      // (a) replaced by a notice that names the link, not its address
      expect(notice).toMatch(/^linkgate refused the link `meta` \(scheme `http`\): uri\.non-public-address/);
      expect(notice).not.toContain('169.254.169.254');
      // (b) exactly one record of it, for this message, with the four stages: found, and never read
      const mine = refusedRecords.filter((r) => r.stages.discovered?.responseId === responseId);
      expect(mine).toHaveLength(1);
      const record = mine[0] as LinkRecord;
      expect(Object.keys(record.stages).sort()).toEqual(['delivered', 'discovered', 'received', 'requested']);
      expect(record).toMatchObject({
        verdict: 'link-only',
        decisions: { link: { effect: 'deny', reasons: [{ code: 'uri.non-public-address' }] }, read: null },
        stages: { requested: null, received: null, delivered: null },
      });
      expect(record.stages.discovered).toMatchObject({ server: 'docs', uri: maskUri(metadataUri) });
      // (c) the notice's ref is that record's ref
      const ref = recordRef(record.stages.discovered);
      expect(refIn(notice)).toBe(ref);
      // every line the file holds for it (its discovery line, then its record) names that same record
      const lines = (proxied.lines as LinkRecord[]).filter(
        (r) => r.uri === maskUri(metadataUri) && r.stages.discovered?.responseId === responseId,
      );
      expect(lines.map((r) => recordRef(r.stages.discovered))).toEqual(lines.map(() => ref));
    }
    expect(refusedRecords).toHaveLength(2);
    // the allowed link of the prompt is recorded too
    expect((proxied.records as LinkRecord[]).filter((r) => r.uri === 'guide://docs/readme')).toHaveLength(1);
    // the same notices, record refs included, as the decorator gives for the same messages
    const decorated = await viaDecorator();
    expect({ prompt: proxied.prompt, sampling: proxied.sampling }).toEqual({
      prompt: decorated.prompt,
      sampling: decorated.sampling,
    });
  }, 60_000);

  // positions once counted within each message: the links had the same server, response id, index and uri, so one
  // record ref for all of them (issue 39, second reading)
  test('the same refused link at the same place of several messages: a notice, a record and a ref each', async () => {
    const proxied = await viaProxy(true);
    expect(proxied.exitCode, proxied.stderr).toBe(0);
    const refused = (proxied.records as LinkRecord[]).filter((r) => r.uri === maskUri(metadataUri));
    for (const [notices, responseId, count] of [
      [proxied.texts.prompt, 2, 2],
      [proxied.texts.sampling, 'sample-1', 3],
    ] as const) {
      expect(notices).toHaveLength(count);
      for (const notice of notices) expect(notice).toMatch(/^linkgate refused the link `meta`/);
      const mine = refused.filter((r) => r.stages.discovered?.responseId === responseId);
      expect(mine).toHaveLength(count);
      const refs = mine.map((r) => recordRef(r.stages.discovered));
      expect(new Set(refs).size).toBe(count);
      expect(notices.map(refIn)).toEqual(refs);
    }
    // the same notices, refs included, from the decorator
    expect(proxied.texts).toEqual((await viaDecorator(true)).texts);
  }, 60_000);
});
