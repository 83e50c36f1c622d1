import { spawn } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { demoLinks } from '../../src/demo/demo-server.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { demoServer, processEnv } from './proxy-helpers.ts';
import { defaultPolicyWith } from '../sdk/fake-gate.ts';
import { startRawHost } from './raw-host.ts';
import { waitUntil } from '../helpers/wait-until.ts';

type Json = Record<string, unknown>;

const demo = [...demoServer, '--slow-ms', '50'];

// the host's whole session, request by request: the handshake, the tool that returns the links, a read of each link
const session: Json[] = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'observe-host', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'show-links', arguments: {} } },
  ...demoLinks.map((l, i) => ({ jsonrpc: '2.0', id: 10 + i, method: 'resources/read', params: { uri: l.uri } })),
];

// sends each message as a line and waits for the answer to each request; returns every line that came back
async function runSession(send: (line: string) => void, answered: (id: unknown) => Promise<void>): Promise<void> {
  for (const message of session) {
    send(JSON.stringify(message));
    if (message['id'] !== undefined) await answered(message['id']);
  }
}

// the same session straight to the demo server, no proxy: the answers a host would get without linkgate
async function direct(): Promise<string[]> {
  const [command, ...args] = demo;
  const child = spawn(command as string, args, { stdio: ['pipe', 'pipe', 'ignore'], env: processEnv() });
  const lines: string[] = [];
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      lines.push(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
    }
  });
  const answered = async (id: unknown) => {
    await waitUntil(`the answer to ${String(id)}`, () =>
      lines.some((l) => (JSON.parse(l) as Json)['id'] === id) ? true : undefined,
    );
  };
  await runSession((line) => child.stdin.write(`${line}\n`), answered);
  child.stdin.end();
  await new Promise((resolve) => child.once('exit', resolve));
  return lines;
}

async function viaProxy(mode: 'enforce' | 'observe'): Promise<{ lines: string[]; records: LinkRecord[] }> {
  // the default policy with a read deadline that only ends a hung read: on a loaded machine a 10 s deadline made
  // enforce answer `read.timeout` where observe had judged the body
  const gate = createGate(await defaultPolicyWith({ readTimeoutMs: 120_000 }));
  const [command, ...args] = demo;
  const host = startRawHost(gate, { kind: 'command', command: command as string, args }, mode);
  await runSession(
    (line) => host.sendLine(line),
    async (id) => void (await host.waitFor((m) => m['id'] === id && m['method'] === undefined)),
  );
  host.end();
  expect(await host.exit).toBe(0);
  return { lines: host.lines, records: host.records };
}

const summary = (d: LinkRecord['decisions']['link'] | null) =>
  d === null ? null : { effect: d.effect, codes: d.reasons.map((x) => x.code) };

describe('linkgate proxy --mode observe', () => {
  test('forwards every answer byte for byte as the server sent it, and records what enforce would deny', async () => {
    const [plain, observed, enforced] = await Promise.all([direct(), viaProxy('observe'), viaProxy('enforce')]);
    // same lines, same order, same bytes: nothing added under `_meta`, no read refused, nothing filtered
    expect(observed.lines).toHaveLength(plain.length);
    for (const [i, line] of plain.entries()) expect(observed.lines[i], `line ${i}`).toBe(line);
    // the enforcing proxy changes these answers, so the comparison above is not vacuous
    expect(enforced.lines.filter((l, i) => l !== plain[i]).length).toBeGreaterThan(5);

    // one record per link, in read order, each marked observe; decisions are those enforce makes, never softened
    // (a link enforce denies is still read in observe mode, so only observe has a read decision for it)
    expect(observed.records.map((r) => r.uri)).toEqual(enforced.records.map((r) => r.uri));
    expect(observed.records).toHaveLength(demoLinks.length);
    for (const [i, r] of observed.records.entries()) {
      const e = enforced.records[i] as LinkRecord;
      expect(summary(r.decisions.link), r.uri).toEqual(summary(e.decisions.link));
      if (e.decisions.read !== null) expect(summary(r.decisions.read), r.uri).toEqual(summary(e.decisions.read));
      else expect(r.stages.requested, r.uri).not.toBeNull();
    }
    for (const r of observed.records) {
      expect(recordViolations(r), r.uri).toEqual([]);
      expect(r.mode).toBe('observe');
      expect(r.wouldDeny, r.uri).toBe(r.decisions.link.effect === 'deny' || r.decisions.read?.effect === 'deny');
    }
    for (const r of enforced.records) expect(r.wouldDeny).toBeUndefined();
    // what the demo's links would have met under enforcement: only the inert ones and the partial mix pass
    const wouldPass = observed.records.filter((r) => r.wouldDeny === false).map((r) => r.uri);
    expect(wouldPass).toEqual([
      'demo://linkgate/guide.md',
      'demo://linkgate/pixel.png',
      'demo://linkgate/slow.txt',
      'demo://linkgate/mixed',
    ]);
    // a denied link was still read in observe mode: its request went to the server and its body reached the host
    const holiday = observed.records.find((r) => r.uri === 'demo://linkgate/holiday.png');
    expect(holiday?.stages.requested).not.toBeNull();
    expect(holiday?.stages.delivered).not.toBeNull();
  }, 120_000);
});
