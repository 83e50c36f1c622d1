// The resident hook (issue 42 item 3, docs/resident-hook.md) beside the command hook: one Claude Code PreToolUse event
// posted to `linkgate resident claude-code` on loopback (a fresh connection per event, the secret in its header)
// against the same event through the command hook as hosts run it (the code-cache start), and `node -e 0`, interleaved.
// The server is started the only way it starts: as root, on a privileged port, then running as `nobody`.
import { spawn, spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePrivilegedPort } from '../test/resident/resident-process.ts';
import { event } from './hook.ts';
import { fmtMs, interleave, type Series, summary } from './measure.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');

// one event on a fresh connection, as a host that keeps none open would send it; the answer must be `{}` (allowed)
function post(port: number, secret: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/claude-code',
        method: 'POST',
        agent: false,
        headers: { 'x-linkgate-secret': secret, 'content-type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          res.statusCode === 200 && body === '{}'
            ? resolve()
            : reject(new Error(`resident answered ${res.statusCode} ${body}`)),
        );
      },
    );
    req.once('error', reject);
    req.end(event);
  });
}

function runOnce(args: readonly string[], input: string): void {
  const r = spawnSync(process.execPath, args, { input, encoding: 'utf8', cwd: repoRoot });
  if (r.status !== 0 || r.stdout !== '')
    throw new Error(`\`node ${args.join(' ')}\` failed (exit ${r.status}): ${r.stderr.slice(0, 300)}`);
}

/** Times the resident hook's event beside the command hook's; the verdicts against the target. */
export async function benchResident(rounds: number): Promise<{ name: string; ok: boolean; figure: string }[]> {
  console.log(
    '\n5b. the resident hook: one PreToolUse event over http on loopback, beside the command hook and `node -e 0`',
  );
  if (process.getuid?.() !== 0 || process.platform !== 'linux') {
    console.log('  skipped: the resident server starts only as root (privileged port, then a service user) on linux');
    return [];
  }
  const scratch = mkdtempSync(path.join(tmpdir(), 'linkgate-bench-resident-'));
  const secretFile = path.join(scratch, 'secret');
  const port = await freePrivilegedPort();
  const server = spawn(
    process.execPath,
    [
      path.join(repoRoot, 'dist/bin/linkgate.js'),
      'resident',
      'claude-code',
      '--port',
      String(port),
      '--gated-user',
      '61234',
      '--user',
      'nobody',
      '--secret-file',
      secretFile,
      '--policy',
      'policies/default.yaml',
    ],
    { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      let stderr = '';
      server.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
        if (stderr.includes('listening on')) resolve();
      });
      server.once('exit', (code) => reject(new Error(`the resident server exited ${code}: ${stderr}`)));
    });
    const secret = readFileSync(secretFile, 'utf8').trim();
    const state = path.join(scratch, 'state');
    const series = await interleave(
      {
        'node -e 0': () => runOnce(['-e', '0'], ''),
        'hook event, code-cache start (for hosts)': () =>
          runOnce(
            [
              path.join(repoRoot, 'dist/bin/linkgate-cached.cjs'),
              'hook',
              'claude-code',
              '--policy',
              'policies/default.yaml',
              '--state',
              state,
            ],
            event,
          ),
        'resident hook event (http, new connection)': () => post(port, secret),
      },
      rounds,
      2,
    );
    const [base, command, resident] = series as [Series, Series, Series];
    const b = summary(base.rounds).median;
    const c = summary(command.rounds).median;
    for (const s of series) {
      const m = summary(s.rounds);
      const ratio = s === base ? '' : `${(m.median / b).toFixed(2)}× node -e 0`;
      console.log(
        `  ${s.name.padEnd(44)} ${fmtMs(m.median).padStart(10)}  [${fmtMs(m.min)} – ${fmtMs(m.max)}]  ${ratio}`,
      );
    }
    const r = summary(resident.rounds);
    const ofCommand = r.median / c;
    return [
      {
        name: 'one resident hook event (PreToolUse over http) ≤ 0.1× the command hook',
        ok: ofCommand <= 0.1,
        figure: `${fmtMs(r.median)} [${fmtMs(r.min)} – ${fmtMs(r.max)}] = ${ofCommand.toFixed(3)}× the command hook (${fmtMs(c)}), ${(r.median / b).toFixed(2)}× node -e 0`,
      },
    ];
  } finally {
    server.kill('SIGTERM');
    rmSync(scratch, { recursive: true, force: true });
  }
}

// run alone: `node --import tsx bench/resident.ts` (after `npm run build`)
if (import.meta.filename === process.argv[1]) {
  for (const v of await benchResident(Number(process.env['BENCH_ROUNDS'] ?? 9)))
    console.log(`  ${v.ok ? 'ok  ' : 'MISS'} ${v.name}: ${v.figure}`);
}
