// Acceptance check of the packed package (`npm run check:package`; .ci/run runs it after `npm test`): packs the
// project, installs the tarball into a fresh project from the local npm cache, runs the README's host example
// verbatim with SDK 1.x and 2.x, probes server-everything's embedded resource and runs every `--help` example.
// Prints one line per check and `check:package N passed, N failed[, N skipped]`; writes the counts to
// .check-package-result.json. Never reaches the network: a package missing from the cache skips its checks.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '..');
const counts = { passed: 0, failed: 0, skipped: 0 };
const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
  dependencies: Record<string, string>;
};
const sdk1 = installedVersion('@modelcontextprotocol/sdk');
const sdk2 = installedVersion('@modelcontextprotocol/client');

function installedVersion(name: string): string | null {
  try {
    return (
      JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }
    ).version;
  } catch {
    return null;
  }
}

function check(name: string, ok: boolean, detail = ''): void {
  if (ok) counts.passed += 1;
  else counts.failed += 1;
  process.stdout.write(`${ok ? 'pass' : 'FAIL'}  ${name}${detail === '' ? '' : `: ${detail}`}\n`);
}

function skip(name: string, why: string): void {
  counts.skipped += 1;
  process.stdout.write(`skip  ${name}: ${why}\n`);
}

// each command's limit only ends a hang: `npm pack` runs the whole build (tsc and three esbuild bundles), which came
// within seconds of a 180 s limit at a load of 19 on the 2-core CI machine
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  return spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
}

/** The README's host example, exactly as written: the `ts` block after the `example:host` marker. */
function readmeExample(): string {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const match = /<!-- example:host[^>]*-->\s*```ts[^\n]*\n([\s\S]*?)```/.exec(readme);
  if (match?.[1] === undefined) throw new Error('README.md has no `example:host` block');
  return match[1];
}

interface RecordLine {
  uri: string;
  verdict: string;
  decisions: { read: { reasons: { code: string }[] } | null };
}

function readRecords(file: string): RecordLine[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as RecordLine);
}

const codesOf = (r: RecordLine | undefined) => r?.decisions.read?.reasons.map((x) => x.code) ?? [];

