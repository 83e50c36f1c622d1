import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claudeCodeSettings, pluginHookCommand } from '../../src/hook/hook-settings.ts';

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('the Claude Code plugin folder shipped in the package', () => {
  it('hooks/hooks.json holds the same hooks as --print-config, run from the plugin folder', () => {
    const { description, ...hooks } = json('hooks/hooks.json');
    expect(typeof description).toBe('string');
    expect(hooks).toEqual(claudeCodeSettings(pluginHookCommand));
  });

  it('names the package and its version, and the package ships the folder and the bundle it runs', () => {
    const pkg = json('package.json') as { name: string; version: string; files: string[]; bin: { linkgate: string } };
    expect(json('.claude-plugin/plugin.json')).toMatchObject({ name: pkg.name, version: pkg.version });
    // the bundles the plugin's command runs (dist/bin) and loads (dist/lib), since a2df18f ships no other dist files
    expect(pkg.files).toEqual(expect.arrayContaining(['dist/bin', 'dist/lib', 'policies', 'hooks', '.claude-plugin']));
    expect(pluginHookCommand).toContain(pkg.bin.linkgate);
  });
});
