import { afterEach, describe, expect, test, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { gateToolResult } from '../../src/sdk/gate-tool-result.ts';
import { minJudgementMs } from '../../src/flow/guard-gate.ts';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { gateErrorCode } from '../../src/sdk/gate-transport.ts';
import { connectFault, type FaultClient, faultStdio, type SdkMajor } from './fault-clients.ts';
import { refusedUris, safeUri } from './fault-server.ts';
import { defaultPolicyWith } from './fake-gate.ts';

// A gate is host code as far as a front end knows: it may throw, reject or never answer. Whatever it does, the host
// gets its answer at once (well inside the SDK's own request timeout), nothing refused is handed on, and every link
// has a record. Each request below carries its own SDK timeout, so a front end that never answers fails the test.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

type Fault = 'link throws' | 'embedded rejects' | 'read throws' | 'link never answers';

/** The default policy's gate (read deadline `deadlineMs`) with one method replaced by a fault. */
async function faultyGate(fault: Fault, deadlineMs = 10_000): Promise<Gate> {
  const base = createGate(await defaultPolicyWith({ readTimeoutMs: deadlineMs }));
  const boom = () => {
    throw new Error('boom: the engine broke');
  };
  switch (fault) {
    case 'link throws':
      return {
        ...base,
        decideLink: boom,
        decide: (line: unknown) => ((line as { stage?: string }).stage === 'link' ? boom() : base.decide(line)),
      };
    case 'embedded rejects':
      return { ...base, decideEmbedded: async () => boom() };
    case 'read throws':
      return {
        ...base,
        decideRead: boom,
        decideReadDetailed: boom,
        decide: (line: unknown) => ((line as { stage?: string }).stage === 'read' ? boom() : base.decide(line)),
      };
    case 'link never answers':
      return {
        ...base,
        decide: (line: unknown) =>
          (line as { stage?: string }).stage === 'link' ? new Promise(() => {}) : base.decide(line),
      };
  }
}

async function connect(major: SdkMajor, gate: Gate): Promise<FaultClient> {
  const client = await connectFault(major, gate);
  closers.push(() => client.close());
  return client;
}

const codesOf = (item: Record<string, unknown>) => JSON.stringify(item);

describe.each(['1.x', '2.x'] as const)('gateTransport under the real SDK %s Client, with a faulty gate', (major) => {
  test('a gate that throws on every link decision: the tool result is answered at once, every link a notice', async () => {
    const client = await connect(major, await faultyGate('link throws'));
    const started = performance.now();
    const result = await client.callTool('links', 5000);
    const elapsedMs = performance.now() - started;
    console.info(`[measure] ${major} throwing link gate: tool result answered in ${Math.round(elapsedMs)} ms`);
    expect(result.content.filter((c) => c['type'] === 'resource_link')).toEqual([]);
    const notices = result.content.filter((c) => c['type'] === 'text' && String(c['text']).includes('engine.error'));
    // every link, and the embedded resource whose uri the gate could not judge as a pointer (52a98d4)
    expect(notices).toHaveLength(1 + refusedUris.length + 1);
    expect(result.content.some((c) => c['type'] === 'resource')).toBe(false);
    await client.close();
    expect(client.records).toHaveLength(1 + refusedUris.length);
    for (const record of client.records) {
      expect(record.decisions.link.effect).toBe('deny');
      expect(record.decisions.link.reasons.map((r) => r.code)).toEqual(['engine.error']);
    }
  });

  test('a gate whose embedded check rejects: the embedded body is withheld with its record', async () => {
    const client = await connect(major, await faultyGate('embedded rejects'));
    const result = await client.callTool('links', 5000);
    expect(result.content.some((c) => c['type'] === 'resource')).toBe(false);
    expect(result.content.map(codesOf).join('\n')).toContain('engine.error');
    await client.close();
    expect(client.embedded.map((r) => r.decision.reasons[0]?.code)).toEqual(['engine.error']);
  });

  test('a gate that throws judging a read answer: the read is refused at once, with its record', async () => {
    const client = await connect(major, await faultyGate('read throws'));
    await client.callTool('links', 5000);
    const started = performance.now();
    const error = await client.readResource(safeUri, 5000).then(
      () => undefined,
      (e: unknown) => e as { code?: number; message?: string },
    );
    console.info(
      `[measure] ${major} throwing read gate: read answered in ${Math.round(performance.now() - started)} ms`,
    );
    expect(error?.code).toBe(gateErrorCode);
    expect(error?.message).toContain('engine.error');
    await client.close();
    const record = client.records.find((r) => r.uri === safeUri);
    expect(record?.decisions.read?.reasons.map((r) => r.code)).toEqual(['engine.error']);
    expect(record?.stages.delivered).toBeNull();
  });

  // one deadline for the whole message, not one per link, nor one for the links and then one for the embedded
  // resource's label (52a98d4 judged the label after the links: 20 s for a 10 s deadline). Fake timers: the deadline
  // passes when the test says, and the fake clock says when the answer came.
  test('a gate that never answers: the whole tool result ends at one gate deadline, failing closed', async () => {
    const silent = await faultyGate('link never answers', 1000);
    const linkCount = 1 + refusedUris.length;
    // the judgement has begun once the gate is first asked
    let begun: () => void = () => {};
    const asked = new Promise<void>((resolve) => (begun = resolve));
    const client = await connect(major, {
      ...silent,
      decide: (line: unknown) => {
        begun();
        return silent.decide(line);
      },
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const started = performance.now();
      let answeredAt: number | null = null;
      const calling = client.callTool('links', 10 * minJudgementMs).then((result) => {
        answeredAt = performance.now() - started;
        return result;
      });
      await asked;
      await vi.advanceTimersByTimeAsync(minJudgementMs - 1);
      expect(answeredAt).toBeNull();
      // the deadline passes; a second one would end at twice it
      for (let step = 0; answeredAt === null && step < 30; step += 1) await vi.advanceTimersByTimeAsync(1000);
      console.info(`[measure] ${major} silent gate (${minJudgementMs} ms deadline): answered at ${answeredAt} ms`);
      expect(answeredAt).toBeGreaterThanOrEqual(minJudgementMs);
      expect(answeredAt).toBeLessThan(2 * minJudgementMs);
      const result = await calling;
      expect(result.content.filter((c) => c['type'] === 'resource_link')).toEqual([]);
      // every link, and the embedded resource whose uri is judged as a pointer by the same silent gate (52a98d4)
      expect(result.content.filter((c) => String(c['text']).includes('engine.error'))).toHaveLength(linkCount + 1);
      expect(result.content.some((c) => c['type'] === 'resource')).toBe(false);
    } finally {
      vi.useRealTimers();
    }
    await client.close();
    expect(client.records).toHaveLength(linkCount);
  });
});

describe('gateToolResult with a faulty gate', () => {
  // the embedded resource's label was judged after the links' flows: a second deadline (issue 39, second reading)
  test('a gate that never answers: the tool result resolves at one gate deadline, failing closed', async () => {
    const silent = await faultyGate('link never answers', 1000);
    let begun: () => void = () => {};
    const asked = new Promise<void>((resolve) => (begun = resolve));
    const gate = {
      ...silent,
      decide: (line: unknown) => {
        begun();
        return silent.decide(line);
      },
    };
    const client = new Client({ name: 'helper-host', version: '1.0.0' });
    await client.connect(faultStdio('1.x'));
    closers.push(() => client.close());
    const tool = await client.callTool({ name: 'links' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const started = performance.now();
      let resolvedAt: number | null = null;
      const gating = gateToolResult(client, tool, { gate, server: 'fault', tool: 'links' }).then((gated) => {
        resolvedAt = performance.now() - started;
        return gated;
      });
      await asked;
      await vi.advanceTimersByTimeAsync(minJudgementMs - 1);
      expect(resolvedAt).toBeNull();
      for (let step = 0; resolvedAt === null && step < 30; step += 1) await vi.advanceTimersByTimeAsync(1000);
      expect(resolvedAt).toBeGreaterThanOrEqual(minJudgementMs);
      expect(resolvedAt).toBeLessThan(2 * minJudgementMs);
      const gated = await gating;
      expect(gated.content.filter((c) => c['type'] === 'resource_link' || c['type'] === 'resource')).toEqual([]);
      expect(gated.embedded.map((e) => [e.decision.effect, e.decision.reasons[0]?.code])).toEqual([
        ['deny', 'engine.error'],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  test.each(['link throws', 'read throws', 'embedded rejects'] as const)(
    '%s: it resolves, failing closed',
    async (fault) => {
      const gate = await faultyGate(fault);
      const client = new Client({ name: 'helper-host', version: '1.0.0' });
      await client.connect(faultStdio('1.x'));
      closers.push(() => client.close());
      const tool = await client.callTool({ name: 'links' });
      const gated = await gateToolResult(client, tool, { gate, server: 'fault', tool: 'links' });
      const resourceUris = gated.content
        .filter((c) => c['type'] === 'resource')
        .map((c) => (c['resource'] as { uri?: string }).uri);
      if (fault === 'link throws') expect(gated.content.filter((c) => c['type'] === 'resource_link')).toEqual([]);
      if (fault === 'read throws') expect(resourceUris).not.toContain(safeUri);
      if (fault === 'embedded rejects') expect(resourceUris).not.toContain('fault://docs/inline.txt');
      const codes = [
        ...gated.records.map((r) => r.decisions.read ?? r.decisions.link),
        ...gated.embedded.map((e) => e.decision),
      ].flatMap((d) => d.reasons.map((r) => r.code));
      expect(codes).toContain('engine.error');
    },
  );
});
