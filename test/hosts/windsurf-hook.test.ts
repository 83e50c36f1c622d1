// `linkgate hook windsurf` (issue 43 item 3). Windsurf is not on the npm registry, so its binary cannot run here: the
// hook is run as Windsurf runs one, the command `--print-config` prints through `sh -c` with one event on stdin, on
// events shaped exactly as its hooks docs show them (docs.windsurf.com/windsurf/cascade/hooks: the common fields and
// `tool_info` of `pre_mcp_tool_use`), and judged by what Windsurf reads back: exit 2 blocks the call and hands the agent
// stderr, any other exit lets it proceed. Also the fail-closed cases, the printed set-up and doctor on its files.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { maxEventBytes } from '../../src/cli/hook-command.ts';
import { runDoctor } from '../../src/doctor/run-doctor.ts';
import { windsurfHost } from '../../src/hook/windsurf-host.ts';
import { runCli } from '../helpers/run-cli.ts';
import { runHookCommand } from '../hook/hook-process.ts';

// the printed command runs the built event bundle, as an installed package would: one built before windsurf is rebuilt
const eventBundle = path.resolve(import.meta.dirname, '../../dist/bin/linkgate-event.cjs');
beforeAll(() => {
  if (!existsSync(eventBundle) || !readFileSync(eventBundle, 'utf8').includes('pre_mcp_tool_use'))
    execFileSync('npm', ['run', 'build'], { stdio: 'ignore' });
}, 180_000);

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'linkgate-windsurf-'));
  dirs.push(dir);
  return dir;
}

// the docs' `pre_mcp_tool_use` example, with the common fields the docs list for every hook
const docsExample = {
  agent_action_name: 'pre_mcp_tool_use',
  trajectory_id: 'traj-7f3c2a',
  execution_id: 'exec-91b4',
  timestamp: '2026-12-05T10:00:00.000Z',
  tool_info: {
    mcp_server_name: 'github',
    mcp_tool_arguments: {
      owner: 'code-owner',
      repo: 'my-cool-repo',
      title: 'Bug report',
      body: 'Description of the bug here',
    },
    mcp_tool_name: 'create_issue',
  },
};
const call = (server: string, tool: string, args: unknown) => ({
  ...docsExample,
  tool_info: { mcp_server_name: server, mcp_tool_arguments: args, mcp_tool_name: tool },
});
const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';

/** The printed hooks.json's command, run as Windsurf runs it: `sh -c COMMAND`, the event on stdin. */
const runAsWindsurf = (command: string, stdin: string | Buffer) => runHookCommand('sh', ['-c', command], stdin);

async function printed(args: string[] = []): Promise<{ hooks: Record<string, { command: string }[]> }> {
  const out = await runCli(['hook', 'windsurf', '--print-config', ...args]);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout) as { hooks: Record<string, { command: string }[]> };
}

/** The command of the printed `pre_mcp_tool_use` hook, with records and state in a scratch folder. */
async function hookCommand(extra: string[] = []): Promise<{ command: string; records: string }> {
  const dir = scratch();
  const records = path.join(dir, 'records.jsonl');
  const config = await printed(['--records', records, '--state', path.join(dir, 'state'), ...extra]);
  const command = config.hooks['pre_mcp_tool_use']?.[0]?.command;
  expect(command).toBeDefined();
  return { command: command as string, records };
}

const recordsText = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

