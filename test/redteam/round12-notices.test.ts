// Red team (issue 39, hidden-style round 12), notices that hand on part of a refused address. A refused link's notice
// shows its name unless the name spells the address of a link the same message refused (the message's ledger) or
// the link's own address, each matched whole: a name holding the refused link's parent path on the same host
// (`http://169.254.169.254/latest/meta-data/iam/`) or its bare host is shown, and a shell or web-fetch tool the gate
// does not cover can be pointed at it. And a read the gate refused because the server answered with another
// resource's contents (`read.uri-mismatch`): its -32080 error carries the decision under `data` as the engine made it,
// its reason quoting the item's uri (the address the server swapped in) word for word; the notice beside it does not.
// Through the proxy and the decorator over the real answering server, and Claude Code's, Codex's and Gemini CLI's post
// hooks on their real event shapes. Controls: an ordinary name, and a name spelling another host's address, are shown.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
// key: parent path name <front>, bare host name <front> — notices (src/flow/gate-notice.ts `namesAddress`: with a
// ledger only whole refused addresses are looked for, never the refused link's host) — owner: lead (src/flow)
// key: read mismatch data <front> — notices (src/sdk/gate-answers.ts `readDenial` puts the raw decision in `data`, not
// `shownDecision`; the proxy the same) — owner: fronts39 (src/sdk), proxy42
import { afterEach, describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { codexToolReturned, toolReturned } from '../hook/hook-events.ts';
import { callWith, fronts, noticesIn } from './hidden-fronts.ts';
import { geminiToolReturned } from './round10-hosts.ts';
import { givenOn, partNames, refusedHost } from './round12-cases.ts';
import { closeAll, link, metadata } from './scripted-host.ts';
import { caseKeys } from './round-cases.ts';

// every key of this file held once its fix landed (parent path / bare host name: 381300f; read mismatch data: b093535)
const open = new Set<string>([]);
const it = caseKeys(open);

afterEach(closeAll);
const hooks = hookScratch('linkgate-redteam-r12notices-');

// [host, its post event of one result holding the metadata link named `name`]
const hosts: [string, (name: string) => unknown][] = [
  ['claude-code', (name) => toolReturned('fixture', 'links', [link(metadata, name)])],
  ['codex', (name) => codexToolReturned({ content: [link(metadata, name)] })],
  ['gemini-cli', (name) => geminiToolReturned([[metadata, name]])],
];
const controls = ['Q3 report draft', 'mirror of https://docs.example/guide/'];

describe('red team, notices (round 12): a name spelling part of the refused address', () => {
  for (const [key, name] of Object.entries(partNames)) {
    for (const [front, make] of fronts)
      it(`${key} ${front}`)(
        `${front}: the metadata link named \`${name}\`: the notice does not spell its host`,
        async () => {
          const answer = await callWith(await make(), { result: { content: [link(metadata, name)] } });
          expect(noticesIn(answer).join('\n')).toContain('linkgate refused the link');
          expect(JSON.stringify(answer)).not.toContain(refusedHost);
        },
      );
    for (const [host, event] of hosts)
      it(`${key} ${host}`)(
        `${host}: the metadata link named \`${name}\`: the notice does not spell its host`,
        async () => {
          const sent = event(name);
          const run = await hooks.hook(host, sent);
          expect(run.code, run.stderr).toBe(0);
          expect(givenOn(run.stdout, sent)).toContain('linkgate');
          expect(givenOn(run.stdout, sent)).not.toContain(refusedHost);
        },
      );
  }

  for (const name of controls) {
    for (const [front, make] of fronts)
      test(`control: ${front}: the metadata link named \`${name}\`: the name is shown`, async () => {
        const answer = await callWith(await make(), { result: { content: [link(metadata, name)] } });
        expect(noticesIn(answer).join('\n')).toContain(name);
      });
    for (const [host, event] of hosts)
      test(`control: ${host}: the metadata link named \`${name}\`: the name is shown`, async () => {
        const run = await hooks.hook(host, event(name));
        expect(givenOn(run.stdout, event(name))).toContain(name);
      });
  }
});

describe("red team, notices (round 12): a refused read's error data", () => {
  const doc = 'https://docs.example/a.txt';
  // the server answers the read of `doc` with the contents of `uri`
  const swapped = (uri: string) => ({
    result: { content: [link(doc, 'a')] },
    answers: { 'resources/read': { result: { contents: [{ uri, mimeType: 'text/plain', text: 'body' }] } } },
  });
  for (const [front, make] of fronts) {
    it(`read mismatch data ${front}`)(
      `${front}: a read answered with the metadata address's contents: the error names no part of it`,
      async () => {
        const gated = await make();
        await callWith(gated, swapped(metadata));
        const read = await gated.request('resources/read', { uri: doc });
        expect(noticesIn(read).join('\n')).toContain('read.uri-mismatch');
        expect(JSON.stringify(read)).not.toContain(refusedHost);
      },
    );
    test(`control: ${front}: a read answered with its own contents: the body`, async () => {
      const gated = await make();
      await callWith(gated, swapped(doc));
      expect(JSON.stringify(await gated.request('resources/read', { uri: doc }))).toContain('body');
    });
  }
});
