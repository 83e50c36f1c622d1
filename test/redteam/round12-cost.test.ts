// Red team (issue 39, hidden-style round 12), cost by many small refusals and many small JSON texts. A session's
// search for refused addresses keeps a bound of characters whole (`keptCharsFor`, about 870 000 for the default
// policy) and past it keeps the oldest by their first 8 characters only, failing closed: a hostile server that lists
// 4 000 links on an ordinary host declared too large to read (each refused, each address 300 characters) pushes the
// host's first 8 characters into that filter, and every later answer naming that host, an ordinary link included, is
// withheld (over-blocking; with `gatedLinks` one agent's connections share the search, so one server could do it to
// another's answers): held, the later ordinary link is handed on. And 20 000 embedded JSON resources in one result, the refused link after them, through the
// proxy, the decorator and Claude Code's and Codex's post hooks: answered, nothing refused handed on. CPU and wall
// time are printed as `[measure]`, never asserted.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none.
import { afterEach, describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { codexToolReturned, toolReturned } from '../hook/hook-events.ts';
import { callWith, fronts } from './hidden-fronts.ts';
import { measured } from './round10-hosts.ts';
import { embedded, givenOn, ordinary } from './round12-cases.ts';
import { caseKeys } from './round-cases.ts';
import { closeAll, hostPath, link, metadata } from './scripted-host.ts';

const open = new Set<string>([]);
const it = caseKeys(open);

afterEach(closeAll);
const hooks = hookScratch('linkgate-redteam-r12cost-');
const within = { timeout: 120_000 };

describe('red team, cost (round 12): a flood of refusals on an ordinary host', () => {
  /** `count` links on docs.example, each declared 20 MB (refused: `links.maxDeclaredBytes`), paths 300 characters. */
  const flood = (count: number) =>
    Array.from({ length: count }, (_, i) => ({
      ...link(`https://docs.example/big/${String(i).padStart(6, '0')}/${'x'.repeat(280)}`, `big ${i}`),
      size: 20_000_000,
    }));
  for (const [front, make] of fronts) {
    it(`flood forgets a host ${front}`)(
      `${front}: after 4 000 refusals on docs.example, an ordinary link there is still handed on`,
      within,
      async () => {
        const gated = await make();
        await measured(`${front}, 4 000 refusals`, () => callWith(gated, { result: { content: flood(4000) } }));
        const answer = await callWith(gated, { result: { content: [link(ordinary, 'guide')] } });
        expect(JSON.stringify(answer)).toContain('docs.example/guide');
      },
    );
    test(
      `control: ${front}: after 40 refusals on docs.example, an ordinary link there is handed on`,
      within,
      async () => {
        const gated = await make();
        await callWith(gated, { result: { content: flood(40) } });
        const answer = await callWith(gated, { result: { content: [link(ordinary, 'guide')] } });
        expect(JSON.stringify(answer)).toContain('docs.example/guide');
      },
    );
  }
});

describe('red team, cost (round 12): 20 000 embedded JSON resources, the refused link last', () => {
  const items = (count: number, uri: string) => [
    ...Array.from({ length: count }, (_, i) => embedded(`rt://docs/${i}.json`, `{"n":${i},"next":[]}`)),
    link(uri, 'creds'),
  ];
  for (const [front, make] of fronts) {
    test(`${front}: answered, the link withheld, and answers again`, within, async () => {
      const gated = await make();
      const answer = await measured(`${front}, 20 000 embedded json`, () =>
        callWith(gated, { result: { content: items(20_000, metadata) } }),
      );
      expect(JSON.stringify(answer)).not.toContain(hostPath);
      expect(JSON.stringify(await gated.request('ping'))).toContain('result');
    });
    test(`control: ${front}: 20 such items and an ordinary link: handed on`, within, async () => {
      const answer = await callWith(await make(), { result: { content: items(20, ordinary) } });
      expect(JSON.stringify(answer)).toContain('docs.example/guide');
    });
  }
  const events: [string, (content: unknown[]) => unknown][] = [
    ['claude-code', (content) => toolReturned('fixture', 'links', content)],
    ['codex', (content) => codexToolReturned({ content })],
  ];
  for (const [host, event] of events) {
    test(`${host}: answered, the link withheld`, within, async () => {
      const sent = event(items(20_000, metadata));
      const run = await measured(`${host} hook, 20 000 embedded json`, () => hooks.hook(host, sent));
      expect(run.code, run.stderr).toBe(0);
      expect(givenOn(run.stdout, sent)).not.toContain(hostPath);
    });
    test(`control: ${host}: 20 such items and an ordinary link: handed on`, async () => {
      const sent = event(items(20, ordinary));
      const run = await hooks.hook(host, sent);
      expect(givenOn(run.stdout, sent)).toContain('docs.example/guide');
    });
  }
});
