import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands.ts';
import { perEventCommands } from '../../src/cli/main.ts';
import { runCli } from '../helpers/run-cli.ts';

describe('commands started once per event', () => {
  it('are the very definitions the command list holds', async () => {
    for (const [name, load] of Object.entries(perEventCommands)) {
      expect(await load()).toBe(commands.find((c) => c.name === name));
    }
  });

  it('an inherited member name is an unknown command, not a shortcut', async () => {
    const run = await runCli(['constructor']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown command `constructor`');
  });
});
