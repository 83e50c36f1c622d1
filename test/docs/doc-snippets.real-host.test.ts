// Every TypeScript snippet of README.md and docs/*.md compiles as pasted, from the packed tarball, in a scratch project
// with strict TypeScript 5.9: once with `@modelcontextprotocol/sdk` 1.x alone and once with `@modelcontextprotocol/client`
// 2.x alone (the 1.x imports rewritten as the README says); a snippet marked `run` also runs, offline, in the 1.x
// project (its server, the package's demo server, is built on 1.x). The
// projects install from the npm registry (or npm's cache); under CI=true an install that fails fails the suite.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mustRunRealParts } from '../real-host/host-suite.ts';
import { extractSnippets, snippetModule, withSdk2Imports } from './doc-snippets.ts';
import { installProject, packCheckout, type Ran, runCommand, type SdkMajor, writeRunFiles } from './snippet-project.ts';

const root = path.resolve(import.meta.dirname, '../..');
const snippets = extractSnippets(root);
const fileOf = (index: number) => `snippet-${String(index).padStart(2, '0')}`;

interface Project {
  dir: string;
  /** tsc's diagnostics by snippet file, or why the project could not be made */
  errors: Map<string, string[]>;
  ready: true;
}
type Made = Project | { ready: false; reason: string };

const made = new Map<SdkMajor, Made>();
let work = '';

async function makeProject(tarball: string, sdk: SdkMajor): Promise<Made> {
  const dir = path.join(work, `sdk${sdk}`);
  const installed = await installProject(dir, tarball, sdk);
  if (installed.code !== 0) return { ready: false, reason: `npm install failed: ${lastLines(installed)}` };
  for (const [i, s] of snippets.entries()) {
    if (s.sdkOnly !== undefined && s.sdkOnly !== sdk) continue;
    const code = snippetModule(s, snippets);
    await writeFile(path.join(dir, 'snippets', `${fileOf(i)}.ts`), sdk === 2 ? withSdk2Imports(code) : code);
  }
  await writeRunFiles(dir);
  const tscBin = 'node_modules/typescript/bin/tsc';
  const tsc = await runCommand(process.execPath, [tscBin, '-p', '.'], dir, 5 * 60_000);
  // linkgate's own type files, nothing skipped: an import of a package the project lacks is TS2307 there
  const types = await runCommand(process.execPath, [tscBin, '-p', 'tsconfig.types.json'], dir, 5 * 60_000);
  const errors = new Map<string, string[]>();
  for (const line of `${tsc.stdout}\n${tsc.stderr}\n${types.stdout}\n${types.stderr}`.split('\n')) {
    const at = /^(?:snippets\/)?(snippet-\d+)\.ts\(|^((?:node_modules|types-check)\/\S+?)\(/.exec(line);
    if (at === null) continue;
    const key = at[1] ?? at[2] ?? '';
    errors.set(key, [...(errors.get(key) ?? []), line]);
  }
  for (const ran of [tsc, types])
    if (ran.code !== 0 && errors.size === 0) return { ready: false, reason: `tsc failed: ${lastLines(ran)}` };
  return { dir, errors, ready: true };
}

function lastLines(ran: Ran): string {
  return (ran.stderr.trim() || ran.stdout.trim()).split('\n').slice(-3).join(' | ');
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'linkgate-snippets-'));
  const packed = await packCheckout(work);
  for (const sdk of [1, 2] as const)
    made.set(sdk, 'error' in packed ? { ready: false, reason: packed.error } : await makeProject(packed.tarball, sdk));
  const failed = [...made.values()].filter((m): m is { ready: false; reason: string } => !m.ready);
  if (failed.length === 0) return;
  const why = failed.map((f) => f.reason).join('; ');
  if (mustRunRealParts()) throw new Error(`the snippet projects are required under CI=true: ${why}`);
  console.warn(`skipping the docs' snippet checks: ${why}`);
}, 25 * 60_000);

afterAll(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true });
});

function project(sdk: SdkMajor, skip: (why: string) => never): Project {
  const p = made.get(sdk);
  if (p === undefined || !p.ready) return skip(`the sdk ${sdk} project is not available: ${p?.reason ?? 'not made'}`);
  return p;
}

describe('the snippets of README.md and docs/', () => {
  test('there are snippets, and every one names only snippets of its own page', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(10);
    for (const s of snippets) expect(() => snippetModule(s, snippets)).not.toThrow();
  });

  for (const sdk of [1, 2] as const) {
    test(`the sdk ${sdk} project has only its own MCP SDK`, (ctx) => {
      const p = project(sdk, (why) => ctx.skip(why));
      const has = (name: string) => existsSync(path.join(p.dir, 'node_modules', name, 'package.json'));
      expect(has('@modelcontextprotocol/sdk')).toBe(sdk === 1);
      if (sdk === 2) expect(has('@modelcontextprotocol/client')).toBe(true);
      // linkgate's own type files, checked with nothing skipped, import nothing the project lacks
      const own = (key: string) => key.startsWith('node_modules/linkgate/') || key.startsWith('types-check/');
      expect([...p.errors].filter(([key]) => own(key))).toEqual([]);
    });

    for (const [i, s] of snippets.entries()) {
      if (s.sdkOnly !== undefined && s.sdkOnly !== sdk) continue;
      // runs need the demo server, which is built on SDK 1.x: they run in the 1.x project
      const runs = s.run && sdk === 1;
      test(`${s.where} compiles with sdk ${sdk}${runs ? ' and runs' : ''}`, async (ctx) => {
        const p = project(sdk, (why) => ctx.skip(why));
        expect(p.errors.get(fileOf(i)) ?? []).toEqual([]);
        if (!runs) return;
        // a runnable snippet writes its records beside it; each run starts from none
        await rm(path.join(p.dir, 'linkgate-records.jsonl'), { force: true });
        const ran = await runCommand(process.execPath, [`out/${fileOf(i)}.js`], p.dir, 120_000);
        expect(ran.code, lastLines(ran)).toBe(0);
        if (s.code.includes('jsonLinesSink(')) {
          const records = await readFile(path.join(p.dir, 'linkgate-records.jsonl'), 'utf8');
          expect(records.trim().split('\n').length).toBeGreaterThan(0);
        }
      });
    }
  }
});
