// The hook is one process per host event: what `linkgate hook` imports statically is loaded at every event. The YAML
// parser and the schema validator are needed only when a policy is parsed (a cache miss, or a reviewed policy), so no
// static import chain from the hook command may reach them (issue 36: the allowed-signers variable's name alone once
// pulled them in through review-options.ts).
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// the static (value) imports of one source file: `import … from '…'` and `export … from '…'`, not `import type`
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'([^']+)';/gms)) found.push(m[1] ?? '');
  return found;
}

// every package a static import chain from `entry` reaches, and the chain that reached each
function reachedPackages(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) walk(resolve(dirname(file), spec), [...chain, spec]);
      else if (!spec.startsWith('node:') && !packages.has(spec)) packages.set(spec, [...chain, spec]);
    }
  };
  walk(resolve('src/cli/hook-command.ts'), [entry]);
  return packages;
}

describe('linkgate hook startup', () => {
  it('reaches neither yaml nor zod through a static import', () => {
    const packages = reachedPackages('src/cli/hook-command.ts');
    expect(packages.get('yaml')).toBeUndefined();
    expect(packages.get('zod')).toBeUndefined();
  });
});
