// Every link a prompt, a server's sampling request or a resource listing carries ends in a record, as a tool
// result's links do (DESIGN §4c), through `gateTransport` over the real SDK Client: a refused one is replaced (or, in
// a listing, left out) and its record says so, the notice's record ref naming that record. On main they were replaced
// with no record at all (issue 39, left open).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';
import { recordRef } from '../../src/flow/record-ref.ts';
import { maskUri } from '../../src/link/mask-uri.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { gateTransport } from '../../src/sdk/gate-transport.ts';
import { metadataUri } from './message-links-server.ts';
import { sampledContent, sampledMessages, useStdioGate } from './stdio-gate-fixture.ts';
import { finishedInto } from './finished-records.ts';

type Json = Record<string, unknown>;
const stdio = useStdioGate('policies/default.yaml', 'test/sdk/message-links-server.ts');
const { serverParams } = stdio;

function gated(records: LinkRecord[]) {
  return gateTransport(new StdioClientTransport(serverParams()), {
    gate: stdio.gate,
    server: 'docs',
    sink: callbackSink(finishedInto(records)),
  });
}

// the last record of each uri (a later record of a link supersedes its discovery record)
const lastOf = (records: readonly LinkRecord[], uri: string) => records.filter((r) => r.uri === maskUri(uri)).at(-1);
const refIn = (text: string) => /record `([0-9a-f]{10})`/.exec(text)?.[1];

// the refs of the records of `uri` (each link's discovery record and its last record name the same one), in order
const refsOf = (records: readonly LinkRecord[], uri: string) => [
  ...new Set(records.filter((r) => r.uri === maskUri(uri)).map((r) => recordRef(r.stages.discovered))),
];

describe('links of prompts, sampling requests and listings get their records', () => {
  test('a prompt: the refused link becomes its notice naming its record; the allowed one is recorded too', async () => {
    const records: LinkRecord[] = [];
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(gated(records));
    const prompt = await client.getPrompt({ name: 'links' });
    const notice = String((prompt.messages[0]?.content as Json)['text']);
    expect(notice).toMatch(/^linkgate refused the link `meta` \(scheme `http`\): uri\.non-public-address/);
    expect(notice).not.toContain('169.254.169.254');
    await client.close();
    const refused = lastOf(records, metadataUri);
    expect(refused).toMatchObject({ verdict: 'link-only', decisions: { link: { effect: 'deny' } } });
    expect(refIn(notice)).toBe(recordRef((refused as LinkRecord).stages.discovered));
    expect(lastOf(records, 'guide://docs/readme')).toMatchObject({ verdict: 'link-only' });
  });

  test("a server's sampling request: the refused link is replaced and recorded", async () => {
    const records: LinkRecord[] = [];
    const transport = gated(records);
    const block = (await sampledContent(transport))[0] as Json;
    expect(String(block['text'])).toMatch(/^linkgate refused the link `meta`/);
    await transport.close();
    const refused = lastOf(records, metadataUri);
    expect(refused).toMatchObject({ verdict: 'link-only', decisions: { link: { effect: 'deny' } } });
    expect(refIn(String(block['text']))).toBe(recordRef((refused as LinkRecord).stages.discovered));
  });

  // positions once counted within each message: both links had the same server, response id, index and uri, so one
  // record ref for two links, and two records nothing told apart (issue 39, second reading)
  test('the same refused link at the same place of two prompt messages: a record and a ref each', async () => {
    const records: LinkRecord[] = [];
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(gated(records));
    const prompt = await client.getPrompt({ name: 'twice' });
    const notices = prompt.messages.map((m) => String((m.content as Json)['text']));
    for (const notice of notices) expect(notice).toMatch(/^linkgate refused the link `meta`/);
    await client.close();
    const refs = refsOf(records, metadataUri);
    expect(refs).toHaveLength(2);
    expect(notices.map(refIn)).toEqual(refs);
    const final = refs.map((ref) => records.filter((r) => recordRef(r.stages.discovered) === ref).at(-1));
    for (const record of final) expect(record).toMatchObject({ verdict: 'link-only', stages: { requested: null } });
  });

  test("the same refused link at the same place of a sampling request's messages and tool result: one each", async () => {
    const records: LinkRecord[] = [];
    const transport = gated(records);
    const messages = await sampledMessages(transport, 'sample-twice');
    const toolResult = messages[2]?.content[0] as { content: Json[] };
    const notices = [messages[0]?.content[0], messages[1]?.content[0], toolResult.content[0]].map((b) =>
      String((b as Json)['text']),
    );
    for (const notice of notices) expect(notice).toMatch(/^linkgate refused the link `meta`/);
    await transport.close();
    const refs = refsOf(records, metadataUri);
    expect(refs).toHaveLength(3);
    expect(notices.map(refIn)).toEqual(refs);
  });

  test('a listing: the refused entry is left out, and recorded', async () => {
    const records: LinkRecord[] = [];
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(gated(records));
    const listed = await client.listResources();
    expect(listed.resources.map((r) => r.uri)).toEqual(['guide://docs/readme']);
    await client.close();
    expect(lastOf(records, metadataUri)).toMatchObject({
      verdict: 'link-only',
      decisions: { link: { effect: 'deny', reasons: [{ code: 'uri.non-public-address' }] } },
    });
  });

  // a template is judged by what its expansions can reach: a fixed origin as that origin, a variable origin (or a
  // template that is one expression) by its fixed scheme only; on main each `{…}` was emptied, which dropped `{+url}`
  test('a template listing: templates whose fixed origin is refused are left out, open ones stay', async () => {
    const records: LinkRecord[] = [];
    const client = new Client({ name: 'host', version: '1.0.0' });
    await client.connect(gated(records));
    const listed = await client.listResourceTemplates();
    expect(listed.resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      '{+url}',
      'https://docs.example.com/{+path}',
      'https://{host}/guide/{page}',
      'guide://docs/{name}{?lang}',
    ]);
    await client.close();
    expect(lastOf(records, 'http://169.254.169.254/latest/{path}')).toMatchObject({ verdict: 'link-only' });
  });
});
