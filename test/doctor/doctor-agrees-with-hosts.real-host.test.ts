// doctor against what the real hosts then do (issue 40 acceptance): Gemini CLI with its own `hooksConfig` switches on
// and off, and Codex CLI through the documented observe → enforce switch (docs/doctor.md), including the re-trust the
// changed hook command needs. Each step runs the real binary offline against the scripted model and the hostile
// fixture server, and checks that doctor's verdict and the host's behaviour agree: where doctor says gated, the
// refused link was never read and never reached the model; where it says not gated, it was and it did.
import { realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { doctorCommand } from '../../src/cli/doctor-command.ts';
import type { DoctorReport } from '../../src/doctor/doctor-report.ts';
import { runCli, runCommand } from '../helpers/run-cli.ts';
import { codexConfig, installCodexCli } from '../real-host/codex-cli.ts';
import { functionCallOutputsOf, outputText, responsesDialect } from '../real-host/codex-model-api.ts';
import { fixtureServer, serverReads } from '../real-host/fixture-process.ts';
import { fixtureNamed } from '../real-host/fixture-resources.ts';
import { installGeminiCli, runGeminiCli } from '../real-host/gemini-cli.ts';
import { runHost } from '../real-host/host-run.ts';
import { builtCli, mustRunRealParts, realHostSuite } from '../real-host/host-suite.ts';
import { codexHookList, hostEnv } from './host-listings.ts';

builtCli();
const { metadata, readme } = fixtureNamed;

async function doctor(
  home: string,
  cwd: string,
  ...args: string[]
): Promise<{ code: number; report: DoctorReport; text: string }> {
  return doctorIn(hostEnv(home), cwd, ...args);
}

// doctor run with the environment the host ran with (Gemini CLI's folder trust reads it)
async function doctorIn(
  env: Record<string, string>,
  cwd: string,
  ...args: string[]
): Promise<{ code: number; report: DoctorReport; text: string }> {
  const json = await runCommand(doctorCommand, ['--json', ...args], { cwd, env });
  const text = await runCommand(doctorCommand, args, { cwd, env });
  expect(text.code).toBe(json.code);
  return { code: json.code, report: JSON.parse(json.stdout) as DoctorReport, text: text.stdout };
}

async function printedConfig(host: string, ...options: string[]): Promise<Record<string, unknown>> {
  const printed = await runCli(['hook', host, '--print-config', ...options]);
  expect(printed.code, printed.stderr).toBe(0);
  return JSON.parse(printed.stdout) as Record<string, unknown>;
}

describe('gemini cli: doctor and the host agree with `hooksConfig` on and off', () => {
  const suite = realHostSuite('gemini cli', () => installGeminiCli());

  test.for([
    ['on', 'on'],
    ['`enabled: false`', 'enabled-false'],
    ['`disabled` naming the hook command', 'disabled-command'],
  ] as const)('hooksConfig %s', { timeout: 300_000 }, async ([, setting], ctx) => {
    suite.require(ctx);
    const logs = await suite.scratch('linkgate-doctor-gemini-');
    const requestLog = path.join(logs, 'requests.jsonl');
    const hooks = await printedConfig('gemini-cli');
    const handlers = (hooks['hooks'] as Record<string, { hooks: { command: string }[] }[]>)['BeforeTool'];
    const command = handlers?.[0]?.hooks[0]?.command ?? '';
    expect(command).toContain('hook gemini-cli');
    const hooksConfig = {
      on: { enabled: true },
      'enabled-false': { enabled: false },
      'disabled-command': { disabled: [command] },
    }[setting];
    expect(metadata.marker).toBeDefined();
    const run = await runGeminiCli({
      mcpServers: { fixture: fixtureServer(requestLog) },
      settings: { ...hooks, hooksConfig },
      prompt: 'read the links of the fixture server',
      script: [
        { toolUses: [{ id: 'call_links', name: 'mcp_fixture_links', input: {} }] },
        { toolUses: [{ id: 'call_metadata', name: 'read_mcp_resource', input: { uri: metadata.uri } }] },
        { toolUses: [{ id: 'call_readme', name: 'read_mcp_resource', input: { uri: readme.uri } }] },
        { text: 'all read' },
      ],
      timeoutMs: 240_000,
    });
    suite.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    // what the host did: was the refused link read, and did its body reach the model?
    const reads = await serverReads(requestLog);
    const everything = JSON.stringify(run.modelRequests.map((r) => r.body));
    const hostGated = !reads.includes(metadata.uri) && !everything.includes(metadata.marker ?? '');
    // what doctor says of the same HOME and project, in the environment gemini cli ran with (it trusts the folder)
    const { code, report } = await doctorIn(
      hostEnv(path.join(run.dir, 'home'), { GEMINI_CLI_TRUST_WORKSPACE: 'true' }),
      path.join(run.dir, 'work'),
    );
    const server = report.servers.find((s) => s.name === 'fixture');
    console.log(
      `gemini hooksConfig ${JSON.stringify(hooksConfig)}: doctor exit ${code}, state ${server?.state}; ` +
        `host read the refused link: ${reads.includes(metadata.uri)}, its body reached the model: ${everything.includes(metadata.marker ?? '')}`,
    );
    expect(reads).toContain(readme.uri);
    if (setting === 'on') {
      expect(hostGated).toBe(true);
      // hooks alone: what the session refused is kept where the agent's shell can undo it
      expect([server?.state, code]).toEqual(['partly-gated', 1]);
    } else {
      expect(hostGated).toBe(false);
      expect([server?.state, code]).toEqual(['not-gated', 1]);
      expect(report.hooks.every((h) => !h.runs && /hooksConfig\.(enabled|disabled)/.test(h.problems[0] ?? ''))).toBe(
        true,
      );
    }
  });
});

describe('gemini cli: doctor and the host agree on folder trust (trustedFolders.json)', () => {
  const suite = realHostSuite('gemini cli', () => installGeminiCli());

  test.for([
    ['trusted', true],
    ['untrusted', false],
  ] as const)('a folder %s by the trusted folders file', { timeout: 300_000 }, async ([, trusted], ctx) => {
    suite.require(ctx);
    const logs = await suite.scratch('linkgate-doctor-gemini-trust-');
    const requestLog = path.join(logs, 'requests.jsonl');
    const trustFile = path.join(logs, 'trustedFolders.json');
    // every run folder lies under the temp folder: trusting it trusts the run's project, `{}` trusts nothing
    await writeFile(trustFile, JSON.stringify(trusted ? { [realpathSync(tmpdir())]: 'TRUST_FOLDER' } : {}));
    // the host decides from the file alone: no `GEMINI_CLI_TRUST_WORKSPACE` (the harness sets it, an empty value
    // is no setting)
    const trustEnv = { GEMINI_CLI_TRUST_WORKSPACE: '', GEMINI_CLI_TRUSTED_FOLDERS_PATH: trustFile };
    const run = await runGeminiCli({
      mcpServers: { fixture: fixtureServer(requestLog) },
      settings: await printedConfig('gemini-cli'),
      prompt: 'read the links of the fixture server',
      script: [
        { toolUses: [{ id: 'call_links', name: 'mcp_fixture_links', input: {} }] },
        { toolUses: [{ id: 'call_metadata', name: 'read_mcp_resource', input: { uri: metadata.uri } }] },
        { toolUses: [{ id: 'call_readme', name: 'read_mcp_resource', input: { uri: readme.uri } }] },
        { text: 'all read' },
      ],
      env: trustEnv,
      timeoutMs: 240_000,
    });
    suite.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    const requests = (await readFile(requestLog, 'utf8').catch(() => '')).split('\n').filter((l) => l !== '');
    const reads = await serverReads(requestLog);
    const everything = JSON.stringify(run.modelRequests.map((r) => r.body));
    const { code, report } = await doctorIn(hostEnv(path.join(run.dir, 'home'), trustEnv), path.join(run.dir, 'work'));
    const server = report.servers.find((s) => s.name === 'fixture');
    console.log(
      `gemini folder ${trusted ? 'trusted' : 'untrusted'}: doctor exit ${code}, state ${server?.state}; ` +
        `server got ${requests.length} requests, read ${JSON.stringify(reads)}`,
    );
    expect(everything).not.toContain(metadata.marker ?? '');
    if (trusted) {
      // the host started the server and its hooks ran: the allowed read went through, the refused one never did
      expect(reads).toContain(readme.uri);
      expect(reads).not.toContain(metadata.uri);
      // hooks alone: what the session refused is kept where the agent's shell can undo it
      expect([server?.state, code]).toEqual(['partly-gated', 1]);
    } else {
      // the host started no server at all (nothing reached it) and ran no hook: doctor says the server never starts
      // and the hooks do not run
      expect(requests).toEqual([]);
      expect(server?.state).toBe('disabled');
      expect(report.hooks.length).toBeGreaterThan(0);
      expect(report.hooks.every((h) => !h.runs && (h.problems[0] ?? '').includes('does not trust'))).toBe(true);
      expect(code).toBe(1);
    }
  });
});

describe('gemini cli: doctor and the host agree on a system settings file turning hooks off', () => {
  const suite = realHostSuite('gemini cli', () => installGeminiCli());

  // gemini cli reads a system file only when root owns it and every folder above it, none writable by others: one in
  // the home folder (root's, when the suite runs as root) is read, one in the temp folder (writable by all) is skipped
  test.for([
    ['root-owned', true],
    ['in a folder others may write', false],
  ] as const)('a system file %s', { timeout: 300_000 }, async ([, secure], ctx) => {
    suite.require(ctx);
    if (secure && process.getuid?.() !== 0) {
      // a root-owned folder needs root: CI runs as root, so there this case never goes quiet
      if (mustRunRealParts()) throw new Error('the root-owned system file case needs root (CI=true runs as root)');
      ctx.skip('the root-owned system file case needs root');
    }
    const logs = await suite.scratch('linkgate-doctor-gemini-system-');
    const adminDir = secure ? await mkdtemp(path.join(homedir(), 'linkgate-gemini-system-')) : logs;
    suite.defer(() => rm(adminDir, { recursive: true, force: true }));
    const systemFile = path.join(adminDir, 'settings.json');
    await writeFile(systemFile, JSON.stringify({ hooksConfig: { enabled: false } }));
    const requestLog = path.join(logs, 'requests.jsonl');
    const env = { GEMINI_CLI_SYSTEM_SETTINGS_PATH: systemFile };
    const run = await runGeminiCli({
      mcpServers: { fixture: fixtureServer(requestLog) },
      settings: await printedConfig('gemini-cli'),
      prompt: 'read the links of the fixture server',
      script: [
        { toolUses: [{ id: 'call_links', name: 'mcp_fixture_links', input: {} }] },
        { toolUses: [{ id: 'call_metadata', name: 'read_mcp_resource', input: { uri: metadata.uri } }] },
        { toolUses: [{ id: 'call_readme', name: 'read_mcp_resource', input: { uri: readme.uri } }] },
        { text: 'all read' },
      ],
      env,
      timeoutMs: 240_000,
    });
    suite.defer(() => run.cleanup());
    expect(run.timedOut, run.stderr).toBe(false);
    const reads = await serverReads(requestLog);
    const { code, report } = await doctorIn(
      hostEnv(path.join(run.dir, 'home'), { ...env, GEMINI_CLI_TRUST_WORKSPACE: 'true' }),
      path.join(run.dir, 'work'),
    );
    const server = report.servers.find((s) => s.name === 'fixture');
    console.log(
      `gemini system file ${secure ? 'root-owned' : 'in the temp folder'}: doctor exit ${code}, state ${server?.state}; ` +
        `host read the refused link: ${reads.includes(metadata.uri)}`,
    );
    expect(reads).toContain(readme.uri);
    // read: the hooks are off and the refused link is read; skipped: the hooks run and refuse it
    expect(reads.includes(metadata.uri)).toBe(secure);
    // a skipped system file is gated around, but still a problem doctor names (exit 1), as an unreadable file is
    expect([server?.state, code]).toEqual(secure ? ['not-gated', 1] : ['partly-gated', 1]);
    if (!secure)
      expect(report.problems.some((p) => p.includes(`skips its system settings \`${systemFile}\``))).toBe(true);
  });
});

describe('codex cli: the documented observe → enforce switch, with the re-trust, ends gated', () => {
  const suite = realHostSuite('codex cli', () => installCodexCli());

  test('observe, switch (untrusted, the hook silently skipped), re-trust, enforce', {
    timeout: 600_000,
  }, async (ctx) => {
    const bin = suite.require(ctx);
    const home = await suite.scratch('linkgate-doctor-codex-');
    const work = path.join(home, 'work');
    const codexHome = path.join(home, '.codex');
    await mkdir(work, { recursive: true });
    await mkdir(codexHome, { recursive: true });
    const requestLog = path.join(home, 'requests.jsonl');
    const recordsFile = path.join(home, 'records.jsonl');
    const servers = { fixture: fixtureServer(requestLog) };
    // the [hooks.state] table Codex's `/hooks` writes when the user trusts every hook it lists
    let trust = '';
    const writeConfig = (modelUrl: string) =>
      writeFile(path.join(codexHome, 'config.toml'), `${codexConfig(modelUrl, servers)}\n${trust}`);
    const trustAll = async () => {
      await writeConfig('http://127.0.0.1:9');
      const listed = await codexHookList(bin, home, work);
      trust = listed
        .map((h) => `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = ${JSON.stringify(h.currentHash)}\n`)
        .join('\n');
      await writeConfig('http://127.0.0.1:9');
      return listed;
    };
    const codexExec = async () => {
      const run = await runHost({
        prefix: 'linkgate-doctor-codex-run-',
        dialect: responsesDialect,
        toolResultsOf: functionCallOutputsOf,
        timeoutMs: 120_000,
        script: [
          { toolUses: [{ id: 'call_links', name: 'mcp__fixture__links', input: {} }] },
          {
            toolUses: [
              { id: 'call_metadata', name: 'read_mcp_resource', input: { server: 'fixture', uri: metadata.uri } },
            ],
          },
          { text: 'all read' },
        ],
        async prepare({ tmp }, modelUrl) {
          await writeConfig(modelUrl);
          const env = { ...hostEnv(home), TMPDIR: tmp, MOCK_API_KEY: 'offline-test-key', NO_COLOR: '1' };
          // no --dangerously-bypass-hook-trust: codex runs only the hooks its recorded trust allows
          return { file: bin, args: ['exec', '--skip-git-repo-check', '--json', 'read the links'], env };
        },
      });
      suite.defer(() => run.cleanup());
      expect(run.timedOut, run.stderr).toBe(false);
      expect(run.exitCode, run.stderr).toBe(0);
      const reads = await serverReads(requestLog);
      const everything = JSON.stringify(run.modelRequests.map((r) => r.body));
      const records = (await readFile(recordsFile, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
      return {
        read: reads.filter((u) => u === metadata.uri).length,
        reachedModel: everything.includes(metadata.marker ?? ''),
        metadataText: outputText(run.toolResults['call_metadata']),
        records,
      };
    };

    // 1. roll out in observe mode (docs/doctor.md): print, install, trust in /hooks
    await writeFile(
      path.join(codexHome, 'hooks.json'),
      JSON.stringify(await printedConfig('codex', '--mode', 'observe', '--records', recordsFile)),
    );
    expect((await trustAll()).map((h) => h.trustStatus)).toEqual(['untrusted', 'untrusted']);
    let seen = await doctor(home, work);
    expect([seen.code, seen.report.servers.map((s) => [s.name, s.state, s.mode])]).toEqual([
      1,
      [['fixture', 'observe', 'observe']],
    ]);
    expect((await doctor(home, work, '--allow-observe')).code).toBe(0);
    const observed = await codexExec();
    // observe: the hook ran (it recorded) and blocked nothing
    expect(observed.records).toBeGreaterThan(0);
    expect(observed.read).toBe(1);
    expect(observed.reachedModel).toBe(true);

    // 2. switch to enforce: print the config again without --mode observe and install it; codex's recorded trust
    // no longer matches the changed command, and doctor names the server the switch left ungated
    await writeFile(
      path.join(codexHome, 'hooks.json'),
      JSON.stringify(await printedConfig('codex', '--records', recordsFile)),
    );
    expect((await codexHookList(bin, home, work)).map((h) => h.trustStatus)).toEqual(['modified', 'modified']);
    seen = await doctor(home, work);
    expect([seen.code, seen.report.servers.map((s) => [s.name, s.state])]).toEqual([1, [['fixture', 'not-gated']]]);
    expect(seen.text).toContain(
      '✗ fixture (user, ~/.codex/config.toml): linkgate hook configured, but it does not gate',
    );
    expect(seen.report.servers[0]?.problems).toContain(
      'its linkgate hooks will not run: changed since it was trusted in codex: review it again in `/hooks`',
    );
    expect(seen.text).toContain('not gated: fixture (codex)');
    const recordsBefore = observed.records;
    const skipped = await codexExec();
    // what codex did meanwhile: it skipped the hook without a word (no record), the refused link was read
    expect(skipped.records).toBe(recordsBefore);
    expect(skipped.read).toBe(2);
    expect(skipped.reachedModel).toBe(true);

    // 3. re-trust in /hooks: now doctor says gated, and codex refuses the link before any read
    expect((await trustAll()).map((h) => h.trustStatus)).toEqual(['modified', 'modified']);
    expect((await codexHookList(bin, home, work)).map((h) => h.trustStatus)).toEqual(['trusted', 'trusted']);
    seen = await doctor(home, work);
    expect([seen.code, seen.report.servers.map((s) => [s.name, s.state, s.mode, s.failMode])]).toEqual([
      0,
      [['fixture', 'gated', 'enforce', 'open']],
    ]);
    const enforced = await codexExec();
    expect(enforced.read).toBe(2);
    expect(enforced.reachedModel).toBe(false);
    expect(enforced.metadataText).toContain('uri.non-public-address');
    expect(enforced.records).toBeGreaterThan(skipped.records);
    console.log(
      `codex switch: observe doctor exit 1 (0 with --allow-observe), host read the refused link; ` +
        `after the switch doctor exit 1 (changed since trusted), host skipped the hook (${skipped.records - recordsBefore} new records) and read it; ` +
        `after re-trust doctor exit 0, host refused it (${enforced.read - skipped.read} new reads)`,
    );
  });
});
