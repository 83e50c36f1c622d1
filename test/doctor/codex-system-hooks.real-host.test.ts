// Doctor and the real Codex CLI agree on the hooks Codex's administrator delivers: the printed hooks placed only in
// /etc/codex (hooks.json, `[hooks]` of config.toml, of managed_config.toml, of requirements.toml) runs in `codex exec`
// with no trust recorded and no `--dangerously-bypass-hook-trust`, and doctor says they run; the same hooks in the
// user's hooks.json, untrusted, do not run, and doctor says so. Codex takes no override of /etc/codex: each run is in a
// private mount namespace whose /etc is an overlay (nothing is written to the machine's /etc; root, `unshare -m`).
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'smol-toml';
import { describe, expect, test } from 'vitest';
import { hostSettings } from '../../src/hook/hook-settings.ts';
import { installCodexCli, runCodexCli } from '../real-host/codex-cli.ts';
import { outputText } from '../real-host/codex-model-api.ts';
import { fixtureServer } from '../real-host/fixture-process.ts';
import { fixtureNamed } from '../real-host/fixture-resources.ts';
import { realHostSuite } from '../real-host/host-suite.ts';
import { doctorReport, printedHook } from './doctor-scratch.ts';

const host = realHostSuite('codex cli', () => installCodexCli());

const privateEtc = spawnSync('unshare', ['-m', '--propagation', 'private', 'true']).status === 0;
if (!privateEtc && process.env['CI'] === 'true')
  throw new Error('codex system hooks need `unshare -m` (root) under CI');

// the printed linkgate codex hooks, writing their records to `log`, as hooks.json / [hooks] hold them
const recording = (log: string) =>
  hostSettings.codex(printedHook('codex', '--records', log)) as Record<string, unknown>;

const places = {
  '/etc/codex/hooks.json': (log: string) => ({ 'hooks.json': JSON.stringify(recording(log)) }),
  '[hooks] of /etc/codex/config.toml': (log: string) => ({ 'config.toml': stringify(recording(log)) }),
  '[hooks] of /etc/codex/managed_config.toml': (log: string) => ({ 'managed_config.toml': stringify(recording(log)) }),
  '[hooks] of /etc/codex/requirements.toml': (log: string) => ({ 'requirements.toml': stringify(recording(log)) }),
  "the user's hooks.json, untrusted": () => ({}),
} as const;

describe.skipIf(!privateEtc)('codex: hooks from /etc/codex, doctor and the real codex agree', () => {
  test.for(Object.keys(places) as (keyof typeof places)[])('%s', { timeout: 180_000 }, async (place, ctx) => {
    host.require(ctx);
    const dir = await host.scratch('linkgate-codex-system-');
    const log = path.join(dir, 'records.jsonl');
    const system = path.join(dir, 'codex-system');
    await mkdir(system);
    const files: Record<string, string> = places[place](log);
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(system, name), text);
    const user = Object.keys(files).length === 0;
    for (const d of ['upper', 'work']) await mkdir(path.join(dir, d));
    const run = await runCodexCli({
      mcpServers: { fixture: fixtureServer(path.join(dir, 'requests.jsonl')) },
      ...(user ? { hooks: recording(log) } : {}),
      prompt: 'call the links tool',
      script: [{ toolUses: [{ id: 'call_links', name: 'mcp__fixture__links', input: {} }] }, { text: 'done' }],
      bypassHookTrust: false,
      wrap: ({ file, args, env }) => {
        const script = [
          `mount -t overlay overlay -o lowerdir=/etc,upperdir=${dir}/upper,workdir=${dir}/work /etc`,
          `mkdir -p /etc/codex && cp -r ${system}/. /etc/codex/`,
          'exec "$@"',
        ].join(' && ');
        return {
          file: 'unshare',
          args: ['-m', '--propagation', 'private', 'sh', '-c', script, 'sh', file, ...args],
          env,
        };
      },
      timeoutMs: 150_000,
    });
    host.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    // the hook ran: it recorded the links it judged, and the refused metadata link never reached the model
    const codexRan = (await readFile(log, 'utf8').catch(() => '')).includes('uri.non-public-address');
    expect(outputText(run.toolResults['call_links']).includes(fixtureNamed.metadata.uri)).toBe(!codexRan);

    // doctor over the same files: the run's home, its system folder
    const home = path.join(run.dir, 'home');
    const report = await doctorReport(home, path.join(run.dir, 'work'), {
      LINKGATE_CODEX_SYSTEM_DIR: system,
      CODEX_HOME: path.join(home, '.codex'),
    });
    const hooks = report.hooks.filter((h) => h.host === 'codex');
    expect(hooks.length, JSON.stringify(report.problems)).toBe(2);
    console.log(`codex, a hook in ${place}: codex ran it ${codexRan}, doctor says runs ${hooks[0]?.runs}`);
    for (const hook of hooks) expect(hook.runs).toBe(codexRan);
    expect(codexRan).toBe(!user);
  });
});
