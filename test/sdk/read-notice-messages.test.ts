// What the decorator, the proxy and `gatedRead` hand on for a read they withhold quotes nothing the server sent (issue
// 39 item 3; the hook's rule of 94a0da1, test/hook/read-notice-messages.test.ts, in every front end). A reason's
// message may quote the body: a page's stylesheet href, an attribute or element name, a zip entry's name, the item's
// declared type, the answer's `resultType`. The notice (a -32080 error's message, `gatedRead`'s notice) and the
// decision beside it (the error's data) show each reason by its code, its message only
// where the policy wrote it; the record keeps every message. The proxy and a real SDK client over `gateTransport`
// before the one-write server (order-fronts.ts); `gatedRead` over a real SDK client before the same server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { DiscoveredLinks } from '../../src/flow/discovered-links.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { gatedRead } from '../../src/sdk/gated-read.ts';
import { cases, marker, uri } from '../fixtures/body-quoting-reads.ts';
import { tsServerCommand } from '../real-host/fixture-process.ts';
import { closeAll, onClose, policyFile } from '../redteam/scripted-host.ts';
import { callWith, oneWriteServer, orderFronts } from './order-fronts.ts';

afterEach(closeAll);

const listing = { content: [{ type: 'resource_link', uri, name: 'guide', mimeType: 'text/markdown' }] };

for (const [front, start] of orderFronts)
  describe(`a read the ${front} withholds quotes nothing the server sent`, () => {
    test.each(cases)('%s: by its code, in the notice and the decision beside it', async (_, contents, extra, code) => {
      const f = await start();
      await callWith(f, { result: listing, answers: { 'resources/read': { result: { contents, ...extra } } } });
      const answer = await f.request('resources/read', { uri });
      const handed = JSON.stringify(answer);
      expect(handed).toMatch(/linkgate (?:refused to read|did not complete the read of) `guide`/);
      expect(handed).toContain(code);
      expect(handed).not.toContain(marker);
      expect(await f.got()).not.toContain(marker);
    });
  });

for (const [front, start] of orderFronts)
  describe(`an embedded resource the ${front} withholds quotes nothing the server sent`, () => {
    test.each(cases.filter(([, , extra]) => Object.keys(extra).length === 0))(
      '%s: by its code, in the item that stands for it and its decision',
      async (_, contents) => {
        const f = await start();
        const content = contents.map((resource) => ({ type: 'resource', resource }));
        const answer = await callWith(f, { result: { content } });
        const handed = JSON.stringify(answer);
        expect(handed).toContain('linkgate withheld the embedded resource');
        expect(handed).toContain('io.linkgate/decision');
        expect(handed).not.toContain(marker);
        expect(await f.got()).not.toContain(marker);
      },
    );
  });

describe('a read `gatedRead` withholds quotes nothing the server sent', () => {
  test.each(cases)('%s: by its code in the notice, the record keeps the message', async (_, contents, extra, code) => {
    const [command, ...args] = tsServerCommand(oneWriteServer) as [string, ...string[]];
    const transport = new StdioClientTransport({ command, args, env: { PATH: process.env['PATH'] ?? '' } });
    const client = new Client({ name: 'read-tool-host', version: '1' });
    await client.connect(transport);
    onClose(() => client.close());
    const gate = createGate(await loadPolicy(policyFile));
    const discovered = new DiscoveredLinks();
    const args_ = { result: listing, answers: { 'resources/read': { result: { contents, ...extra } } } };
    const tool = await client.request(
      { method: 'tools/call', params: { name: 'result', arguments: args_ } },
      z.looseObject({}),
    );
    discovered.note('a', tool, 'result');
    const records: LinkRecord[] = [];
    const read = await gatedRead(client, uri, {
      gate,
      server: 'a',
      discovered,
      sink: callbackSink((r) => void records.push(r)),
    });
    expect(read.notice).toMatch(/^linkgate (?:withheld the body of|did not complete the read of) `guide`/);
    expect(read.notice).toContain(code);
    expect(read.notice).not.toContain(marker);
    // the message quotes the body: the record keeps it
    expect(JSON.stringify(records)).toContain(marker);
  });
});
