// Red team (issue 39, hidden-style round 9), cost by shapes rounds 5–8 did not try, after a refusal so every later
// string is searched as written and read back: 300 000 near-addresses (the refused host with its last digit changed, so
// the matcher walks almost the whole pattern each time), a chain of `&amp;amp;…` references 1 MiB long (each of the
// three decoding rounds peels one layer), 1 MiB of `%5C` (a backslash per three bytes once decoded, each one then a
// script escape's start), a JSON text item 50 000 arrays deep with the address at the bottom, `structuredContent`
// 1 000 objects deep with the address at the bottom, and 5 000 resource_links to distinct ordinary hosts with the refused
// one last. Each front end must answer, hand on nothing refused, and answer again after; the CPU each answer took is
// printed as `[measure]`, not asserted. Through the proxy and the decorator over the real answering server.
import { afterEach, describe, expect } from 'vitest';
import { callWith, fronts } from './hidden-fronts.ts';
import { closeAll, hostPath, link, metadata } from './scripted-host.ts';
import { caseKeys, prose } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

const mib = 1024 * 1024;

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

const deepArray = (depth: number, bottom: string) =>
  `${'['.repeat(depth)}${JSON.stringify(bottom)}${']'.repeat(depth)}`;
function deepObject(depth: number, bottom: string): unknown {
  let value: unknown = bottom;
  for (let i = 0; i < depth; i += 1) value = { n: value };
  return value;
}

const tail = ` and then ${metadata}`;
const shapes: [string, () => Record<string, unknown>][] = [
  [
    '300 000 near-addresses',
    () => ({ content: [prose(`${'http://169.254.169.253/latest/meta-data/ '.repeat(300_000)}${tail}`)] }),
  ],
  ['a 1 MiB chain of &amp;amp;', () => ({ content: [prose(`&${'amp;'.repeat(mib / 5)}${tail}`)] })],
  ['1 MiB of %5C', () => ({ content: [prose(`${'%5C'.repeat(mib / 3)}x2f${tail}`)] })],
  ['a JSON text 50 000 arrays deep', () => ({ content: [prose(deepArray(50_000, metadata))] })],
  [
    'structuredContent 1 000 objects deep',
    () => ({ content: [], structuredContent: { d: deepObject(1_000, metadata) } }),
  ],
  [
    '5 000 links to distinct hosts, the refused one last',
    () => ({
      content: [
        ...Array.from({ length: 5_000 }, (_, i) => link(`https://h${i}.example.com/doc`, `d${i}`)),
        link(metadata, 'last'),
      ],
    }),
  ],
];

for (const [front, start] of fronts)
  describe(`red team, cost (round 9) through the ${front}`, () => {
    for (const [label, shape] of shapes)
      it(`${label} ${front}`)(
        `${label} after a refusal: answered, nothing refused handed on`,
        { timeout: 120_000 },
        async () => {
          const f = await start();
          expect(JSON.stringify(await callWith(f, { result: { content: [link(metadata, 'creds')] } }))).toContain(
            'linkgate refused the link',
          );
          const result = shape();
          const answer = await measured(`${front}, ${label}`, () => callWith(f, { result }));
          expect(JSON.stringify(answer).includes(hostPath)).toBe(false);
          // and the connection still answers
          expect(JSON.stringify(await callWith(f, { result: { content: [prose('ok')] } }))).toContain('ok');
        },
      );
  });
