// Red team (issue 39, hidden-style round 5), cost: text that makes the address search slow: characters NFKC expands
// eighteenfold (U+FDFA), runs of numbers a host parser reads as IPv4, percent-encoding that decodes round after round,
// and near misses of a refused address after its refusal. Each front end must answer before a host gives up (the
// SDK's default request timeout is 60 s: each test's own timeout), hand on nothing refused, and still answer after.
// Speeds are printed, not asserted. The proxy, the decorator, `gateToolResult` and the Claude Code hook command.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { toolReturned } from '../hook/hook-events.ts';
import { hookArgs } from '../hook/hook-args.ts';
import { runCli } from '../helpers/run-cli.ts';
import { callWith, fronts } from './hidden-fronts.ts';
import { closeAll, hostPath, link, metadata } from './scripted-host.ts';
import { caseKeys, prose } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

async function timed<T>(label: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const value = await run();
  console.info(`[measure] ${label}: ${Math.round(performance.now() - started)} ms`);
  return value;
}

// prose beside a refused link, each meant to make the search for its address slow
const slowProse: [string, string][] = [
  ['512 Ki of U+FDFA (NFKC makes each 18 characters)', '\ufdfa'.repeat(1 << 19)],
  [
    '200 000 numbers a host parser reads as IPv4',
    Array.from({ length: 200_000 }, (_, i) => `0x${i.toString(16)}.0${i % 8}`).join(' '),
  ],
  ['1 MiB of %25 (each decoding round makes another)', '%25'.repeat(350_000)],
  ['1 MiB of near misses of the address', '169.254.169.254/lates '.repeat(48_000)],
  ['fullwidth digits and ideographic stops, 400 000 of them', '\uff11\u3002'.repeat(200_000)],
];

for (const [front, start] of fronts)
  describe(`red team, cost (round 5) through the ${front}`, () => {
    for (const [label, text] of slowProse)
      it(`${front} ${label}`)(
        `${label} beside a refused link: answered, nothing refused, still up`,
        {
          timeout: 60_000,
        },
        async () => {
          const f = await start();
          const answer = JSON.stringify(
            await timed(`${front}: ${label}`, () =>
              callWith(f, { result: { content: [link(metadata, 'creds'), prose(text)] } }),
            ),
          );
          expect(answer).not.toContain(hostPath);
          expect(await f.request('ping')).toHaveProperty('result');
        },
      );

    it(`${front} later`)(
      'after the refusal, a later result of 2 MiB of spellings to read back: answered, still up',
      {
        timeout: 60_000,
      },
      async () => {
        const f = await start();
        await callWith(f, { result: { content: [link(metadata, 'creds')] } });
        const text = `${'%31%36%39\uff0e'.repeat(100_000)} ${'\ufdfa'.repeat(50_000)}`;
        const answer = JSON.stringify(
          await timed(`${front}: later 2 MiB`, () => callWith(f, { result: { content: [prose(text)] } })),
        );
        expect(answer).not.toContain(hostPath);
        expect(await f.request('ping')).toHaveProperty('result');
      },
    );
  });

describe('red team, cost (round 5) through the Claude Code hook command', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const [label, text] of slowProse.slice(0, 3))
    it(`hook ${label}`)(
      `${label} beside a refused link: the hook answers and withholds it`,
      {
        timeout: 60_000,
      },
      async () => {
        dir = mkdtempSync(join(tmpdir(), 'linkgate-redteam-cost-'));
        const event = toolReturned('fixture', 'links', [link(metadata, 'creds'), prose(text)]);
        const run = await runCli(hookArgs('claude-code', dir), JSON.stringify(event));
        console.info(`[measure] claude-code hook: ${label}: ${run.elapsedMs} ms`);
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).not.toBe('');
        expect(run.stdout).not.toContain(hostPath);
      },
    );
});
