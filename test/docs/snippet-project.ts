// A scratch project as a user makes one: the packed tarball installed from the npm registry (or npm's cache) beside
// strict TypeScript 5.9 and one MCP SDK, 1.x or 2.x, never both, plus the frameworks and libraries the docs' snippets
// import. Each snippet is a module of its own there; `tsc` checks them all at once and emits them, and a snippet
// marked `run` is run with node from the project folder, offline (its server is the package's own demo server).
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { realFrameworks } from '../real-host/real-parts.ts';

/** The SDK a project has: `@modelcontextprotocol/sdk` 1.x or `@modelcontextprotocol/client` 2.x. */
export type SdkMajor = 1 | 2;

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** The version of a package in the checkout's node_modules (the scratch project uses the one linkgate is tested with). */
export async function checkoutVersion(name: string): Promise<string> {
  const manifest = JSON.parse(await readFile(path.join(repoRoot, 'node_modules', name, 'package.json'), 'utf8'));
  return (manifest as { version: string }).version;
}

/** The packages of the project besides the tarball: TypeScript, Node's types, the one SDK and the snippets' imports. */
export async function projectPackages(sdk: SdkMajor): Promise<string[]> {
  const pinned = async (name: string) => `${name}@${await checkoutVersion(name)}`;
  const f = realFrameworks;
  const common = [
    await pinned('typescript'),
    await pinned('@types/node'),
    await pinned('@opentelemetry/api'),
    await pinned('@opentelemetry/sdk-trace-node'),
    // frameworks whose own MCP client is 2.x or their own: they go in both projects
    `${f.openaiAgents.name}@${f.openaiAgents.version}`,
    `${f.aiSdk.name}@${f.aiSdk.version}`,
    ...f.aiSdk.with,
  ];
  if (sdk === 2) return [...common, await pinned('@modelcontextprotocol/client')];
  // LangChain's adapters, Mastra and the Claude Agent SDK (a peer) depend on SDK 1.x themselves
  return [
    ...common,
    await pinned('@modelcontextprotocol/sdk'),
    `${f.claudeAgentSdk.name}@${f.claudeAgentSdk.version}`,
    `${f.langchain.name}@${f.langchain.version}`,
    `${f.mastra.name}@${f.mastra.version}`,
    ...f.mastra.with,
  ];
}

/** The scratch tsconfig: strict, Node's ES modules, the libraries' type files skipped as `tsc --init` does. */
export const snippetTsconfig = {
  compilerOptions: {
    strict: true,
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    skipLibCheck: true,
    types: ['node'],
    outDir: 'out',
    rootDir: 'snippets',
  },
  include: ['snippets/*.ts'],
};

/** A second tsconfig that checks linkgate's own type files, nothing skipped: each subpath imported by one module. */
export const typesTsconfig = {
  extends: './tsconfig.json',
  compilerOptions: { skipLibCheck: false, noEmit: true, rootDir: '.' },
  include: ['types-check/*.ts'],
};

/** The module `typesTsconfig` checks: every subpath of the package that has types. */
export const typesCheckModule = [
  "export * as linkgate from 'linkgate';",
  "export * as testing from 'linkgate/testing';",
  "export * as claudeAgentSdk from 'linkgate/claude-agent-sdk';",
  "export * as openaiAgents from 'linkgate/openai-agents';",
  "export * as aiSdk from 'linkgate/ai-sdk';",
  "export * as langchain from 'linkgate/langchain';",
  "export * as mastra from 'linkgate/mastra';",
  "export * as copilotSdk from 'linkgate/copilot-sdk';",
].join('\n');

/** A command's exit code and output. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command (no shell) with a timeout; never throws. */
export function runCommand(
  file: string,
  args: readonly string[],
  cwd: string,
  timeoutMs: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr: `${stderr}${e.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr: signal === null ? stderr : `${stderr}\nkilled by ${signal}` });
    });
  });
}

/** Makes the project folder and installs the tarball with the packages; the npm error when it cannot. */
export async function installProject(dir: string, tarball: string, sdk: SdkMajor): Promise<Ran> {
  await mkdir(path.join(dir, 'snippets'), { recursive: true });
  await writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: `snippets-sdk${sdk}`, version: '1.0.0', private: true, type: 'module' }, null, 2),
  );
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify(snippetTsconfig, null, 2));
  await writeFile(path.join(dir, 'tsconfig.types.json'), JSON.stringify(typesTsconfig, null, 2));
  await mkdir(path.join(dir, 'types-check'), { recursive: true });
  await writeFile(path.join(dir, 'types-check', 'linkgate.ts'), `${typesCheckModule}\n`);
  const packages = await projectPackages(sdk);
  const args = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball, ...packages];
  return runCommand('npm', args, dir, 10 * 60_000);
}

/** Packs the checkout (`prepack` builds dist/) into `dir`; the tarball's path, or the npm error. */
export async function packCheckout(dir: string): Promise<{ tarball: string } | { error: string }> {
  const packed = await runCommand('npm', ['pack', '--json', '--pack-destination', dir], repoRoot, 5 * 60_000);
  if (packed.code !== 0) return { error: packed.stderr.trim().split('\n').slice(-3).join(' | ') };
  const name = (JSON.parse(packed.stdout) as { filename: string }[])[0]?.filename;
  return name === undefined ? { error: 'npm pack named no tarball' } : { tarball: path.join(dir, name) };
}

/** The files a runnable snippet finds beside it: the policy it loads and the server it starts (the demo server). */
export async function writeRunFiles(dir: string): Promise<void> {
  const policy = await readFile(path.join(repoRoot, 'policies/default.yaml'), 'utf8');
  await writeFile(path.join(dir, 'policy.yaml'), policy);
  // `node docs-server.js` in a snippet: the package's demo server, started as its own file would be
  await writeFile(
    path.join(dir, 'docs-server.js'),
    "import { fileURLToPath } from 'node:url';\nprocess.argv[1] = fileURLToPath(import.meta.resolve('linkgate/demo-server'));\nawait import('linkgate/demo-server');\n",
  );
}
