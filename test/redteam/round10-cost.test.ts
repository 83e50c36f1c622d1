// Red team (issue 39, hidden-style round 10), cost by shapes rounds 5–9 did not try: many refusals first, then a large
// text searched for all of them (2 000 refused addresses, then 4 MiB of prose: a search per address walks the text
// 2 000 times); 20 000 small text items after a refusal (an address cut across items is searched in the joined text:
// a search per pair of neighbours grows with their square); in the hooks, the same 1 000 refusals kept in the session
// state and a 2 MiB text in a later event, and a Gemini CLI part of 100 000 `Resource Link: ` prefixes in one text.
// Each front end must answer, hand on nothing refused, and answer again; the CPU each answer took is printed as
// `[measure]`, never asserted. The hook cases judge on a counted clock, not the machine's (load never decides them). Through the proxy and the decorator over the real answering server, and each host's post
// hook fed its real binary's event shape.
import { afterEach, describe, expect } from 'vitest';
import { hookDeadlineMs } from '../../src/cli/hook-command.ts';
import { onCountedClock } from '../hook/counted-clock.ts';
import { hookArgs, hookScratch } from '../hook/hook-args.ts';
import { runHookProcess } from '../hook/hook-process.ts';
import { callWith, fronts } from './hidden-fronts.ts';
import { handed, measured, postEvents } from './round10-hosts.ts';
import { closeAll, hostPath, link, metadata } from './scripted-host.ts';
import { caseKeys, prose } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

const mib = 1024 * 1024;
/** `count` distinct refused (non-public) links. */
const refusedLinks = (count: number) =>
  Array.from({ length: count }, (_, i) => link(`http://10.${(i >> 8) & 255}.${i & 255}.7/secret/${i}`, `r${i}`));
const filler = (bytes: number) => 'the quick brown fox reads http://10.9.9.9x and 10.0.0 items; '.repeat(bytes / 61);

// [label, the refusing result and the later one, what of the refused address must not be handed on]
const shapes: [string, () => Record<string, unknown>[], string][] = [
  [
    '2 000 refusals then 4 MiB of prose',
    () => [
      { content: refusedLinks(2000) },
      { content: [prose(`${filler(4 * mib)} and then http://10.7.207.7/secret/1999`)] },
    ],
    '10.7.207.7/secret',
  ],
  [
    '20 000 text items after a refusal',
    () => [
      { content: [link(metadata, 'creds')] },
      { content: [...Array.from({ length: 20_000 }, (_, i) => prose(`item ${i} 169.254.`)), prose(metadata)] },
    ],
    hostPath,
  ],
];

for (const [front, start] of fronts)
  describe(`red team, cost (round 10) through the ${front}`, () => {
    for (const [label, shape, secret] of shapes)
      it(`${label} ${front}`)(`${label}: answered, nothing refused handed on`, { timeout: 180_000 }, async () => {
        const f = await start();
        const [first, second] = shape() as [Record<string, unknown>, Record<string, unknown>];
        expect(JSON.stringify(await callWith(f, { result: first }))).toContain('linkgate refused the link');
        const answer = await measured(`${front}, ${label}`, () => callWith(f, { result: second }));
        expect(JSON.stringify(answer).includes(secret)).toBe(false);
        expect(JSON.stringify(await callWith(f, { result: { content: [prose('ok')] } }))).toContain('ok');
      });
  });

const hooks = hookScratch('linkgate-redteam-r10cost-');

describe('red team, cost (round 10) through the hooks', () => {
  // judged in this process on a counted clock (../hook/counted-clock.ts: the hook's own budget code, ended by clock
  // readings, no deadline timer), so what each event comes to is the same on a loaded machine: the judgement's answer
  // within a budget of `hookDeadlineMs` million readings, and the fail-closed one when the budget ends at once. The
  // hook run as its own process is then only asked for a fail-closed answer, whether its judgement or its deadline gave
  // it (how fast is measured, never asserted)
  const counted = (host: string, event: unknown) => onCountedClock(1e-6, () => hooks.hook(host, event));
  for (const [host, event] of postEvents)
    it(`1 000 refusals kept, then 2 MiB ${host}`)(
      `${host}: 1 000 refusals in the session state, then a 2 MiB text naming one: answered, not handed on`,
      { timeout: 300_000 },
      async () => {
        const links = refusedLinks(1000).map((l) => [l.uri, l.name] as const);
        const first = await counted(host, event(links, [], 'id_1'));
        expect(first.readings * 1e-6).toBeLessThan(hookDeadlineMs);
        expect(handed(first.value.stdout)).toContain('linkgate refused the link');
        const named = (links[999] as readonly [string, string])[0];
        const later = event([], [`${filler(2 * mib)} ${named}`], 'id_2');
        const { value: run, readings } = await measured(`${host} hook, 1 000 refusals kept then 2 MiB`, () =>
          counted(host, later),
        );
        expect(readings * 1e-6).toBeLessThan(hookDeadlineMs);
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).not.toContain('did not answer within');
        expect(run.stdout.trim()).not.toBe('');
        expect(handed(run.stdout)).not.toContain('10.3.231.7/secret');
        // the budget ends at the first check: the result is withheld all the same
        const ended = await onCountedClock(hookDeadlineMs, () => hooks.hook(host, later));
        expect(ended.value.code, ended.value.stderr).toBe(0);
        expect(handed(ended.value.stdout)).toContain('linkgate withheld');
        expect(handed(ended.value.stdout)).not.toContain('10.3.231.7/secret');
        // the hook as the host runs it, over the same state: a fail-closed answer comes out
        const own = await measured(`${host} hook process, 1 000 refusals kept then 2 MiB`, () =>
          runHookProcess(hookArgs(host, hooks.dir), JSON.stringify(later)),
        );
        expect(own.code, own.stderr).toBe(0);
        expect(own.stdout.trim()).not.toBe('');
        expect(handed(own.stdout)).not.toContain('10.3.231.7/secret');
      },
    );

  it('gemini 100 000 prefixes')(
    'gemini-cli: one part of 100 000 `Resource Link: ` prefixes and the metadata link: answered, not handed on',
    { timeout: 180_000 },
    async () => {
      const gemini = postEvents.find(([h]) => h === 'gemini-cli')?.[1] as (typeof postEvents)[0][1];
      const line = `${'Resource Link: '.repeat(100_000)}creds at ${metadata}`;
      const run = await measured('gemini-cli hook, 100 000 prefixes', () =>
        hooks.hook('gemini-cli', gemini([], [line])),
      );
      expect(run.code, run.stderr).toBe(0);
      expect(handed(run.stdout)).toContain('linkgate');
      expect(handed(run.stdout)).not.toContain(hostPath);
    },
  );
});
