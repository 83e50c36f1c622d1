import * as net from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { gatedFetch } from '../../src/fetch/gated-fetch.ts';
import type { CreateConnection } from '../../src/fetch/send-hop.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { fetchPolicy } from './support/fetch-policy.ts';
import { startServer, type LocalServer } from './support/local-server.ts';

// The test plays the network: a public address is "routed" to one loopback server and the
// loopback address to another, so no packet leaves the machine. The fetcher's own pinned
// `lookup` decides where each connection goes; the router only follows it.
const publicAddress = '93.184.215.14';
let publicStandIn: LocalServer;
let internal: LocalServer;
let routed: string[];

const router: CreateConnection = (options, _callback): Duplex => {
  const socket = new net.Socket();
  const lookup = options.lookup as net.LookupFunction;
  lookup(String(options.host), { family: 0 }, (error, address) => {
    const target =
      error === null ? { [publicAddress]: publicStandIn.port, '127.0.0.1': internal.port }[String(address)] : undefined;
    routed.push(String(address));
    if (target === undefined) socket.destroy(new Error(`no route to \`${String(address)}\``));
    else socket.connect(target, '127.0.0.1');
  });
  return socket;
};

/** A resolver that answers a public address first and loopback on every later call. */
function rebindingResolver(): { resolve: (name: string) => Promise<string[]>; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    resolve: async (name) => {
      calls.push(name);
      return calls.length === 1 ? [publicAddress] : ['127.0.0.1'];
    },
  };
}

beforeAll(async () => {
  publicStandIn = await startServer();
  internal = await startServer();
  publicStandIn.handle((_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('public'));
  internal.handle((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/plain' }).end('internal secret'),
  );
});
afterAll(async () => {
  await publicStandIn.close();
  await internal.close();
});
beforeEach(() => {
  routed = [];
});

describe('dns rebinding', () => {
  // no loopback origin is exempt here: the only way to reach the internal server is a second resolution
  const gateFor = (resolve: (name: string) => Promise<string[]>) =>
    createGate(fetchPolicy({ origins: [] }), { resolve });

  test('the checked public answer is the one connected to; the loopback answer is never reached', async () => {
    const { resolve, calls } = rebindingResolver();
    const result = await gatedFetch(
      gateFor(resolve),
      { url: 'http://rebind.example.com/doc' },
      { resolve, createConnection: router },
    );
    expect(result.decision.effect).toBe('allow');
    expect(Buffer.from(result.body ?? []).toString()).toBe('public');
    expect(calls).toEqual(['rebind.example.com']);
    expect(routed).toEqual([publicAddress]);
    expect(result.hops[0]?.address).toBe(publicAddress);
    expect(internal.connections()).toBe(0);
  });

  test('a redirect back to the same name resolves again, and the loopback answer is denied at the hop', async () => {
    const { resolve, calls } = rebindingResolver();
    publicStandIn.handle((_request, response) =>
      response.writeHead(302, { location: 'http://rebind.example.com/admin' }).end(),
    );
    try {
      const result = await gatedFetch(
        gateFor(resolve),
        { url: 'http://rebind.example.com/start' },
        { resolve, createConnection: router },
      );
      expect(result.decision.effect).toBe('deny');
      expect(result.decision.reasons.map((r) => r.code)).toContain('uri.non-public-address');
      expect(calls).toEqual(['rebind.example.com', 'rebind.example.com']);
      expect(routed).toEqual([publicAddress]);
      expect(internal.connections()).toBe(0);
    } finally {
      publicStandIn.handle((_request, response) =>
        response.writeHead(200, { 'content-type': 'text/plain' }).end('public'),
      );
    }
  });

  test.each([
    { name: 'a mixed answer (public and loopback)', answers: [publicAddress, '127.0.0.1'] },
    { name: 'a loopback answer', answers: ['127.0.0.1'] },
    { name: 'an ipv4-mapped loopback answer', answers: ['::ffff:127.0.0.1'] },
    { name: 'no answer', answers: [] },
  ])('$name is denied before any connection', async ({ answers }) => {
    const resolve = async () => answers;
    const result = await gatedFetch(
      gateFor(resolve),
      { url: 'http://rebind.example.com/doc' },
      { resolve, createConnection: router },
    );
    expect(result.decision.effect).toBe('deny');
    expect(routed).toEqual([]);
  });
});
