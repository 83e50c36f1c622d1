// Each framework adapter is a subpath of the package (`linkgate/openai-agents`), built to dist/ with its types, and
// imports without the framework installed (the framework is an optional peer, written structurally in src/).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

// subpath, the src/frameworks module, the function it exports, and the framework it adapts (an optional peer)
const adapters = [
  ['./claude-agent-sdk', 'claude-agent-hooks', 'claudeAgentHooks', '@anthropic-ai/claude-agent-sdk'],
  ['./copilot-sdk', 'copilot-sdk-hooks', 'copilotSdkHooks', '@github/copilot-sdk'],
  ['./openai-agents', 'openai-agents-server', 'gatedAgentsServer', '@openai/agents'],
  ['./ai-sdk', 'ai-sdk-read-link', 'aiSdkReadLinkTool', 'ai'],
  ['./langchain', 'langchain-read-link', 'langchainReadLinkTool', '@langchain/core'],
  ['./mastra', 'mastra-tools', 'gatedMastraTools', '@mastra/core'],
] as const;

// modules the adapters share (the read-tool adapters re-export `gatedLinks` from one), not a subpath of their own
const shared = ['gated-links', 'link-ledger', 'lazy-gate'];
const sharedExports = { './ai-sdk': 'gatedLinks', './langchain': 'gatedLinks', './mastra': 'gatedLinks' } as const;

// a dist/ built before the adapters were added (or before dist/lib, the bundle they export) lacks them: build it again
beforeAll(() => {
  if (adapters.some(([, module]) => !existsSync(path.join(root, 'dist/lib/frameworks', `${module}.js`))))
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
}, 180_000);

describe('framework adapters as subpath exports', () => {
  test('every module of src/frameworks/ is one subpath, with its types', () => {
    const modules = readdirSync(path.join(root, 'src/frameworks')).map((f) => f.replace(/\.ts$/, ''));
    expect(modules.sort()).toEqual([...adapters.map(([, module]) => module), ...shared].sort());
    for (const [subpath, module] of adapters)
      expect(pkg.exports[subpath]).toEqual({
        types: `./dist/frameworks/${module}.d.ts`,
        default: `./dist/lib/frameworks/${module}.js`,
      });
  });

  test('each framework is an optional peer, never a dependency', () => {
    for (const [, , , framework] of adapters) {
      expect(pkg.peerDependencies[framework]).toBeDefined();
      expect(pkg.peerDependenciesMeta[framework]?.optional).toBe(true);
    }
  });

  test('the built subpath imports by the package name without the framework installed', async () => {
    for (const [subpath, , name] of adapters) {
      const loaded = (await import(`linkgate/${subpath.slice(2)}`)) as Record<string, unknown>;
      expect(typeof loaded[name]).toBe('function');
    }
    for (const [subpath, name] of Object.entries(sharedExports)) {
      const loaded = (await import(`linkgate/${subpath.slice(2)}`)) as Record<string, unknown>;
      expect(typeof loaded[name]).toBe('function');
    }
  });
});
