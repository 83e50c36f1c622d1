// The scratch set-ups the doctor suites build: a home folder with a project inside, removed after each test, and the
// settings files written into them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/** Registers the clean-up and returns a maker of fresh `{ home, project }` folders named after `prefix`. */
export function useScratch(prefix: string): () => { home: string; project: string } {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const home = mkdtempSync(path.join(tmpdir(), prefix));
    dirs.push(home);
    const project = path.join(home, 'project');
    mkdirSync(project);
    return { home, project };
  };
}

/** Writes `value` (a string as is, anything else as JSON) to `file`, making its folder. */
export function write(file: string, value: string | object): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
}
