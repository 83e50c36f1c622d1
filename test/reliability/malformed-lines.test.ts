import { describe, expect, it } from 'vitest';
import type { Decision } from '../../src/decision/decision.ts';
import { jsonLines, runCli } from '../helpers/run-cli.ts';
import { malformedLines } from './malformed-lines.ts';

describe('malformed eval lines', () => {
  const lines = malformedLines();

  it('has at least 200 of them', () => {
    expect(lines.length).toBeGreaterThanOrEqual(200);
  });

  it('answers every non-blank line in order, allows none, and gives each a reason', async () => {
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
    // a blank line is spacing and gets no answer; only its marker is answered
    const blank = lines.filter((l) => l.text.trim() === '');
    expect(blank.length).toBeGreaterThan(0);
    const answered = lines.filter((l) => l.text.trim() !== '');
    expect(out).toHaveLength(answered.length * 2 + blank.length);
    const paired = pairUp(lines, out);
    const allowed: string[] = [];
    answered.forEach((line, i) => {
      const [d, m] = paired[i] as [Decision, Decision];
      expect(m.effect, `marker after ${line.what}`).toBe('allow');
      if (d.effect === 'allow') allowed.push(line.what);
      else expect(d.reasons.length, line.what).toBeGreaterThan(0);
      for (const r of d.reasons) expect(r.message, line.what).not.toMatch(/\n/);
    });
    expect(allowed).toEqual([]);
  });
});

// the decisions of each non-blank line and its marker, skipping the lone marker answers of blank lines
function pairUp(lines: readonly { text: string }[], out: readonly Decision[]): [Decision, Decision][] {
  const pairs: [Decision, Decision][] = [];
  let at = 0;
  for (const line of lines) {
    if (line.text.trim() === '') {
      expect(out[at]?.effect, 'marker after a blank line').toBe('allow');
      at += 1;
    } else {
      pairs.push([out[at] as Decision, out[at + 1] as Decision]);
      at += 2;
    }
  }
  return pairs;
}
