// A URL-mode elicitation asks the host to open a url the server chose: it is judged as a link, so it is recorded as
// one, through the same records sink, by the decorator and the proxy alike; in observe mode too, where nothing is
// refused and the record (with `wouldDeny`) is the only trace of what enforce mode would have refused. The real 2.x
// Client and server, pinned to 2026-07-28 (`input_required`) and to 2025-11-25 (the server's `elicitation/create`).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { elicitationContentType } from '../../src/flow/elicitation-urls.ts';
import { recordRef } from '../../src/flow/record-ref.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { maskUri } from '../../src/link/mask-uri.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { signInUrls } from '../fixtures/servers/modern-era-server.ts';
import { tsServer } from '../e2e/run-probe.ts';
import { defaultPolicyWith, repoRoot } from './fake-gate.ts';
import { finishedInto } from './finished-records.ts';

type Json = Record<string, unknown>;
type Era = 'modern' | 'legacy';
type Mode = 'enforce' | 'observe';
const policyPath = path.join(repoRoot, 'policies/default.yaml');
const serverFile = 'test/fixtures/servers/modern-era-server.ts';

/** What one host session saw and what the front end recorded. */
interface Session {
  /** urls the host's elicitation handler was asked to open */
  opened: string[];
  /** the metadata sign-in's tool result */
  metadata: Json;
  records: LinkRecord[];
}

async function signIn(era: Era, transport: unknown): Promise<Omit<Session, 'records'>> {
  const opened: string[] = [];
  const client = new Client(
    { name: 'elicitation-host', version: '1.0.0' },
    {
      versionNegotiation: era === 'modern' ? { mode: { pin: '2026-07-28' } } : { mode: 'legacy' },
      capabilities: { elicitation: { url: {}, form: {} } },
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as Json;
    if (typeof params['url'] === 'string') opened.push(params['url']);
    return { action: 'accept' };
  });
  await client.connect(transport as never);
  try {
    const metadata = (await client.callTool({ name: 'sign-in-metadata', arguments: {} })) as Json;
    await client.callTool({ name: 'sign-in-public', arguments: {} });
    return { opened, metadata };
  } finally {
    await client.close();
  }
}

async function viaDecorator(era: Era, mode: Mode): Promise<Session> {
  const records: LinkRecord[] = [];
  const gate = createGate(await loadPolicy(policyPath));
  const [command, ...args] = tsServer(serverFile);
  const stdio = new StdioClientTransport({ command: command as string, args, cwd: repoRoot, stderr: 'pipe' });
  const sink = callbackSink(finishedInto(records));
  const transport = gateTransport(stdio, { gate, server: 'docs', mode, sink });
  const seen = await signIn(era, transport);
  await transport.flush();
  return { ...seen, records };
}

async function viaProxy(era: Era, mode: Mode): Promise<Session> {
  const folder = mkdtempSync(path.join(tmpdir(), 'linkgate-elicit-'));
  const file = path.join(folder, 'records.jsonl');
  const cli = ['--import', 'tsx', path.join(repoRoot, 'src/cli/main.ts'), 'proxy', '--policy', policyPath];
  const args = [...cli, '--server', 'docs', '--mode', mode, '--records', file, '--', ...tsServer(serverFile)];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: repoRoot,
    env: process.env as Record<string, string>,
    stderr: 'pipe',
  });
  const seen = await signIn(era, transport);
  // the proxy writes each record before it passes on what the record is about
  const records = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LinkRecord);
  rmSync(folder, { recursive: true, force: true });
  return { ...seen, records };
}

const elicited = (s: Session, url: string) =>
  s.records.filter((r) => r.stages.discovered.contentType === elicitationContentType && r.uri === maskUri(url));

function expectRecorded(s: Session, era: Era, mode: Mode, frontEnd: 'decorator' | 'proxy'): void {
  const [refused, ...moreRefused] = elicited(s, signInUrls.metadata);
  const [allowed, ...moreAllowed] = elicited(s, signInUrls.public);
  expect(moreRefused, JSON.stringify(s.records)).toEqual([]);
  expect(moreAllowed).toEqual([]);
  for (const record of [refused, allowed]) {
    expect(record, JSON.stringify(s.records)).toBeDefined();
    expect(recordViolations(record as LinkRecord)).toEqual([]);
    expect(record?.verdict).toBe('link-only');
    expect(record?.stages.requested).toBeNull();
    expect(record?.stages.discovered).toMatchObject({ server: 'docs', frontEnd, contentIndex: null });
    // 2026: the url came in the tool's own answer; 2025: in the server's request, apart from any tool result
    expect(record?.stages.discovered.tool).toEqual(era === 'modern' ? expect.stringMatching(/^sign-in-/) : null);
  }
  expect(refused?.decisions.link.effect).toBe('deny');
  expect(refused?.decisions.link.reasons.map((r) => r.code)).toContain('uri.non-public-address');
  expect(allowed?.decisions.link.effect).toBe('allow');
  if (mode === 'observe') {
    // nothing is refused: the host opens both, and the records say which enforce mode would have refused
    expect(s.opened).toEqual([signInUrls.metadata, signInUrls.public]);
    expect(refused).toMatchObject({ mode: 'observe', wouldDeny: true });
    expect(allowed).toMatchObject({ mode: 'observe', wouldDeny: false });
  } else {
    expect(s.opened).toEqual([signInUrls.public]);
    expect(refused?.wouldDeny).toBeUndefined();
    // the 2026 notice names the refusal's record, never the url
    if (era === 'modern') {
      const text = ((s.metadata['content'] as Json[] | undefined) ?? []).map((item) => item['text']).join('');
      expect(text).toContain(recordRef((refused as LinkRecord).stages.discovered));
      expect(text).not.toContain('169.254.169.254');
      expect(JSON.stringify(s.metadata)).not.toContain('169.254.169.254/latest');
    }
  }
}