describe('linkgate hook windsurf, run as windsurf runs it', () => {
  it('lets the docs example through: exit 0, nothing printed, nothing recorded', async () => {
    const { command, records } = await hookCommand();
    const run = await runAsWindsurf(command, JSON.stringify(docsExample));
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(recordsText(records)).toBe('');
  });

  it('blocks a tool given a metadata url: exit 2, the reason on stderr for the agent, one record', async () => {
    const { command, records } = await hookCommand();
    const run = await runAsWindsurf(command, JSON.stringify(call('fetch', 'fetch', { url: metadata })));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('uri.non-public-address');
    const lines = recordsText(records).trim().split('\n');
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0] as string) as {
      uri: string;
      stages: { discovered: { tool: string } };
      host: { name: string; session: string };
    };
    expect(record).toMatchObject({ uri: metadata, host: { name: 'windsurf', session: 'traj-7f3c2a' } });
    expect(record.stages.discovered.tool).toBe('fetch/fetch');
  });

  it('judges every url of a list, and `uri` as well as `url`; credentials never reach the reason', async () => {
    const { command } = await hookCommand();
    const list = call('browser', 'open_pages', { urls: ['https://docs.example.com/a', 'http://127.0.0.1:8080/admin'] });
    expect((await runAsWindsurf(command, JSON.stringify(list))).code).toBe(2);
    const secret = call('reader', 'read_resource', { uri: 'https://reader:s3cret@docs.example.com/guide' });
    const run = await runAsWindsurf(command, JSON.stringify(secret));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('uri.userinfo');
    expect(run.stderr).not.toContain('s3cret');
    const fine = call('fetch', 'fetch', { url: 'https://docs.example.com/guide', max_length: 5000 });
    expect(await runAsWindsurf(command, JSON.stringify(fine))).toMatchObject({ code: 0, stdout: '' });
  });

  it('judges the urls of a tool it knows nothing about; a post event is not read (it cannot withhold)', async () => {
    const { command } = await hookCommand();
    const unknown = call('some-server', 'do_the_thing', { url: metadata, mode: 'x' });
    expect((await runAsWindsurf(command, JSON.stringify(unknown))).code).toBe(2);
    const post = {
      ...docsExample,
      agent_action_name: 'post_mcp_tool_use',
      tool_info: { ...docsExample.tool_info, mcp_result: `[Resource link] ${metadata}` },
    };
    expect(windsurfHost.parse(post)).toBeNull();
    expect(await runAsWindsurf(command, JSON.stringify(post))).toMatchObject({ code: 0, stdout: '' });
  });

  it('fails closed (exit 2, which blocks) on garbage, a broken event, a huge event and a policy that does not load', async () => {
    const { command } = await hookCommand();
    for (const stdin of [
      'not json at all',
      '',
      '[1,2,3]',
      JSON.stringify({ ...docsExample, tool_info: 'github' }),
      JSON.stringify(call('github', '', {})),
      JSON.stringify({ ...docsExample, trajectory_id: 7 }),
      JSON.stringify(call('fetch', 'fetch', { url: { href: metadata } })),
      JSON.stringify(call('fetch', 'fetch', { urls: ['https://docs.example.com/', 42] })),
      JSON.stringify(call('fetch', 'fetch', '{not json')),
    ]) {
      const run = await runAsWindsurf(command, stdin);
      expect(run.code, stdin).toBe(2);
      expect(run.stderr, stdin).toMatch(/^linkgate hook: /);
    }
    // over the hook's event cap: refused unread, whatever it holds
    const huge = Buffer.from(
      JSON.stringify(call('github', 'create_issue', { body: 'x'.repeat(maxEventBytes + 1024), repo: 'r' })),
    );
    const big = await runAsWindsurf(command, huge);
    expect(big.code).toBe(2);
    expect(big.stderr).toContain(`over ${maxEventBytes} bytes`);

    const broken = path.join(scratch(), 'broken.yaml');
    writeFileSync(broken, 'id: [unclosed\n');
    const withBroken = command.replace(/--policy \S+/, `--policy ${broken}`);
    expect(withBroken).not.toBe(command);
    expect((await runAsWindsurf(withBroken, JSON.stringify(docsExample))).code).toBe(2);
  }, 120_000);

  it('in observe mode records the refusal and lets the call proceed', async () => {
    const { command, records } = await hookCommand(['--mode', 'observe']);
    const run = await runAsWindsurf(command, JSON.stringify(call('fetch', 'fetch', { url: metadata })));
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(recordsText(records)).toContain('uri.non-public-address');
  });
});

describe('linkgate hook windsurf --print-config and doctor', () => {
  it('prints one pre_mcp_tool_use command hook; alone it says where it fails open; with --server the proxy too', async () => {
    const alone = await runCli(['hook', 'windsurf', '--print-config']);
    const config = JSON.parse(alone.stdout) as { hooks: Record<string, Record<string, unknown>[]> };
    expect(Object.keys(config.hooks)).toEqual(['pre_mcp_tool_use']);
    expect(config.hooks['pre_mcp_tool_use']).toEqual([
      { command: expect.stringContaining('hook windsurf') as unknown, show_output: true },
    ]);
    expect(alone.stderr).toContain('cannot withhold a tool result');
    const fronted = await printed(['--server', 'docs', '--', 'npx', '-y', 'docs-server']);
    const servers = (fronted as unknown as { mcpServers: Record<string, { command: string; args: string[] }> })
      .mcpServers;
    expect(servers['docs']?.args).toEqual(expect.arrayContaining(['proxy', '--server', 'docs', '--', 'docs-server']));
  });

  it('doctor: a server behind the hook alone is not gated, one behind the printed proxy is; the hook fails open', async () => {
    const home = scratch();
    const project = path.join(home, 'project');
    const system = path.join(home, 'etc-windsurf');
    mkdirSync(path.join(home, '.codeium', 'windsurf'), { recursive: true });
    mkdirSync(path.join(project, '.windsurf'), { recursive: true });
    const fronted = (await printed(['--server', 'docs', '--', 'node', 's.js'])) as unknown as {
      hooks: unknown;
      mcpServers: Record<string, unknown>;
    };
    writeFileSync(
      path.join(home, '.codeium', 'windsurf', 'mcp_config.json'),
      JSON.stringify({ mcpServers: { ...fronted.mcpServers, bare: { command: 'node', args: ['b.js'] } } }),
    );
    writeFileSync(path.join(project, '.windsurf', 'hooks.json'), JSON.stringify({ hooks: fronted.hooks }));
    const report = await runDoctor(
      { home, cwd: project, env: { LINKGATE_WINDSURF_SYSTEM_DIR: system } },
      { startServers: false },
    );
    const windsurf = report.servers.filter((s) => s.host === 'windsurf');
    expect(windsurf.map((s) => [s.name, s.gated])).toEqual([
      ['docs', true],
      ['bare', false],
    ]);
    expect(report.hooks.filter((h) => h.host === 'windsurf').map((h) => [h.event, h.runs, h.failMode])).toEqual([
      ['pre_mcp_tool_use', true, 'open'],
    ]);
  });
});
