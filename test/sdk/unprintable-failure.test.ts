// Issue 39: a sink or gate failing with a value that has no string form (`Object.create(null)`, a throwing `toString`
// or `Symbol.toPrimitive`, a revoked Proxy) made the code describing the failure throw in its own catch: the decorator
// (`TransportSession.fail`, `new Error(String(error))`) left an unhandled rejection that ends a host process, and
// `gateToolResult` (`recordErrorMessage`) rejected though it says it never does. A real SDK Client talks through
// `gateTransport` to a real SDK server whose tool lists a link; vitest fails a run on any unhandled rejection.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, test } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { RecordSink } from '../../src/record/record-sink.ts';
import { gateToolResult, type RequestingClient } from '../../src/sdk/gate-tool-result.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { repoRoot } from './fake-gate.ts';

const guide = 'guide://docs/start';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const unprintable: [string, () => unknown][] = [
  ['Object.create(null)', () => Object.create(null)],
  [
    'a throwing Symbol.toPrimitive',
    () => ({
      [Symbol.toPrimitive]() {
        throw new Error('no');
      },
    }),
  ],
  [
    'a revoked Proxy',
    () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    },
  ],
];

/** A sink whose every write rejects with `make()`. */
const rejectingSink = (make: () => unknown): RecordSink => ({
  // the point of the case: a rejection that is no Error
  // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
  write: () => Promise.reject(make()),
  close: async () => {},
});

const gate = async (): Promise<Gate> => createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));

describe('a failure with no string form', () => {
  test.each(unprintable)(
    'gateTransport, a sink rejecting %s: onerror gets a one-line Error, the tool result and the read answer',
    async (_, make) => {
      const server = new McpServer({ name: 'docs', version: '1' });
      server.registerTool('list', {}, () => ({
        content: [{ type: 'resource_link' as const, uri: guide, name: 'start' }],
      }));
      server.registerResource('start', guide, {}, (uri) => ({ contents: [{ uri: uri.href, text: 'hello' }] }));
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const gated = gateTransport(clientSide, { gate: await gate(), server: 'docs', sink: rejectingSink(make) });
      const client = new Client({ name: 'host', version: '1' });
      const errors: unknown[] = [];
      await client.connect(gated);
      client.onerror = (error) => errors.push(error);
      closers.push(() => client.close());
      // withheld (the default onRecordError): the tool result whose links could not be recorded, and the read, are
      // answered with the records failure, never left waiting
      const listed = await client.callTool({ name: 'list', arguments: {} }).then(
        (r) => JSON.stringify(r),
        (error: unknown) => String(error),
      );
      expect(listed).toContain('linkgate could not write the record');
      const read = await client.readResource({ uri: guide }).then(
        (r) => JSON.stringify(r),
        (error: unknown) => String(error),
      );
      expect(read).not.toContain('hello');
      expect(read).toContain('linkgate');
      expect(errors.length).toBeGreaterThan(0);
      for (const error of errors) {
        expect(error).toBeInstanceOf(Error);
        expect((error as Error).message).not.toContain('\n');
      }
    },
  );

  test.each(unprintable)(
    'gateToolResult, a sink rejecting %s: resolves, the link withheld, recordError says why',
    async (_, make) => {
      const client: RequestingClient = {
        request: async () => ({ contents: [{ uri: guide, mimeType: 'text/plain', text: 'hello' }] }),
      };
      const raw = { content: [{ type: 'resource_link', uri: guide, name: 'start' }] };
      const result = await gateToolResult(client, raw, {
        gate: await gate(),
        sink: rejectingSink(make),
        server: 'docs',
      });
      expect(JSON.stringify(result)).not.toContain('hello');
      expect(result.recordError).toMatch(/^linkgate could not write the record/);
    },
  );

  test.each(unprintable)(
    'gateToolResult, a gate throwing %s on the link: resolves, nothing handed on',
    async (_, make) => {
      const base = await gate();
      const boom = () => {
        throw make();
      };
      const broken: Gate = { ...base, decideLink: boom, decide: boom };
      const client: RequestingClient = {
        request: async () => ({ contents: [{ uri: guide, mimeType: 'text/plain', text: 'hello' }] }),
      };
      const raw = { content: [{ type: 'resource_link', uri: guide, name: 'start' }] };
      const result = await gateToolResult(client, raw, { gate: broken, sink: rejectingSink(make), server: 'docs' });
      expect(JSON.stringify(result)).not.toContain('hello');
    },
  );
});
