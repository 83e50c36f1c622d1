import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { gateErrorCode } from '../../src/sdk/gate-transport.ts';
import { bodyOf } from '../fixtures/servers/stdio-lines.ts';
import { policyFile, processesWith, tsServer } from '../e2e/run-probe.ts';
import { leakedResources, resourceCensus, wireServerFile } from '../reliability/wire-harness.ts';
import { initialize, startRawHost, type RawHost } from './raw-host.ts';
import { waitUntil } from '../helpers/wait-until.ts';

type Json = Record<string, unknown>;

async function hostileProxy(options: { stubborn?: boolean } = {}) {
  const marker = `proxy-hostile-${randomUUID()}`;
  const gate = createGate(await loadPolicy(await policyFile({ readTimeoutMs: 1500 })));
  const [command, ...args] = tsServer(wireServerFile, marker);
  const logFile = path.join(await mkdtemp(path.join(tmpdir(), 'linkgate-proxy-hostile-')), 'events.jsonl');
  // the proxy passes its environment to the server: that is how these settings reach it
  process.env['HOSTILE_LOG'] = logFile;
  if (options.stubborn === true) process.env['HOSTILE_STUBBORN'] = '1';
  const host = startRawHost(gate, { kind: 'command', command: command as string, args });
  delete process.env['HOSTILE_STUBBORN'];
  delete process.env['HOSTILE_LOG'];
  await initialize(host);
  const events = async () =>
    (await readFile(logFile, 'utf8').catch(() => ''))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { event: string; written?: number });
  return { host, marker, events };
}

const read = (host: RawHost, uri: string) => host.request('resources/read', { uri });
const textOf = (answer: Json) =>
  ((answer['result'] as Json | undefined)?.['contents'] as Json[] | undefined)?.[0]?.['text'];
const errorOf = (answer: Json) => answer['error'] as { code: number; message: string } | undefined;

describe('hostile servers through the proxy: errors for the affected requests only', () => {
  test('a 200 MiB line fails its own read; reads around it, byte-by-byte answers and floods of reads go on', async () => {
    const before = resourceCensus();
    const { host, marker, events } = await hostileProxy();
    const flood = await read(host, 'hostile://flood/200/big');
    expect(errorOf(flood)?.code).toBe(gateErrorCode);
    expect(errorOf(flood)?.message).toMatch(/over the `\d+` byte cap/);
    // the server writes its whole line (it splices anything else it sends into it); the proxy skips it unbuffered
    const stopped = await waitUntil('the flood stopped', async () =>
      (await events()).find((e) => e.event === 'flood-stopped'),
    );
    expect(stopped.written).toBe(200 * 1024 * 1024);
    const [slow, bytewise, ...many] = await Promise.all([
      read(host, 'hostile://slow/300/beside'),
      read(host, 'hostile://bytewise/1/drip'),
      ...Array.from({ length: 40 }, (_, i) => read(host, `hostile://ok/x/${i}`)),
    ]);
    expect(textOf(slow)).toBe(bodyOf('hostile://slow/300/beside'));
    expect(textOf(bytewise)).toBe(bodyOf('hostile://bytewise/1/drip'));
    expect(many.map(textOf)).toEqual(Array.from({ length: 40 }, (_, i) => bodyOf(`hostile://ok/x/${i}`)));
    expect(textOf(await read(host, 'hostile://ok/x/after'))).toBe(bodyOf('hostile://ok/x/after'));
    // the oversize read is recorded as failed, not as a body
    const floodRecord = host.records.find((r) => r.uri === 'hostile://flood/200/big');
    expect(floodRecord?.verdict).toBe('unverifiable');
    host.end();
    expect(await host.exit).toBe(0);
    expect(processesWith(marker)).toEqual([]);
    expect(await leakedResources(before)).toEqual({});
  }, 120_000);

  test('garbage lines, a wrong id and a second answer: only the request they concern fails, by its deadline', async () => {
    const { host, marker } = await hostileProxy();
    const [garbage, wrongId, twice, ok] = await Promise.all([
      read(host, 'hostile://garbage/answer/g'),
      read(host, 'hostile://wrong-id/x/w'),
      read(host, 'hostile://twice/x/t'),
      read(host, 'hostile://ok/x/o'),
    ]);
    expect(textOf(garbage)).toBe(bodyOf('hostile://garbage/answer/g'));
    expect(errorOf(wrongId)?.code).toBe(gateErrorCode);
    expect(errorOf(wrongId)?.message).toContain('timed out');
    expect(textOf(twice)).toBe(bodyOf('hostile://twice/x/t'));
    expect(textOf(ok)).toBe(bodyOf('hostile://ok/x/o'));
    // the stray answers (wrong id, second answer, garbage with ids nobody waits on) never reach the host
    const twiceId = twice['id'];
    expect(host.lines.filter((l) => (JSON.parse(l) as Json)['id'] === twiceId)).toHaveLength(1);
    expect(
      host.lines.every(
        (l) => typeof (JSON.parse(l) as Json)['id'] !== 'number' || Number((JSON.parse(l) as Json)['id']) < 100_000,
      ),
    ).toBe(true);
    expect(host.stderr()).toContain('no request is waiting on');
    host.end();
    expect(await host.exit).toBe(0);
    expect(processesWith(marker)).toEqual([]);
  }, 60_000);

  test('bad lines from the host: each gets an error the host sees, and the session goes on', async () => {
    const { host } = await hostileProxy();
    host.sendLine('this is not json');
    host.sendLine('{"jsonrpc":"2.0","id":41,"method":"ping"');
    host.sendLine(`{"jsonrpc":"2.0","id":42,"method":"ping","params":{"pad":"${'x'.repeat(20 * 1024 * 1024)}"}}`);
    host.sendLine('{"jsonrpc":"2.0","id":null,"method":"resources/read","params":{"uri":"hostile://ok/x/n"}}');
    const parseError = await host.waitFor((m) => m['id'] === null && errorOf(m)?.code === -32700);
    expect(errorOf(parseError)?.message).toBe('linkgate: message is not valid json-rpc');
    expect(errorOf(await host.waitFor((m) => m['id'] === 41))?.code).toBe(-32700);
    const oversize = await host.waitFor((m) => m['id'] === 42);
    expect(errorOf(oversize)).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/over the `\d+` byte cap/),
    });
    const nullId = await host.waitFor((m) => m['id'] === null && errorOf(m)?.code === -32600);
    expect(errorOf(nullId)?.message).toContain('needs a string or number id');
    expect((await host.request('ping'))['result']).toEqual({});
    host.end();
    expect(await host.exit).toBe(0);
  }, 60_000);

  test('a crash fails the read in flight; the proxy exits with the server’s status and leaves nothing behind', async () => {
    const before = resourceCensus();
    const { host, marker } = await hostileProxy();
    const answer = await read(host, 'hostile://crash/x/c');
    expect(errorOf(answer)).toMatchObject({ code: gateErrorCode });
    expect(await host.exit).toBe(1);
    expect(host.stderr()).toContain('hostile: crashing on purpose');
    expect(processesWith(marker)).toEqual([]);
    expect(await leakedResources(before)).toEqual({});
  }, 60_000);

  test('a server that ignores its stdin closing and SIGTERM is killed; the status says so', async () => {
    const { host, marker } = await hostileProxy({ stubborn: true });
    expect(textOf(await read(host, 'hostile://ok/x/s'))).toBe(bodyOf('hostile://ok/x/s'));
    host.end();
    expect(await host.exit).toBe(128 + 9);
    expect(processesWith(marker)).toEqual([]);
  }, 60_000);
});
