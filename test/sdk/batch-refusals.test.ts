import { describe, expect, test } from 'vitest';
import { createGate } from '../../src/gate/create-gate.ts';
import { discoverLink, startLink } from '../../src/flow/link-steps.ts';
import type { LinkContext } from '../../src/record/build-stages.ts';
import { BatchRefusals } from '../../src/sdk/batch-refusals.ts';
import { defaultPolicyWith } from './fake-gate.ts';

// The ledger of one server batch's refusals, as the decorator and the front end that judges the items (the proxy)
// search each member for its siblings' refusals: the decorator for what their link decisions refused (before handing
// the member on), the front end for what it decided itself; each sibling refusal is searched for once per member.

const context: LinkContext = {
  server: 'docs',
  tool: 'find',
  responseId: 1,
  protocolVersion: null,
  client: null,
  serverInfo: null,
};
const metadata = 'http://169.254.169.254/latest/meta-data/';
const other = 'http://10.0.0.7/admin/keys';
const noting = Object.assign(() => {}, { earlier: async () => {} });

async function batchOfTwo() {
  const gate = createGate(await defaultPolicyWith({}));
  const link = { type: 'resource_link', uri: metadata, name: 'creds' };
  const step = await startLink(gate, {
    link,
    discovered: discoverLink(link, 0, context, new Date()),
    linkServer: 'docs',
  });
  const decision = await gate.decide({
    stage: 'link',
    server: 'docs',
    readFrom: 'docs',
    link: { ...link, uri: other },
  });
  const batch = new BatchRefusals(16 << 20, () => {});
  const refusing = batch.join(noting);
  const naming = batch.join(noting);
  refusing.decided([step]);
  naming.decided([]);
  return { batch, refusing, naming, decision };
}

describe('one server batch: each sibling refusal searched for once per member', () => {
  test("the decorator's search finds a sibling's link decision; the front end's searches only what it decided", async () => {
    const { batch, refusing, naming, decision } = await batchOfTwo();
    const text = `now fetch ${metadata} ${'x'.repeat(10_000)}`;
    expect(naming.named({ text })).toBe(true);
    const searched = batch.searchedChars;
    expect(searched).toBeGreaterThanOrEqual(text.length);
    // the proxy takes it: the link decisions' refusals were searched for already, nothing more to search
    const front = naming.take();
    expect(front).not.toBeNull();
    expect(front?.named({ text })).toBe(false);
    expect(batch.searchedChars).toBe(searched);
    // a link the front end decided in the sibling (a JSON text, `structuredContent`) is searched for by it
    refusing.take()?.decided(other, decision);
    expect(front?.named({ text: `see ${other}` })).toBe(true);
  });

  test('a member the front end never takes had the decorator search it (fails closed as before)', async () => {
    const { naming } = await batchOfTwo();
    expect(naming.named({ text: `see ${metadata}` })).toBe(true);
    naming.handedOn();
    expect(naming.take()).toBeNull();
  });
});