describe('a url-mode elicitation url gets a record, as a link does', () => {
  test.each([
    ['modern', 'observe'],
    ['legacy', 'observe'],
    ['modern', 'enforce'],
    ['legacy', 'enforce'],
  ] as const)('gateTransport, %s era, %s mode', async (era, mode) => {
    expectRecorded(await viaDecorator(era, mode), era, mode, 'decorator');
  });

  test.each([
    ['modern', 'observe'],
    ['legacy', 'observe'],
    ['modern', 'enforce'],
  ] as const)(
    'linkgate proxy, %s era, %s mode',
    async (era, mode) => {
      expectRecorded(await viaProxy(era, mode), era, mode, 'proxy');
      // two tsx processes (the proxy, its server) start for each case: 24-30 s on the shared machine, over the default
    },
    120_000,
  );
});

/** A server that answers every `resources/read` with an `input_required` asking the host to open `url`. */
async function readAsking(url: string, mode: Mode) {
  const records: LinkRecord[] = [];
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serverSide.onmessage = (message) => {
    const m = message as { id?: number; method?: string };
    if (m.id === undefined) return;
    const answers: Record<string, Json> = {
      initialize: {
        protocolVersion: '2025-11-25',
        capabilities: { resources: {} },
        serverInfo: { name: 'asks', version: '1.0.0' },
      },
      'resources/read': {
        resultType: 'input_required',
        inputRequests: { login: { method: 'elicitation/create', params: { mode: 'url', url, message: 'sign in' } } },
        requestState: 'opaque',
      },
    };
    void serverSide.send({ jsonrpc: '2.0', id: m.id, result: answers[m.method ?? ''] ?? {} });
  };
  await serverSide.start();
  const gate = createGate(await defaultPolicyWith({ answerInputRequired: true }));
  const transport = gateTransport(clientSide, {
    gate,
    server: 'docs',
    mode,
    sink: callbackSink(finishedInto(records)),
  });
  const client = new Client1({ name: 'host', version: '1.0.0' });
  await client.connect(transport);
  const answer = await client
    .request({ method: 'resources/read', params: { uri: 'docs://guide.txt' } }, z.looseObject({}))
    .then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
  await transport.flush();
  await client.close();
  return { answer, records };
}

describe('a read whose input_required the host may answer (`read.answerInputRequired`)', () => {
  test('its refused elicitation url never reaches the host, and both url and read are recorded', async () => {
    const { answer, records } = await readAsking(signInUrls.metadata, 'enforce');
    expect('error' in answer && String(answer.error)).toMatch(/uri\.non-public-address/);
    // the notice names no part of the url; the decision under `data` names its host at most, never host and path
    expect('error' in answer && (answer.error as Error).message).not.toContain('169.254.169.254');
    expect(JSON.stringify(answer)).not.toContain('169.254.169.254/latest');
    const url = records.find((r) => r.stages.discovered.contentType === elicitationContentType);
    expect(url?.decisions.link.effect).toBe('deny');
    expect(url?.uri).toBe(maskUri(signInUrls.metadata));
    expect(
      records.some((r) => r.uri === 'docs://guide.txt' && r.stages.received?.resultType === 'input_required'),
    ).toBe(true);
  });

  test.each(['enforce', 'observe'] as const)('an allowed one reaches the host, recorded (%s)', async (mode) => {
    const { answer, records } = await readAsking(signInUrls.public, mode);
    expect('result' in answer && answer.result['resultType']).toBe('input_required');
    const url = records.find((r) => r.stages.discovered.contentType === elicitationContentType);
    expect(url?.decisions.link.effect).toBe('allow');
  });

  test('observe mode passes a would-be refused one on, with its would-deny record', async () => {
    const { answer, records } = await readAsking(signInUrls.metadata, 'observe');
    expect('result' in answer && answer.result['resultType']).toBe('input_required');
    const url = records.find((r) => r.stages.discovered.contentType === elicitationContentType);
    expect(url).toMatchObject({ mode: 'observe', wouldDeny: true });
  });
});
