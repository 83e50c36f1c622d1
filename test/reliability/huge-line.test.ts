import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Decision } from '../../src/decision/decision.ts';

/** A stream of one `totalBytes` line made on the fly in 64 KiB chunks, then a good line: nothing holds the whole line. */
function hugeLineThenGood(totalBytes: number): Readable {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  const good = Buffer.from(
    `\n${JSON.stringify({ stage: 'link', server: 'docs', link: { type: 'resource_link', uri: 'guide://ok', name: 'ok' } })}\n`,
  );
  return new Readable({
    read() {
      if (sent === 0) {
        this.push(Buffer.from('{"stage":"link","link":{"type":"resource_link","name":"x","uri":"guide://'));
        sent = 1;
      } else if (sent < totalBytes) {
        this.push(chunk);
        sent += chunk.length;
      } else {
        this.push(good);
        this.push(null);
      }
    },
  });
}

describe('eval on a 100 MiB line', () => {
  it('refuses it with input.invalid before parsing it, with memory bounded, and answers the next line', async () => {
    const out: Buffer[] = [];
    const stdout = new PassThrough();
    stdout.on('data', (c: Buffer) => out.push(c));
    const before = process.memoryUsage();
    let peak = 0;
    const sample = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.heapUsed + m.arrayBuffers - (before.heapUsed + before.arrayBuffers));
    }, 5);
    const code = await main(['eval', '--policy', 'policies/default.yaml', '--max-line-bytes', '1048576'], {
      stdin: hugeLineThenGood(100 * 1024 * 1024),
      stdout,
      stderr: new PassThrough(),
      env: {},
      stdoutIsTty: false,
      cwd: process.cwd(),
    });
    clearInterval(sample);
    expect(code).toBe(0);
    const decisions = Buffer.concat(out)
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Decision);
    expect(decisions).toHaveLength(2);
    expect(decisions[0]?.reasons[0]).toMatchObject({
      code: 'input.invalid',
      message: expect.stringContaining('over the limit of 1048576'),
    });
    expect(decisions[1]?.effect).toBe('allow');
    // a whole 100 MiB line would need ≥ 100 MiB (and twice that as a string); the bound is the 1 MiB cap plus stream buffers
    if (process.env.LINKGATE_PRINT_FIGURES)
      console.log(`peak heap+arrayBuffers delta ${(peak / 1048576).toFixed(1)} MiB`);
    expect(peak).toBeLessThan(48 * 1024 * 1024);
  });
});