const work = mkdtempSync(path.join(tmpdir(), 'linkgate-package-'));
try {
  // 1. pack: `prepack` builds dist/, so a fresh clone packs a working package
  const packed = run('npm', ['pack', '--json', '--pack-destination', work], repoRoot);
  const tarball = packed.status === 0 ? (JSON.parse(packed.stdout) as { filename: string }[])[0]?.filename : undefined;
  check(
    'npm pack (prepack builds dist/)',
    tarball !== undefined,
    packed.status === 0 ? '' : packed.stderr.trim().split('\n').at(-1),
  );
  if (tarball === undefined) throw new Error('stop');
  const files = (JSON.parse(packed.stdout) as { files: { path: string }[] }[])[0]?.files.map((f) => f.path) ?? [];
  check(
    'the tarball ships the bundles, the types, policies/ and schemas/',
    [
      'dist/lib/index.js',
      'dist/lib/demo/demo-server.js',
      'dist/bin/linkgate.js',
      'dist/index.d.ts',
      'policies/default.yaml',
      'schemas/policy.schema.json',
    ].every((f) => files.includes(f)),
  );
  // tsc's JavaScript (dist/**/*.js outside the bundles) is what the bench and the clone's examples run; no entry of
  // the package names it, so a second copy of the code in the tarball would only be what a user's tools could load
  const unbundled = files.filter((f) => f.startsWith('dist/') && !/^dist\/(lib|bin)\//.test(f) && !f.endsWith('.d.ts'));
  check(
    'the tarball ships no tsc JavaScript beside the bundles',
    unbundled.length === 0,
    unbundled.slice(0, 3).join(' '),
  );

  // 2. a fresh project, CommonJS by default as `npm init -y` makes it: the example is `host.mjs`
  const project = path.join(work, 'host');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'host', version: '1.0.0', private: true }, null, 2),
  );
  const install = (...specs: string[]) =>
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn', ...specs], project);
  const base = install(
    path.join(work, tarball),
    `@modelcontextprotocol/sdk@${sdk1 ?? pkg.dependencies['@modelcontextprotocol/sdk']}`,
  );
  if (base.status !== 0) {
    skip(
      'install the tarball with the sdk',
      `npm install failed (offline cache?): ${base.stderr.trim().split('\n').at(-1)}`,
    );
    throw new Error('stop');
  }
  const warnings = base.stderr.split('\n').filter((l) => /\bwarn\b/i.test(l));
  check('a clean install prints no warnings', warnings.length === 0, warnings.join(' | '));

  // 3. the README host example, verbatim, with SDK 1.x
  const example = readmeExample();
  writeFileSync(path.join(project, 'host.mjs'), example);
  const host = run(process.execPath, ['host.mjs'], project);
  check(
    'README host example exits 0 (sdk 1.x)',
    host.status === 0,
    host.stderr.trim().split('\n').slice(-3).join(' | '),
  );
  const records = host.status === 0 ? readRecords(path.join(project, 'linkgate-records.jsonl')) : [];
  const oversizeAt = records.findIndex((r) => r.uri === 'demo://linkgate/oversize.png');
  const oversize = records[oversizeAt];
  check(
    'oversize link is `link-only content.too-large`',
    oversize?.verdict === 'link-only' && codesOf(oversize).includes('content.too-large'),
    `${oversize?.verdict} ${codesOf(oversize).join(',')}`,
  );
  const later = oversizeAt === -1 ? [] : records.slice(oversizeAt + 1);
  check(
    'links after the oversize answer still complete',
    later.length > 0 && later.every((r) => r.decisions.read !== null),
    later.map((r) => `${r.uri} ${r.verdict}`).join(', '),
  );

  // 3b. the testing subpath resolves from the installed tarball, as a host's own tests import it
  const testing = run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const t = await import('linkgate/testing'); const s = t.memorySink(); await s.close(); console.log(Object.keys(t).sort().join(','), s.closed)",
    ],
    project,
  );
  check(
    '`linkgate/testing` resolves from the installed tarball',
    testing.status === 0 &&
      testing.stdout.trim() === 'memorySink,recordViolations,resourceNotFound,scriptedReader true',
    (testing.stdout + testing.stderr).trim().split('\n').slice(-2).join(' | '),
  );

  // 4. the same example with SDK 2.x: only the two SDK imports change
  if (sdk2 === null)
    skip('README host example with sdk 2.x', '@modelcontextprotocol/client is not installed in the checkout');
  else {
    const v2 = install(`@modelcontextprotocol/client@${sdk2}`);
    if (v2.status !== 0)
      skip(
        'README host example with sdk 2.x',
        `npm install failed (offline cache?): ${v2.stderr.trim().split('\n').at(-1)}`,
      );
    else {
      const example2 = example
        .replace("'@modelcontextprotocol/sdk/client/index.js'", "'@modelcontextprotocol/client'")
        .replace("'@modelcontextprotocol/sdk/client/stdio.js'", "'@modelcontextprotocol/client/stdio'")
        .replace("'linkgate-records.jsonl'", "'linkgate-records-2.jsonl'");
      writeFileSync(path.join(project, 'host-2.mjs'), example2);
      const host2 = run(process.execPath, ['host-2.mjs'], project);
      check(
        `README host example exits 0 (sdk ${sdk2})`,
        host2.status === 0,
        host2.stderr.trim().split('\n').slice(-3).join(' | '),
      );
      const records2 = host2.status === 0 ? readRecords(path.join(project, 'linkgate-records-2.jsonl')) : [];
      const input = records2.find((r) => r.uri === 'demo://linkgate/needs-input');
      check(
        'sdk 2.x: input_required link is `unverifiable read.input-required`',
        input?.verdict === 'unverifiable' && codesOf(input).join(',') === 'read.input-required',
        `${input?.verdict} ${codesOf(input).join(',')}`,
      );
      const over2 = records2.find((r) => r.uri === 'demo://linkgate/oversize.png');
      check(
        'sdk 2.x: oversize link is `link-only content.too-large`',
        over2?.verdict === 'link-only' && codesOf(over2).includes('content.too-large'),
      );
    }
  }

  // 5. the installed CLI probes server-everything's embedded resource
  const bin = path.join(project, 'node_modules/.bin');
  const everything = path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
  const probe = run(
    path.join(bin, 'linkgate'),
    [
      'probe',
      '--policy',
      'node_modules/linkgate/policies/default.yaml',
      '--json',
      '--tool',
      'get-resource-reference',
      '--',
      process.execPath,
      everything,
      'stdio',
    ],
    project,
  );
  const lines =
    probe.status === 0
      ? probe.stdout
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as Record<string, unknown>)
      : [];
  check(
    'probe --json --tool get-resource-reference prints a record for the embedded resource',
    lines.some((l) => l['kind'] === 'embedded' && typeof l['verdict'] === 'string'),
    probe.stderr.trim().split('\n').at(-1),
  );

  // 6. every command's --help example, pasted into a shell in the installed package's folder
  const help = run(path.join(bin, 'linkgate'), ['--help'], project);
  const names = [...help.stdout.matchAll(/^ {2}([a-z-]+) {2}/gm)].map((m) => m[1] as string);
  check('linkgate --help lists the commands', names.length > 0);
  const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}`, NO_COLOR: '1' };
  for (const name of names) {
    const text = run(path.join(bin, 'linkgate'), [name, '--help'], project).stdout;
    const example = /\nexample[^\n]*:\n {2}(.+)\n/.exec(text)?.[1];
    if (example === undefined) {
      check(`\`linkgate ${name} --help\` has an example`, false);
      continue;
    }
    const pasted = run('bash', ['-o', 'pipefail', '-c', example], path.join(project, 'node_modules/linkgate'), env);
    check(
      `\`linkgate ${name} --help\` example runs`,
      pasted.status === 0,
      pasted.status === 0 ? '' : `${example} → exit ${pasted.status}: ${pasted.stderr.trim().split('\n').at(-1)}`,
    );
  }
} catch (error) {
  if (!(error instanceof Error && error.message === 'stop')) {
    check('check:package ran to the end', false, error instanceof Error ? error.message : String(error));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
writeFileSync(path.join(repoRoot, '.check-package-result.json'), `${JSON.stringify(counts)}\n`);
process.stdout.write(
  `check:package ${counts.passed} passed, ${counts.failed} failed${counts.skipped > 0 ? `, ${counts.skipped} skipped` : ''}\n`,
);
process.exitCode = counts.failed > 0 ? 1 : 0;
