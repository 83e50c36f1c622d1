// A tool result passed on through `gateTransport` has its links' records written before it goes on (DESIGN §4c): a
// sink that takes link records only (`write`, no `writeDiscovered`: `callbackSink`, a host's own) gets the discovery
// records through `write`, so a sink that throws or rejects withholds that tool result (`onRecordError: 'withhold'`,
// the default) or hands it on and reports (`'report'`), as the proxy, the hook and `gateToolResult` do. Over a real
// SDK Client, 1.x (`@modelcontextprotocol/sdk`) and 2.x (`@modelcontextprotocol/client`), and a real stdio server.
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import type { OnRecordError } from '../../src/record/record-error.ts';
import { recordViolations } from '../../src/record/record-invariants.ts';
import { callbackSink, type RecordSink } from '../../src/record/record-sink.ts';
import { gatedLinks } from '../../src/frameworks/gated-links.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { tsServer } from '../e2e/run-probe.ts';
import { hostileLinks } from '../fixtures/servers/hostile-server.ts';

const readme = 'demo://hostile/readme.txt';
const failure = 'no space left on device';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => {});
});

// the two real clients, each on a stdio transport to the hostile fixture server, decorated with `sink`
const clients = {
  async v1(sink: RecordSink, onRecordError?: OnRecordError) {
    const [command, ...args] = tsServer('test/fixtures/servers/hostile-server.ts');
    const stdio = new StdioClientTransport({ command: command as string, args, stderr: 'ignore' });
    const transport = gateTransport(stdio, { gate: await gate(), server: 'hostile', sink, ...option(onRecordError) });
    const client = new Client({ name: 'records-v1', version: '1' });
    await client.connect(transport);
    const heard: string[] = [];
    client.onerror = (error) => heard.push(error.message);
    closers.push(() => client.close());
    return {
      heard,
      close: () => client.close(),
      call: () => client.callTool({ name: 'links', arguments: {} }) as Promise<{ content: { type: string }[] }>,
      read: (uri: string) => client.readResource({ uri }),
    };
  },
  async v2(sink: RecordSink, onRecordError?: OnRecordError) {
    const [command, ...args] = tsServer('test/fixtures/servers/hostile-server.ts');
    const stdio = new StdioV2({ command: command as string, args, stderr: 'ignore' });
    const transport = gateTransport(stdio, { gate: await gate(), server: 'hostile', sink, ...option(onRecordError) });
    const client = new ClientV2({ name: 'records-v2', version: '2' });
    await client.connect(transport);
    const heard: string[] = [];
    client.onerror = (error) => heard.push(error.message);
    closers.push(() => client.close());
    return {
      heard,
      close: () => client.close(),
      call: () => client.callTool({ name: 'links', arguments: {} }) as Promise<{ content: { type: string }[] }>,
      read: (uri: string) => client.readResource({ uri }),
    };
  },
};

const gate = async () => createGate(await loadPolicy('policies/default.yaml'));
const option = (onRecordError: OnRecordError | undefined) => (onRecordError === undefined ? {} : { onRecordError });

// what a call came to: its items' types, or the error it was answered with
const outcome = (p: Promise<{ content: { type: string }[] }>) =>
  p.then(
    (result) => result.content.map((item) => item.type).join(','),
    (error: unknown) => (error as Error).message,
  );

// sinks that fail every link record: by throwing at once, by rejecting later
const failing: Record<string, () => RecordSink> = {
  throwing: () => ({
    write: () => {
      throw new Error(failure);
    },
    close: async () => {},
  }),
  rejecting: () =>
    callbackSink(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error(failure);
    }),
};

describe.each(['v1', 'v2'] as const)('gateTransport over a real %s SDK Client and stdio server', (version) => {
  test.each(Object.keys(failing))(
    'a %s records sink withholds the passed tool result (default withhold), never silently',
    async (kind) => {
      const c = await clients[version]((failing[kind] as () => RecordSink)());
      const got = await outcome(c.call());
      expect(got).toMatch(/could not write the record, so it passes on none of it/);
      expect(got).toContain(failure);
      expect(c.heard).toContain(failure);
    },
    30_000,
  );

  test('onRecordError report: the tool result is handed on as judged, the failure heard', async () => {
    const c = await clients[version]((failing['rejecting'] as () => RecordSink)(), 'report');
    expect(await outcome(c.call())).toBe('text,text,text,resource_link,resource_link');
    expect(c.heard).toContain(failure);
  }, 30_000);

  test('every listed link is recorded before the result is handed on, then once more, and no more', async () => {
    const records: LinkRecord[] = [];
    const c = await clients[version](callbackSink((r) => void records.push(r)));
    await c.call();
    // the discovery records are in the sink by the time the client has the result
    const discovered = records.filter((r) => 'kind' in r && r.kind === 'discovered');
    expect(discovered.map((r) => r.uri)).toEqual(hostileLinks.map((l) => l.uri).map(masked));
    expect(records).toHaveLength(hostileLinks.length);
    await c.read(readme);
    await c.close();
    const last = records.filter((r) => !('kind' in r));
    // each link: its discovery record and one last record (the read, or link-only at close)
    expect(last.map((r) => r.uri).sort()).toEqual(
      hostileLinks
        .map((l) => l.uri)
        .map(masked)
        .sort(),
    );
    expect(records).toHaveLength(2 * hostileLinks.length);
    expect(last.find((r) => r.uri === readme)?.verdict).toBe('body-obtained');
    expect(records.flatMap((r) => recordViolations(r))).toEqual([]);
  }, 30_000);
});

// the frameworks' read tools (AI SDK, LangChain, Mastra, OpenAI Agents) connect through `gatedLinks`' transports
test('gatedLinks: a throwing sink withholds the passed tool result, and the read tool answers with a notice', async () => {
  const links = gatedLinks({ gate: await gate(), sink: (failing['throwing'] as () => RecordSink)() });
  const [command, ...args] = tsServer('test/fixtures/servers/hostile-server.ts');
  const client = new Client({ name: 'records-frameworks', version: '1' });
  await client.connect(links.transport('hostile', new StdioClientTransport({ command: command as string, args })));
  closers.push(() => client.close());
  const got = await outcome(client.callTool({ name: 'links', arguments: {} }) as never);
  expect(got).toMatch(/could not write the record/);
  // nothing was passed on, so the read tool knows no link to read
  expect(await links.read(readme)).toMatch(/linkgate/);
}, 30_000);

// the record's masked uri (the metadata link keeps its path; none of these has userinfo, query or fragment)
function masked(uri: string): string {
  return uri;
}
