// The hook, the resident server and the CLI keep no state in a module (a `let` or `var` at a module's top level): what
// an event keeps is held by its caller (the state, the context), so two events or two sessions in one process (the
// in-process hooks, the resident server) never share a value by accident. The memo of refused forms' build key
// (`refused-forms.ts`) was one: it is now held by `SessionState`. A constant is not state; a memo of something fixed for
// the process (linkgate's own version, read from its package) is named here with why it is safe.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', 'src');
// module-level bindings that are safe, each with why
const allowed = new Map([
  // linkgate's own version, read once from its package.json: the same for every caller for the life of the process
  ['cli/package-version.ts', ['cached']],
]);

function topLevelBindings(text: string): string[] {
  return [...text.matchAll(/^(?:export\s+)?(?:let|var)\s+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1] as string);
}

describe('module-level state', () => {
  it.each(['hook', 'resident', 'cli', 'doctor'])('src/%s keeps none but the named memos', (folder) => {
    const found: string[] = [];
    for (const file of readdirSync(join(root, folder)).filter((f) => f.endsWith('.ts'))) {
      const names = topLevelBindings(readFileSync(join(root, folder, file), 'utf8'));
      const safe = allowed.get(`${folder}/${file}`) ?? [];
      for (const name of names) if (!safe.includes(name)) found.push(`${folder}/${file}: ${name}`);
    }
    expect(found).toEqual([]);
  });
});
