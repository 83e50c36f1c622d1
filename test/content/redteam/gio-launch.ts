// The launcher rounds' oracle: GLib's own `gio launch` (Debian's libglib2.0-bin, installed on demand) opens a body
// written as a file, as a file manager would; the body's `MARK` is the path of a marker file its `Exec` would create.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type TestContext } from 'vitest';
import { waitUntil } from '../../helpers/wait-until.ts';
import { realHostSuite } from '../../real-host/host-suite.ts';
import { aptOracle, runOracle } from '../consumers/apt-oracle.ts';

/** What one `gio launch` gave: its exit code and the marker file's path. */
export interface GioRun {
  code: number;
  mark: string;
}

/** Registers the `gio` suite; its `launch` writes the body as `fileName` in a scratch folder named `prefix` and opens it. */
export function gioLaunchSuite(prefix: string, fileName: string): (ctx: TestContext, body: string) => Promise<GioRun> {
  const suite = realHostSuite('gio launch', () => aptOracle('libglib2.0-bin', '/usr/bin/gio'));
  return async (ctx, body) => {
    const gio = suite.require(ctx);
    const dir = await suite.scratch(prefix);
    const mark = path.join(dir, 'ran');
    const file = path.join(dir, fileName);
    await writeFile(file, body.replaceAll('MARK', mark));
    const out = await runOracle(gio, ['launch', file], { cwd: dir, env: { ...process.env, HOME: dir } });
    return { code: out.code, mark };
  };
}

/** Expects `gio launch` to have succeeded and waits for the launched `Exec` line's marker file (it runs after gio returns). */
export async function expectExecRan(run: GioRun): Promise<void> {
  expect(run.code).toBe(0);
  await waitUntil('the Exec line ran', () => (existsSync(run.mark) ? true : undefined));
}

/** Expects `gio launch` to have refused the file, with nothing run. */
export function expectRefused(run: GioRun): void {
  expect(run.code).not.toBe(0);
  expect(existsSync(run.mark)).toBe(false);
}
