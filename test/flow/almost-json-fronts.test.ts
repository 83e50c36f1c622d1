// The proxy and the decorator (a real SDK client over `gateTransport`) before the answering server, each handed a tool
// result text and a read body that open like JSON and do not parse (a trailing comma) and hold the cloud metadata
// address in a `resource_link` object, and a read body declared JSON whose bytes are not UTF-8: none of them reaches
// the host with the address (issue 39 item 5; almost-json-links.test.ts has the flow's cases). Control: such a text
// naming no resource_link, its one address allowed, is handed on as it came.
import { afterEach, describe, expect, test } from 'vitest';
import { callWith, fronts } from '../redteam/hidden-fronts.ts';
import { closeAll, link, metadata } from '../redteam/scripted-host.ts';

const doc = 'https://docs.example/r.json';
const ordinary = 'https://docs.example/guide/a.txt';
const almost = (uri: string) => `{"content":[{"type":"resource_link","uri":"${uri}","name":"m"},]}`;
const escaped = `[{"type":"resource\\u005flink","uri":"${metadata}","name":"m"}] // links`;
const notUtf8 = Buffer.concat([Buffer.from(almost(metadata).replace(',]', ']')), Buffer.from([0xff])]);
const address = '169.254.169.254';

describe('fronts: JSON that does not parse, and JSON bytes that are not UTF-8', () => {
  afterEach(closeAll);
  for (const [front, start] of fronts) {
    test(`${front}: a tool result text naming resource_link is withheld`, async () => {
      const handed = await start();
      for (const text of [almost(metadata), escaped]) {
        const answer = JSON.stringify(await callWith(handed, { result: { content: [{ type: 'text', text }] } }));
        expect(answer).not.toContain(address);
        expect(answer).toContain('content.shape');
      }
    });

    test(`${front}: a read body declared JSON that does not parse, or is not UTF-8, is withheld`, async () => {
      const handed = await start();
      for (const item of [
        { uri: doc, mimeType: 'application/json', text: almost(metadata) },
        { uri: doc, mimeType: 'application/json', blob: notUtf8.toString('base64') },
      ]) {
        const answers = { 'resources/read': { result: { contents: [item] } } };
        await callWith(handed, { result: { content: [link(doc)] }, answers });
        const answer = JSON.stringify(await handed.request('resources/read', { uri: doc }));
        expect(answer).not.toContain(address);
        expect(answer).not.toContain(notUtf8.toString('base64'));
        expect(answer).toMatch(/content\.(shape|uninterpretable)/);
      }
    });

    test(`control: ${front}: such a text naming no resource_link, an allowed address in it, is kept`, async () => {
      const text = `{"see":"${ordinary}",}`;
      const answer = (await callWith(await start(), { result: { content: [{ type: 'text', text }] } })) as {
        result?: { content?: { text?: string }[] };
      };
      expect(answer.result?.content?.[0]?.text).toBe(text);
    });
  }
});
