import path from 'node:path';
import { repoRoot } from '../sdk/fake-gate.ts';

/** The command line of server-everything over stdio. */
export const everythingServer = [
  process.execPath,
  path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
  'stdio',
];

/** The command line of the demo server, run from source. */
export const demoServer = [process.execPath, '--import', 'tsx', path.join(repoRoot, 'src/demo/demo-server.ts')];

/** A policy file of the repository. */
export const shippedPolicy = (name: string) => path.join(repoRoot, 'policies', `${name}.yaml`);

/** The command line of `linkgate proxy` (run from source) with `options` in front of `-- server…`. */
export function proxyCommandLine(options: readonly string[], server: readonly string[]): string[] {
  return [
    process.execPath,
    '--import',
    'tsx',
    path.join(repoRoot, 'src/cli/main.ts'),
    'proxy',
    ...options,
    '--',
    ...server,
  ];
}

/** The process environment without undefined values, for a child that should see what the test sees. */
export function processEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return { ...env, ...extra };
}
