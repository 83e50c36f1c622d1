// One deadline per message through the proxy (issue 39, sdkorder item 3): with a gate that never answers, the decorator
// under the proxy decided a message's links (one gate deadline) and only then handed it to the proxy, which began
// judging its embedded resources (and, for a prompt or a sampling request, its links again): a second deadline. Fake
// timers: the deadline passes when the test says, and the fake clock says when the host got its answer.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { minJudgementMs } from '../../src/flow/guard-gate.ts';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { RawHost } from '../proxy/raw-host.ts';
import { call, closeAll, link, policyFile, proxied } from '../redteam/scripted-host.ts';
import { oneWriteServer } from './order-fronts.ts';

afterEach(async () => {
  vi.useRealTimers();
  await closeAll();
});

type Json = Record<string, unknown>;

const embedded = { type: 'resource', resource: { uri: 'rt://docs/inline.txt', mimeType: 'text/plain', text: 'notes' } };
const items = [link('rt://docs/a.md', 'a'), embedded];

/** The shipped policy's gate whose link decisions never answer; `asked` resolves once it was first asked. */
async function silentGate(): Promise<{ gate: Gate; asked: Promise<void> }> {
  const base = createGate(await loadPolicy(policyFile));
  let begun: () => void = () => {};
  const asked = new Promise<void>((resolve) => (begun = resolve));
  const silent = (line: unknown) => {
    begun();
    return (line as { stage?: string }).stage === 'link' ? new Promise<never>(() => {}) : base.decide(line);
  };
  return { gate: { ...base, decide: silent, decideLink: silent as never }, asked };
}

/** When (fake milliseconds after `send`) the host got the message `match` picks, advancing past one deadline. */
async function answeredAfter(host: RawHost, asked: Promise<void>, send: () => void, match: (m: Json) => boolean) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  const started = performance.now();
  let at: number | null = null;
  let got: Json | null = null;
  send();
  const waiting = host.waitFor(match, 10 * minJudgementMs).then((m) => {
    at = performance.now() - started;
    got = m;
  });
  await asked;
  await vi.advanceTimersByTimeAsync(minJudgementMs - 1);
  expect(at).toBeNull();
  // the deadline passes; a second one would end at twice it
  for (let step = 0; at === null && step < 40; step += 1) await vi.advanceTimersByTimeAsync(1000);
  vi.useRealTimers();
  await waiting;
  return { at: at as number | null, got: got as Json | null };
}

describe('the proxy under a gate that never answers: one deadline per message', () => {
  test('a tool result with a link and an embedded resource', async () => {
    const { gate, asked } = await silentGate();
    const { host } = await proxied(gate, oneWriteServer);
    const { at, got } = await answeredAfter(
      host,
      asked,
      () =>
        host.send({
          jsonrpc: '2.0',
          id: 't1',
          method: 'tools/call',
          params: { name: 'result', arguments: { result: { content: items } } },
        }),
      (m) => m['id'] === 't1',
    );
    console.info(`[measure] proxy, tool result, silent gate (${minJudgementMs} ms deadline): answered at ${at} ms`);
    expect(at).toBeGreaterThanOrEqual(minJudgementMs);
    expect(at).toBeLessThan(2 * minJudgementMs);
    const text = JSON.stringify(got);
    expect(text).not.toContain('"type":"resource"');
    expect(text).toContain('engine.error');
  });

  test('a prompt with a link and an embedded resource', async () => {
    const { gate, asked } = await silentGate();
    const { host } = await proxied(gate, oneWriteServer);
    const prompt = {
      result: {
        messages: [
          { role: 'user', content: items[0] },
          { role: 'user', content: embedded },
        ],
      },
    };
    await call(host, { answers: { 'prompts/get': prompt } });
    const { at, got } = await answeredAfter(
      host,
      asked,
      () => host.send({ jsonrpc: '2.0', id: 'p1', method: 'prompts/get', params: { name: 'p' } }),
      (m) => m['id'] === 'p1',
    );
    console.info(`[measure] proxy, prompt, silent gate (${minJudgementMs} ms deadline): answered at ${at} ms`);
    expect(at).toBeGreaterThanOrEqual(minJudgementMs);
    expect(at).toBeLessThan(2 * minJudgementMs);
    expect(JSON.stringify(got)).not.toContain('"type":"resource"');
  });

  test('a sampling request with a link and an embedded resource', async () => {
    const { gate, asked } = await silentGate();
    const { host } = await proxied(gate, oneWriteServer);
    const ask = {
      jsonrpc: '2.0',
      id: 's1',
      method: 'sampling/createMessage',
      params: { maxTokens: 5, messages: [{ role: 'user', content: items }] },
    };
    const { at, got } = await answeredAfter(
      host,
      asked,
      () =>
        host.send({
          jsonrpc: '2.0',
          id: 't2',
          method: 'tools/call',
          params: { name: 'result', arguments: { with: [ask] } },
        }),
      (m) => m['method'] === 'sampling/createMessage',
    );
    console.info(
      `[measure] proxy, sampling request, silent gate (${minJudgementMs} ms deadline): handed on at ${at} ms`,
    );
    expect(at).toBeGreaterThanOrEqual(minJudgementMs);
    expect(at).toBeLessThan(2 * minJudgementMs);
    expect(JSON.stringify(got)).not.toContain('"type":"resource"');
  });
});
