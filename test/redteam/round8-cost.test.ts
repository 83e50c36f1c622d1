// Red team (issue 39, hidden-style round 8), cost by the shapes of this session's read-back (src/flow: the joined uri
// runs, the url noise, the bracketed and numeric hosts, the text blobs), after a refusal so every later string is
// searched as written and read back: 1.2 M bracketed IPv6 hosts (each one a URL parse), one uri run broken by a line
// feed after every character, one 6 MiB token of dot segments, a 6 MiB base64 string of percent-encoded text (decoded,
// then decoded again three rounds), 400 000 numeric hosts after `//`, and 200 000 tiny text items each an IPv4-mapped
// host. Each front end must answer, hand on nothing refused, and answer again after; the CPU each answer took (this
// process: the proxy and the decorator run in it, the servers do not) is printed as `[measure]`, not asserted (the
// goal is well under 2 s on a loaded 2-core machine). Through the proxy, the decorator and the Claude Code hook.
import { afterEach, describe, expect } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { toolReturned } from '../hook/hook-events.ts';
import { callWith, fronts } from './hidden-fronts.ts';
import { closeAll, hostPath, link, metadata } from './scripted-host.ts';
import { caseKeys, prose } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

/** Runs `work`, printing its CPU (user + system, this process) and wall time. */
async function measured<T>(label: string, work: () => Promise<T>): Promise<T> {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  console.info(
    `[measure] ${label}: ${Math.round((used.user + used.system) / 1000)} ms CPU, ${Math.round(performance.now() - wall)} ms wall`,
  );
  return value;
}

const mib = 1024 * 1024;
// the address at the end of each shape, spelled so that only its read-back finds it (the default port): every shape is
// read back whole, and the answer must not hand it on
const spelled = metadata.replace('169.254.169.254', '169.254.169.254:80');
const tail = ` and then ${spelled}`;
const shapes: [string, () => unknown[]][] = [
  ['1.2 M bracketed IPv6 hosts', () => [prose(`${'[::2]'.repeat(1_200_000)}${tail}`)]],
  ['a uri run broken after every character', () => [prose(`http://${'a\n'.repeat(3 * mib)}x${tail}`)]],
  ['a 6 MiB token of dot segments', () => [prose(`http://h/${'x/../'.repeat(1.2 * mib)}${tail}`)]],
  [
    'a 6 MiB base64 string of percent-encoded text',
    () => [prose(Buffer.from(`${'%2525%26amp;'.repeat(0.38 * mib)}${tail}`).toString('base64'))],
  ],
  ['400 000 numeric hosts after //', () => [prose(`${'//0x1.0x2.0x3/ '.repeat(400_000)}${tail}`)]],
  [
    '200 000 items each an IPv4-mapped host',
    () => [...Array.from({ length: 200_000 }, (_, i) => prose(`[::ffff:${(i % 65535).toString(16)}:1]`)), prose(tail)],
  ],
];

/** Whether `answer` hands the address on: as written, or (a blob) decoded. */
function handsOn(answer: unknown): boolean {
  const json = JSON.stringify(answer);
  if (json.includes(hostPath)) return true;
  return [...json.matchAll(/"([A-Za-z0-9+/]{64,}={0,2})"/g)].some((m) =>
    Buffer.from(m[1] as string, 'base64')
      .toString()
      .includes(hostPath),
  );
}

for (const [front, start] of fronts)
  describe(`red team, cost (round 8) through the ${front}`, () => {
    for (const [label, shape] of shapes)
      it(`${label} ${front}`)(
        `${label} after a refusal: answered, nothing refused handed on`,
        { timeout: 120_000 },
        async () => {
          const f = await start();
          expect(JSON.stringify(await callWith(f, { result: { content: [link(metadata, 'creds')] } }))).toContain(
            'linkgate refused the link',
          );
          const content = shape();
          const answer = await measured(`${front}, ${label}`, () => callWith(f, { result: { content } }));
          expect(handsOn(answer)).toBe(false);
          // and the connection still answers
          expect(JSON.stringify(await callWith(f, { result: { content: [prose('ok')] } }))).toContain('ok');
        },
      );
  });

const hooks = hookScratch('linkgate-redteam-r8cost-');

describe('red team, cost (round 8) through the Claude Code hook', () => {
  for (const [label, shape] of shapes.slice(0, 3))
    it(`claude ${label}`)(
      `${label} after a refusal: answered, nothing refused handed on`,
      { timeout: 120_000 },
      async () => {
        const first = toolReturned('fixture', 'links', [link(metadata, 'creds')], { toolUseId: 'toolu_1' });
        expect((await hooks.hook('claude-code', first)).stdout).toContain('linkgate refused the link');
        const content = shape();
        const run = await measured(`claude code hook, ${label}`, () =>
          hooks.hook('claude-code', toolReturned('fixture', 'notes', content, { toolUseId: 'toolu_2' })),
        );
        expect(run.code, run.stderr).toBe(0);
        // an empty answer hands the result on as it came
        expect(run.stdout.trim()).not.toBe('');
        expect(handsOn(JSON.parse(run.stdout))).toBe(false);
      },
    );
});
