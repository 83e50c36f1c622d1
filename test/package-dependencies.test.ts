import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

/** Package names `src/` imports (static `from '…'` and dynamic `import('…')`), node built-ins and relative paths aside. */
function importedPackages(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sourceFiles(path.join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)'([^'\n]+)'/g)) {
      const specifier = m[1] as string;
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      const parts = specifier.split('/');
      const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
      found.set(name, [...(found.get(name) ?? []), path.relative(root, file)]);
    }
  }
  return found;
}

describe('dependencies are declared as users need them', () => {
  test('every package src/ imports is a runtime or peer dependency', () => {
    const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]);
    const imported = importedPackages();
    expect(imported.size).toBeGreaterThan(3);
    const undeclared = [...imported].filter(([name]) => !declared.has(name));
    expect(undeclared).toEqual([]);
  });

  test('json-logic-js is only the reference the tests compare against: a dev dependency src/ never imports', () => {
    expect(pkg.dependencies['json-logic-js']).toBeUndefined();
    expect(pkg.devDependencies['json-logic-js']).toBeDefined();
    expect(importedPackages().has('json-logic-js')).toBe(false);
  });

  test('the MCP SDK is an optional peer accepting 1.x, kept in devDependencies for the tests', () => {
    expect(pkg.dependencies['@modelcontextprotocol/sdk']).toBeUndefined();
    expect(pkg.peerDependencies['@modelcontextprotocol/sdk']).toMatch(/^\^1\.\d+\.\d+$/);
    expect(pkg.peerDependenciesMeta['@modelcontextprotocol/sdk']?.optional).toBe(true);
    expect(pkg.devDependencies['@modelcontextprotocol/sdk']).toBeDefined();
    expect(pkg.devDependencies['@modelcontextprotocol/client']).toBeDefined();
  });
});
