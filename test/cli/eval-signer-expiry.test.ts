// A signer's valid-before that passes while `linkgate eval` reads its lines (issue 39 item 6): the same eval, with the
// policy it loaded, decides the lines before that moment by the policy and denies every line after it
// (policy.unreviewed, naming the signer's valid-before), without a restart. Only Date is faked: the streams are real.
import { writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Decision } from '../../src/decision/decision.ts';
import { reviewFolders } from '../helpers/ssh-keygen.ts';

const folder = reviewFolders();
afterEach(() => {
  vi.useRealTimers();
});

const link = (uri: string) =>
  `${JSON.stringify({ stage: 'link', server: 'docs', link: { type: 'resource_link', uri, name: 'x' } })}\n`;

describe('linkgate eval with a signer whose valid-before passes during the run', () => {
  it('decides the lines before it and denies the lines after it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-03-09T23:59:00Z'));
    const f = folder({ 'alice@example.com': 'ed25519' });
    f.sign('alice@example.com');
    const key = f.keys['alice@example.com']?.publicKey ?? '';
    writeFileSync(f.allowedSigners, `alice@example.com namespaces="linkgate-policy",valid-before="20310310Z" ${key}\n`);

    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    stderr.on('data', (c: Buffer) => {
      err += c.toString('utf8');
    });
    const decisions = () =>
      out
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Decision);
    const run = main(['eval', '--policy', f.policy, '--allowed-signers', f.allowedSigners], {
      stdin,
      stdout,
      stderr,
      env: {},
      stdoutIsTty: false,
      cwd: f.dir,
    });

    // the minute before the signer's window closes: the policy's own decisions
    stdin.write(link('https://docs.example.com/guide'));
    stdin.write(link('http://169.254.169.254/latest/meta-data/'));
    // each answer is a line written to stdout: wait for the second
    while (decisions().length < 2) await once(stdout, 'data');
    const [allowed, denied] = decisions();
    expect(allowed?.effect).toBe('allow');
    expect(denied?.reasons.map((r) => r.code)).toContain('uri.non-public-address');

    // the signer's valid-before passes; eval and its loaded policy stay as they are
    vi.setSystemTime(new Date('2031-03-10T00:00:01Z'));
    stdin.write(link('https://docs.example.com/guide'));
    stdin.end();
    expect(await run).toBe(0);
    const later = decisions()[2];
    expect(later?.effect).toBe('deny');
    expect(later?.reasons).toEqual([
      expect.objectContaining({
        code: 'policy.unreviewed',
        message: expect.stringMatching(
          /the signer `alice@example\.com` \(ED25519 key SHA256:\S+\) is past its valid-before 2031-03-10T00:00:00Z/,
        ),
      }),
    ]);
    expect(decisions()).toHaveLength(3);
    expect(err).not.toContain('policy.unreviewed');
  });
});
