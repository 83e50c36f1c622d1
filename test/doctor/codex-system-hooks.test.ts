// Codex's hooks from above the user, as codex-rs `discover_handlers` runs them: every layer's hooks.json and `[hooks]`
// run side by side (none replaces another's); the system layer's (/etc/codex/hooks.json, `[hooks]` of
// /etc/codex/config.toml), the managed config's `[hooks]` and requirements.toml's `[hooks]` are the administrator's and
// run with no trust recorded, whatever `allow_managed_hooks_only` says; `[features] hooks = false` stops them all. The
// project root is found by `project_root_markers` of the system and user configs (default `.git`; an empty list: the
// folder codex runs in), so a system layer can leave a project's hooks unloaded. Doctor reads the system folder
// under `LINKGATE_CODEX_SYSTEM_DIR` (doctorReport points it at `home/codex-system`).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'smol-toml';
import { describe, expect, test } from 'vitest';
import { hostSettings } from '../../src/hook/hook-settings.ts';
import { codex } from '../../src/hosts/codex.ts';
import { codexHookHash, codexHookKey } from '../../src/hosts/codex-hook-trust.ts';
import { hookHandlers } from '../../src/hosts/hook-groups.ts';
import { doctorReport, printedHook, serverStates, useScratch, write } from './doctor-scratch.ts';

const scratch = useScratch('linkgate-doctor-codex-system-');

// the printed codex hooks block, `{hooks: {PreToolUse: […], PostToolUse: […]}}`
const printed = () => hostSettings.codex(printedHook('codex')) as { hooks: Record<string, unknown> };
const userConfig = 'sandbox_mode = "read-only"\n[mcp_servers.docs]\ncommand = "node"\nargs = ["s.js"]\n';

/** A home whose user config has the plain server `docs`; `files` written under it (paths relative to `home`). */
async function codexStates(files: Record<string, string | object>, cwd?: (home: string) => string) {
  const { home, project } = scratch();
  write(path.join(home, '.codex', 'config.toml'), userConfig);
  for (const [file, value] of Object.entries(files)) write(path.join(home, file), value);
  const report = await doctorReport(home, cwd?.(home) ?? project);
  return { states: serverStates(report).filter(([host]) => host === 'codex'), report };
}

describe('codex: a gating hook delivered only from above the user counts', () => {
  test('control: no hook anywhere, `docs` is not gated', async () => {
    expect((await codexStates({})).states).toEqual([['codex', 'docs', 'not-gated']]);
  });

  test.for([
    ['/etc/codex/hooks.json', { 'codex-system/hooks.json': printed() }],
    ['[hooks] of /etc/codex/config.toml', { 'codex-system/config.toml': stringify(printed()) }],
    ['[hooks] of /etc/codex/managed_config.toml', { 'codex-system/managed_config.toml': stringify(printed()) }],
    ['[hooks] of /etc/codex/requirements.toml', { 'codex-system/requirements.toml': stringify(printed()) }],
  ] as const)('%s: gated, with no trust recorded', async ([, files]) => {
    const { states, report } = await codexStates(files);
    expect(states).toEqual([['codex', 'docs', 'gated']]);
    expect(report.hooks.filter((h) => h.host === 'codex').every((h) => h.runs)).toBe(true);
  });

  test('`allow_managed_hooks_only = true` leaves the system hooks running', async () => {
    const files = {
      'codex-system/hooks.json': printed(),
      'codex-system/requirements.toml': 'allow_managed_hooks_only = true\n',
    };
    expect((await codexStates(files)).states).toEqual([['codex', 'docs', 'gated']]);
  });

  test('`[features] hooks = false` in a system file stops the system hooks too', async () => {
    for (const off of ['codex-system/config.toml', 'codex-system/requirements.toml']) {
      const files = { 'codex-system/hooks.json': printed(), [off]: '[features]\nhooks = false\n' };
      expect((await codexStates(files)).states, off).toEqual([['codex', 'docs', 'not-gated']]);
    }
  });
});

describe("codex: a system layer that leaves the project's hook unloaded is not gated", () => {
  // the project (`project`, marked by `.git`, trusted by the user) holds the hooks in `.codex/hooks.json`, trusted;
  // doctor runs in `project/sub`
  function projectHooks(systemConfig: string | undefined) {
    return codexStates({}, (home) => {
      const project = path.join(home, 'project');
      mkdirSync(path.join(project, '.git'));
      mkdirSync(path.join(project, 'sub'));
      const hooksFile = path.join(project, '.codex', 'hooks.json');
      const settings = printed();
      write(hooksFile, settings);
      const trusted = hookHandlers(settings.hooks, codex.events).map(
        (h) => `[hooks.state.${JSON.stringify(codexHookKey(hooksFile, h))}]\ntrusted_hash = "${codexHookHash(h)}"\n`,
      );
      write(
        path.join(home, '.codex', 'config.toml'),
        [userConfig, `[projects.${JSON.stringify(project)}]\ntrust_level = "trusted"\n`, ...trusted].join('\n'),
      );
      if (systemConfig !== undefined) write(path.join(home, 'codex-system', 'config.toml'), systemConfig);
      return path.join(project, 'sub');
    });
  }

  test("control: the trusted project's hooks gate", async () => {
    expect((await projectHooks(undefined)).states).toEqual([['codex', 'docs', 'gated']]);
  });

  test('`project_root_markers = []` in /etc/codex/config.toml: the root is `sub`, the hooks are not loaded', async () => {
    expect((await projectHooks('project_root_markers = []\n')).states).toEqual([['codex', 'docs', 'not-gated']]);
  });

  test('`project_root_markers = [".hg"]` there, no `.hg` up the tree: likewise', async () => {
    expect((await projectHooks('project_root_markers = [".hg"]\n')).states).toEqual([['codex', 'docs', 'not-gated']]);
  });

  test('a `[hooks.state]` there that disables the hook changes nothing: codex reads hook state from the user only', async () => {
    const { report } = await projectHooks('');
    const key = report.hooks.find((h) => h.host === 'codex');
    expect(key).toBeDefined();
    const hooksFile = key?.file ?? '';
    const states = hookHandlers(printed().hooks, codex.events).map(
      (h) => `[hooks.state.${JSON.stringify(codexHookKey(hooksFile, h))}]\nenabled = false\n`,
    );
    expect((await projectHooks(states.join('\n'))).states).toEqual([['codex', 'docs', 'gated']]);
  });

  test('`project_root_markers` that is not a list of names is named: codex does not start with it', async () => {
    const { report } = await projectHooks('project_root_markers = ".git"\n');
    expect(report.problems.join('\n')).toContain('`project_root_markers`');
  });
});
