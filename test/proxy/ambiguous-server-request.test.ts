// Issue 39 (fail closed): a server request the proxy withholds because readers of its bytes differ on it (a member
// named twice, `Text` beside `text`) never reaches the host; the server waiting for its answer gets the proxy's error
// instead of waiting for ever, when every reader reads the same id (one whose id is itself ambiguous is not answered:
// the proxy could answer the wrong request). The echo server logs every line it reads: the oracle of what it got.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gateErrorCode } from '../../src/sdk/gate-transport.ts';
import { type RawHost, startEchoHost } from './raw-host.ts';

type Json = Record<string, unknown>;

const sampling = (id: string, content: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":${content}}],"maxTokens":5}}`;

describe('an ambiguous server request is answered, not left waiting', () => {
  let dir = '';
  let log = '';
  let host: RawHost;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'linkgate-ambiguous-request-'));
    log = path.join(dir, 'lines.jsonl');
    host = await startEchoHost(log);
  }, 30_000);
  afterAll(async () => {
    host.end();
    await host.exit;
    await rm(dir, { recursive: true, force: true });
  });
  let marks = 0;

  // has the server write `lines`, then waits until the server has read everything the proxy wrote to it meanwhile:
  // the lines the server read since, as parsed messages
  async function emitted(lines: string[]): Promise<Json[]> {
    const before = (await readFile(log, 'utf8')).split('\n').length;
    const mark = (n: number) => `{"jsonrpc":"2.0","method":"test/mark","params":{"n":${n}}}`;
    const first = (marks += 1);
    host.send({ jsonrpc: '2.0', method: 'test/emit', params: { lines: [...lines, mark(first)] } });
    // the proxy took every line before the mark; then the server reads what the proxy answered before this emit
    await host.waitFor((m) => m['method'] === 'test/mark' && (m['params'] as Json)['n'] === first);
    const second = (marks += 1);
    host.send({ jsonrpc: '2.0', method: 'test/emit', params: { lines: [mark(second)] } });
    await host.waitFor((m) => m['method'] === 'test/mark' && (m['params'] as Json)['n'] === second);
    const read = (await readFile(log, 'utf8')).split('\n').slice(before - 1);
    return read.filter((l) => l !== '').map((l) => JSON.parse(JSON.parse(l) as string) as Json);
  }

  test('a member named twice in its messages: the server gets an error for its id, the host nothing', async () => {
    const read = await emitted([sampling('"s1"', '{"type":"text","text":"a","text":"b"}')]);
    const answer = read.find((m) => m['id'] === 's1');
    expect(answer?.['error']).toMatchObject({ code: gateErrorCode });
    expect(JSON.stringify(answer)).toContain('linkgate withheld the request');
    expect(host.lines.some((l) => l.includes('"s1"'))).toBe(false);
    expect(host.stderr()).toContain("answered the server's request `s1`");
  });

  test('an id with controls, bidi and backticks: written to stderr quoted, each escaped', async () => {
    // the id as JSON text: ESC, a line break, a right-to-left override and a backtick
    const id = '"r\\u001b[2J\\nlinkgate allowed\\u202e`x"';
    const read = await emitted([sampling(id, '{"type":"text","text":"a","text":"b"}')]);
    expect(read.find((m) => typeof m['id'] === 'string' && m['id'].startsWith('r'))?.['error']).toMatchObject({
      code: gateErrorCode,
    });
    const line = host
      .stderr()
      .split('\n')
      .find((l) => l.includes("answered the server's request `r"));
    expect(line).toContain("`r\\u001b[2J\\u000alinkgate allowed\\u202e'x`");
    expect(host.stderr()).not.toMatch(/[\u001b\u202e]/u);
    expect(host.stderr()).not.toContain('\nlinkgate allowed');
  });

  test('a member in another case: answered too', async () => {
    const read = await emitted([sampling('7', '{"type":"text","Text":"a","text":"b"}')]);
    expect(read.find((m) => m['id'] === 7)?.['error']).toMatchObject({ code: gateErrorCode });
  });

  test('an id named twice is not answered (readers differ on which request it is)', async () => {
    const line = sampling('"s2"', '{"type":"text","text":"a"}').replace('"id":"s2"', '"id":"s2","id":"s3"');
    const read = await emitted([line]);
    expect(read.some((m) => m['id'] === 's2' || m['id'] === 's3')).toBe(false);
    expect(host.lines.some((l) => l.includes('"s3"'))).toBe(false);
    expect(host.stderr()).toContain('dropped a line');
  });
});
