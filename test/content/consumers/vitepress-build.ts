// The VitePress oracle both VitePress suites build against: a real `vitepress build` (1.6.4, installed on demand into
// the test cache, never a dependency) of one page per case, offline, in a scratch site. Under CI=true a VitePress
// that cannot install or build fails the suite; elsewhere its tests skip with the reason.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll } from 'vitest';
import { frameworkSuite } from '../../frameworks/framework-package.ts';
import { mustRunRealParts } from '../../real-host/host-suite.ts';

/** What the build made of one page: its html and its compiled code. */
export interface BuiltPage {
  html: string;
  code: string;
}

/** A suite's handle on its build. */
export interface VitepressBuild {
  /** the scratch site, once the build's `beforeAll` made it */
  readonly site: () => string | undefined;
  /** the built page of `page`, or skips the test with the reason the build did not run */
  readonly output: (ctx: { skip: (why: string) => never }, page: string) => BuiltPage;
}

function runBuild(bin: string, site: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [bin, 'build', site],
      { cwd: site, timeout: 600_000, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, CI: 'true' } },
      (error, stdout, stderr) => (error === null ? resolve() : reject(new Error(`${stderr}${stdout}`.slice(-2000)))),
    );
  });
}

/** Registers the install and a `beforeAll` building `pages` (each written as `written(page, i)`) in a site `prefix…`. */
export function useVitepressBuild(
  prefix: string,
  pages: readonly string[],
  written: (page: string, i: number) => string = (page) => page,
): VitepressBuild {
  const suite = frameworkSuite('vitepress', {
    name: 'vitepress',
    version: '1.6.4',
    entry: 'node_modules/vitepress/dist/node/index.js',
  });
  let site: string | undefined;
  let built: Map<string, BuiltPage> | undefined;
  let buildError: string | undefined;
  beforeAll(async () => {
    // the suite's own beforeAll ran the install first: under CI=true a failed install has failed the suite there
    let dir: string;
    try {
      dir = suite.require({
        skip: (why: string): never => {
          throw new Error(why);
        },
      } as never);
    } catch (error) {
      buildError = (error as Error).message;
      return;
    }
    const root = await suite.scratch(prefix);
    site = root;
    await mkdir(path.join(root, '.vitepress'), { recursive: true });
    // the built page imports vue from the site's own node_modules: the install's
    await symlink(path.join(dir, 'node_modules'), path.join(root, 'node_modules'), 'dir');
    await writeFile(path.join(root, '.vitepress', 'config.mjs'), 'export default { title: "oracle" }\n');
    await Promise.all(pages.map((page, i) => writeFile(path.join(root, `case-${i}.md`), written(page, i))));
    try {
      await runBuild(path.join(dir, 'node_modules', 'vitepress', 'bin', 'vitepress.js'), root);
    } catch (error) {
      buildError = (error as Error).message;
      if (mustRunRealParts()) throw error;
      return;
    }
    const dist = path.join(root, '.vitepress', 'dist');
    const assets = readdirSync(path.join(dist, 'assets'));
    built = new Map(
      pages.map((page, i) => {
        const chunk = assets.find((f) => f.startsWith(`case-${i}.md.`) && f.endsWith('.js') && !f.includes('.lean.'));
        const code = chunk === undefined ? '' : readFileSync(path.join(dist, 'assets', chunk), 'utf8');
        const file = path.join(dist, `case-${i}.html`);
        return [page, { html: existsSync(file) ? readFileSync(file, 'utf8') : '', code }];
      }),
    );
  }, 900_000);
  return {
    site: () => site,
    output: (ctx, page) => {
      const out = built?.get(page);
      if (out === undefined) return ctx.skip(`the vitepress build did not run: ${buildError ?? 'no install'}`);
      return out;
    },
  };
}
