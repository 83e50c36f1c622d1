// `linkgate eval --allowed-signers` of one line in a fresh process beside the same eval without the check (issue 24):
// the review check reads POLICY.sig and the allowed-signers file and verifies an Ed25519 signature over the bytes.
import { generateKeyPairSync } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fmtMs, interleave, type Series } from './measure.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const dist = (file: string) => new URL(`../dist/${file}`, import.meta.url).href;

const evalLine = `${JSON.stringify({ stage: 'link', server: 'docs', link: { type: 'resource_link', uri: 'guide://manuals/packing', name: 'packing' } })}\n`;

/** The verdict this section adds: eval with the check over eval without it, cold, one line. */
export interface ReviewBenchVerdict {
  name: string;
  ok: boolean;
  figure: string;
}

/** Times `eval` of one line with and without `--allowed-signers` over a signed copy of the default policy. */
export async function benchReview(
  rounds: number,
  row: (label: string, series: Series, base?: Series) => string,
): Promise<ReviewBenchVerdict[]> {
  console.log(
    '\n9. `linkgate eval` of one line in a fresh process, with and without `--allowed-signers` (a verified policy)',
  );
  const { parseSshPublicKey } = (await import(
    dist('policy/ssh-public-key.js')
  )) as typeof import('../src/policy/ssh-public-key.ts');
  const { SshWriter } = (await import(dist('policy/ssh-wire.js'))) as typeof import('../src/policy/ssh-wire.ts');
  const { signPolicyBytes } = (await import(
    dist('review/openssh-private-key.js')
  )) as typeof import('../src/review/openssh-private-key.ts');
  const cacheRoot = path.join(repoRoot, 'node_modules', '.cache');
  mkdirSync(cacheRoot, { recursive: true });
  const scratch = mkdtempSync(path.join(cacheRoot, 'linkgate-bench-review-'));
  try {
    const pair = generateKeyPairSync('ed25519');
    const x = Buffer.from(pair.publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
    const blob = new SshWriter().string('ssh-ed25519').string(x).bytes();
    const policy = path.join(scratch, 'policy.yaml');
    const text = readFileSync(path.join(repoRoot, 'policies/default.yaml'), 'utf8').replace(
      /reviewers: \[[^\]]*\]/,
      'reviewers: [bench@example.com]',
    );
    writeFileSync(policy, text);
    writeFileSync(
      `${policy}.sig`,
      signPolicyBytes({ publicKey: parseSshPublicKey(blob), key: pair.privateKey, comment: '' }, Buffer.from(text)),
    );
    const signers = path.join(scratch, 'allowed_signers');
    writeFileSync(signers, `bench@example.com namespaces="linkgate-policy" ssh-ed25519 ${blob.toString('base64')}\n`);
    const cli = path.join(repoRoot, 'dist/bin/linkgate.js');
    const run = (extra: string[]) => () => {
      const r = spawnSync(process.execPath, [cli, 'eval', '--policy', policy, ...extra], {
        input: evalLine,
        encoding: 'utf8',
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '' },
      });
      // a warning (`linkgate: warning: …`, such as a policy file this user can change, printed when the bench runs as
      // root) is part of what the command does and prints; anything else on stderr is a failure
      const unexpected = r.stderr.split('\n').some((l) => l !== '' && !l.startsWith('linkgate: warning: '));
      if (r.status !== 0 || !r.stdout.includes('"effect":"allow"') || unexpected)
        throw new Error(`eval ${extra.join(' ')} failed (exit ${r.status}): ${r.stderr.slice(0, 300)}`);
    };
    const [plain, reviewed] = await interleave(
      { 'eval, one line': run([]), 'eval --allowed-signers, one line': run(['--allowed-signers', signers]) },
      rounds,
      1,
    );
    if (plain === undefined || reviewed === undefined) return [];
    console.log(row(plain.name, plain));
    console.log(row(reviewed.name, reviewed, plain));
    const median = (s: Series) => [...s.rounds].sort((a, b) => a - b)[Math.floor(s.rounds.length / 2)] ?? 0;
    const ratio = median(reviewed) / median(plain);
    return [
      {
        name: 'eval --allowed-signers ≤ 1.2× eval (cold, one line, median)',
        ok: ratio <= 1.2,
        figure: `${ratio.toFixed(2)}× (${fmtMs(median(reviewed))} vs ${fmtMs(median(plain))})`,
      },
    ];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
