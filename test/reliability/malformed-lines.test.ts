import { describe, expect, it } from 'vitest';
import type { Decision } from '../../src/decision/decision.ts';
import { jsonLines, runCli } from '../helpers/run-cli.ts';
import { malformedLines } from './malformed-lines.ts';

describe('malformed eval lines', () => {
  const lines = malformedLines();

  it('has at least 200 of them', () => {
    expect(lines.length).toBeGreaterThanOrEqual(200);
  });

  it('answers every line in order, allows none, and gives each a reason', async () => {
    // a marker line between each malformed line proves order and one-answer-per-line
    const marker = JSON.stringify({
      stage: 'link',
      server: 'docs',
      link: { type: 'resource_link', uri: 'guide://marker', name: 'marker' },
    });
    const text = lines.map((l) => `${l.text.replace(/\n/g, ' ')}\n${marker}`).join('\n');
    const run = await runCli(['eval', '--policy', 'policies/default.yaml'], `${text}\n`);
    expect(run.code).toBe(0);
    const out = jsonLines(run.stdout) as Decision[];
    expect(out).toHaveLength(lines.length * 2);
    const allowed: string[] = [];
    lines.forEach((line, i) => {
      const d = out[i * 2] as Decision;
      const m = out[i * 2 + 1] as Decision;
      expect(m.effect, `marker after ${line.what}`).toBe('allow');
      if (d.effect === 'allow') allowed.push(line.what);
      else expect(d.reasons.length, line.what).toBeGreaterThan(0);
      for (const r of d.reasons) expect(r.message, line.what).not.toMatch(/\n/);
    });
    expect(allowed).toEqual([]);
  });
});
