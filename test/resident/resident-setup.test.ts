// Where the conditions of the resident hook do not hold, nothing is offered: the server refuses to start (nothing
// listens) and `--print-config` refuses to print; where they hold, the printed set-up states them, puts the HTTP hook
// with `onFailure: "block"` and the secret before a call, and keeps the command hook after it (withholding).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asGatedUid,
  canStartAsRoot,
  freePrivilegedPort,
  gatedUid,
  printConfig,
  spawnResident,
} from './resident-process.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'linkgate-resident-setup-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const refusedConnection = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = createConnection(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve('connected')));
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });

describe.runIf(canStartAsRoot || process.env['CI'] === 'true')(
  'the server refuses to start where it is not safe',
  () => {
    const cases: [string, (port: number) => string[], RegExp][] = [
      [
        'a port the gated user could bind',
        () => ['--port', '8089', '--gated-user', String(gatedUid), '--user', 'nobody'],
        /not below .*ip_unprivileged_port_start/,
      ],
      [
        'a gated user that is root',
        (p) => ['--port', String(p), '--gated-user', 'root', '--user', 'nobody'],
        /the gated user is root/,
      ],
      [
        'root with no service user',
        (p) => ['--port', String(p), '--gated-user', String(gatedUid)],
        /give the service user/,
      ],
      [
        'the gated user as the service user',
        (p) => ['--port', String(p), '--gated-user', 'nobody', '--user', 'nobody'],
        /runs as the gated user/,
      ],
    ];
    it.for(cases)('%s', async ([, args, why]) => {
      const port = await freePrivilegedPort();
      const policy = path.join(import.meta.dirname, '../../policies/default.yaml');
      const run = spawnResident([...args(port), '--secret-file', path.join(dir, 'secret'), '--policy', policy]);
      const started = await run.started;
      expect(started).not.toBe('listening');
      if (started === 'listening') return;
      expect(started.exited).toBe(2);
      expect(started.stderr).toMatch(/the resident hook is not safe here/);
      expect(started.stderr).toMatch(why);
      expect(await refusedConnection(port)).toBe('ECONNREFUSED');
    });
  },
);

describe('--print-config', () => {
  it('refuses a port the gated user could bind', async () => {
    const run = await printConfig('8089', gatedUid);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/not safe here: .*(could bind it|has no port)/);
  });

  it('refuses a gated user that is root, and a service user that is the gated user', async () => {
    const root = await printConfig('873', '0');
    expect(root.code).toBe(2);
    expect(root.stdout).toBe('');
    expect(root.stderr).toMatch(/not safe here: (the gated user is root|.*has no port)/);
    const same = await printConfig('873', 'nobody', '--user', 'nobody');
    expect(same.code).toBe(2);
    expect(same.stdout).toBe('');
  });

  it.runIf(canStartAsRoot)('refuses a port the gated user already holds', async () => {
    const port = await freePrivilegedPort();
    // the gated user given CAP_NET_BIND_SERVICE: it can bind the port, so it decides every read
    const holder = spawn('setpriv', [
      ...asGatedUid('--inh-caps=+net_bind_service', '--ambient-caps=+net_bind_service'),
      process.execPath,
      '-e',
      `require('node:net').createServer().listen(${port}, '127.0.0.1', () => console.log('held'))`,
    ]);
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (c: Buffer) => c.toString().includes('held') && resolve());
        holder.once('exit', (code) => reject(new Error(`the holder exited ${code}`)));
      });
      const run = await printConfig(port, gatedUid, '--user', 'nobody');
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(`port ${port} is held by the gated user`);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it.runIf(process.platform === 'linux')(
    'prints the http hook before a call, the command hook and the http hook after it, with the conditions',
    async () => {
      const run = await printConfig('873', gatedUid, '--user', 'nobody');
      expect(run.code, run.stderr).toBe(0);
      type Handler = Record<string, unknown>;
      const { hooks } = JSON.parse(run.stdout) as { hooks: Record<string, { matcher: string; hooks: Handler[] }[]> };
      const http = {
        type: 'http',
        url: 'http://127.0.0.1:873/claude-code',
        timeout: 30,
        onFailure: 'block',
        headers: { 'X-Linkgate-Secret': '$LINKGATE_RESIDENT_SECRET' },
        allowedEnvVars: ['LINKGATE_RESIDENT_SECRET'],
      };
      expect(hooks['PreToolUse']).toEqual([{ matcher: 'ReadMcpResourceTool|WebFetch', hooks: [http] }]);
      const post = hooks['PostToolUse'] ?? [];
      // the command hook withholds after the read, as printed by `linkgate hook claude-code --print-config`
      expect(post[0]?.hooks[0]).toMatchObject({ type: 'command', onFailure: 'block' });
      expect(String(post[0]?.hooks[0]?.['command'])).toMatch(/ hook claude-code /);
      expect(post[0]?.matcher).toContain('ReadMcpResourceTool');
      expect(post[1]).toEqual({ matcher: 'ListMcpResourcesTool|ReadMcpResourceDirTool|mcp__.*', hooks: [http] });
      expect(hooks['PostToolUseFailure']?.[0]?.hooks[0]).toMatchObject({ type: 'command' });
      for (const line of [
        /runs as `nobody`, not as the gated user `61234` and not as root/,
        /below net.ipv4.ip_unprivileged_port_start/,
        /LINKGATE_RESIDENT_SECRET/,
        /onFailure: "block"/,
        /command hook .* withholds/,
      ])
        expect(run.stderr).toMatch(line);
    },
  );
});
