// A fault on a path the decorator routes a message by (issue 39 items 4 and 5: every catch on a decision path ends in
// deny or withhold with a reason) answers at once with the gate's -32080 error and is reported through `onerror`,
// over the real SDK Clients (1.x `@modelcontextprotocol/sdk`, 2.x `@modelcontextprotocol/client`) and an in-process
// scripted server: a server request whose routing throws (here the search for refused addresses), at once or held
// behind a tool result whose refusals are being noted, gets the gate's error instead of no answer (the server was left
// waiting on main); a read answered from the cache whose lookup, entry or judgement throws gets the gate's error,
// never the cached body (on main a lookup fault rejected with the raw error, an entry fault left the read waiting).
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { isRecord } from '../../src/decision/json-value.ts';
import type { ReadCache } from '../../src/flow/read-cache.ts';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { connectionByteCap } from '../../src/sdk/connection-byte-cap.ts';
import { gateErrorCode, gateTransport } from '../../src/sdk/gate-transport.ts';
import { RefusedAddresses } from '../../src/sdk/refused-addresses.ts';
import { memorySink } from '../../src/testing/index.ts';
import { repoRoot } from './fake-gate.ts';
import { type ScriptedServer, scriptedServer } from './scripted-server.ts';

const target = 'guide://docs/target';
type Major = '1.x' | '2.x';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const gateOf = async (): Promise<Gate> => createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));

/** The refused addresses of a connection whose search breaks on a server's `ping` (any other message is searched). */
function brokenOnPing(gate: Gate): RefusedAddresses {
  const refused = new RefusedAddresses(connectionByteCap(gate.policy));
  const names = refused.names.bind(refused);
  refused.names = (message: unknown) => {
    if (isRecord(message) && message['method'] === 'ping') throw new Error('the refused-address search broke');
    return names(message);
  };
  return refused;
}

interface Connected {
  callTool(name: string): Promise<unknown>;
  readResource(uri: string): Promise<unknown>;
  /** faults the decorator reported, the first of them once there is one */
  reported: Promise<Error>;
}

/** A real SDK Client of `major` connected through `gateTransport` to `server`. */
async function connect(
  major: Major,
  server: ScriptedServer,
  options: { gate: Gate; refused?: RefusedAddresses; cache?: ReadCache },
): Promise<Connected> {
  const transport = gateTransport(server, { ...options, server: 'docs', sink: memorySink() });
  let report: (error: Error) => void = () => {};
  const reported = new Promise<Error>((resolve) => (report = resolve));
  // each request carries its own SDK timeout, so a read left waiting fails the test rather than hang it
  const timeout = { timeout: 30_000 };
  if (major === '1.x') {
    const client = new ClientV1({ name: 'host', version: '1' });
    await client.connect(transport);
    client.onerror = report;
    closers.push(() => client.close());
    return {
      callTool: (name) => client.callTool({ name, arguments: {} }, undefined, timeout),
      readResource: (uri) => client.readResource({ uri }, timeout),
      reported,
    };
  }
  const client = new ClientV2({ name: 'host', version: '2' });
  await client.connect(transport);
  client.onerror = report;
  closers.push(() => client.close());
  return {
    callTool: (name) => client.callTool({ name, arguments: {} }, timeout),
    readResource: (uri) => client.readResource({ uri }, timeout),
    reported,
  };
}

const ping = { jsonrpc: '2.0', id: 'srv-ping', method: 'ping' };

describe.each<Major>(['1.x', '2.x'])('over the %s SDK Client', (major) => {
  test("a server request whose routing throws gets the gate's error, and the fault is reported", async () => {
    const gate = await gateOf();
    const server = scriptedServer();
    const host = await connect(major, server, { gate, refused: brokenOnPing(gate) });
    try {
      server.push(ping);
    } catch {
      // on main the fault came back to the server's own send: the request was never answered
    }
    expect((await host.reported).message).toContain('refused-address search broke');
    expect(server.received.find((m) => m['id'] === 'srv-ping')).toMatchObject({
      error: { code: gateErrorCode, message: expect.stringContaining('could not judge') },
    });
  });

  test("a server request held behind a tool result's refusals, whose routing throws, gets the gate's error", async () => {
    const gate = await gateOf();
    const result = { content: [{ type: 'resource_link', uri: 'file:///etc/passwd', name: 'passwd' }] };
    // the tool result and the server's ping come as one batch: the ping waits while the result's refusals are noted
    const server = scriptedServer({ 'tools/call': result }, (answer, request) =>
      request['method'] === 'tools/call' ? [answer, ping] : answer,
    );
    const host = await connect(major, server, { gate, refused: brokenOnPing(gate) });
    const called = JSON.stringify(await host.callTool('list'));
    expect(called).not.toContain('file:///etc/passwd');
    expect((await host.reported).message).toContain('refused-address search broke');
    expect(await server.answerTo('srv-ping')).toMatchObject({ error: { code: gateErrorCode } });
  });

  const hit = {
    result: { contents: [{ uri: target, mimeType: 'text/plain', text: 'cached hello' }] },
    ageMs: 1,
    ttlMs: 60_000,
  };
  test.each<[string, ReadCache]>([
    [
      'a lookup that throws',
      {
        lookup: () => {
          throw new Error('cache lookup broke');
        },
        store: () => {},
      } as unknown as ReadCache,
    ],
    [
      'an entry that cannot be read',
      {
        lookup: () => ({
          ...hit,
          get result(): unknown {
            throw new Error('cache entry broke');
          },
        }),
        store: () => {},
      } as unknown as ReadCache,
    ],
  ])("a read answered from the cache with %s gets the gate's error, never the body", async (_n, cache) => {
    const gate = await gateOf();
    const server = scriptedServer({ 'resources/read': { contents: [{ uri: target, text: 'server hello' }] } });
    const host = await connect(major, server, { gate, cache });
    const read = host.readResource(target).then(
      (r) => ({ ok: r }),
      (e: unknown) => ({ failed: e as { code?: unknown; message?: unknown } }),
    );
    const outcome = await read;
    expect(JSON.stringify(outcome)).not.toContain('hello');
    expect(outcome).toMatchObject({ failed: { code: gateErrorCode } });
    expect((await host.reported).message).toContain('cache');
    // nothing was read past the cache
    expect(server.received.filter((m) => m['method'] === 'resources/read')).toEqual([]);
  });

  test('control: a cached answer that judges cleanly is handed on from the cache', async () => {
    const gate = await gateOf();
    const server = scriptedServer();
    const cache = { lookup: () => hit, store: () => {} } as unknown as ReadCache;
    const host = await connect(major, server, { gate, cache });
    expect(JSON.stringify(await host.readResource(target))).toContain('cached hello');
  });
});
