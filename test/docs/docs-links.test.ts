import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const pages = [
  'README.md',
  ...readdirSync(path.join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

// github's heading anchors: lowercase, spaces to dashes, punctuation other than `-` and `_` dropped
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replaceAll(' ', '-');

describe('docs', () => {
  it.each(pages)('%s links only to files and headings that exist', (page) => {
    const text = readFileSync(path.join(repoRoot, page), 'utf8');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (target === undefined || /^[a-z]+:/i.test(target)) continue;
      const [file, hash] = target.split('#') as [string, string | undefined];
      const resolved =
        file === '' ? path.join(repoRoot, page) : path.resolve(path.dirname(path.join(repoRoot, page)), file);
      if (!existsSync(resolved)) {
        broken.push(target);
        continue;
      }
      if (hash !== undefined && resolved.endsWith('.md')) {
        const headings = [...readFileSync(resolved, 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) => anchor(m[1] ?? ''));
        if (!headings.includes(hash)) broken.push(target);
      }
    }
    expect(broken).toEqual([]);
  });

  it.each(pages)('%s documents the project itself, never files users do not have', (page) => {
    const text = readFileSync(path.join(repoRoot, page), 'utf8');
    expect(text).not.toMatch(/DESIGN/);
    expect(text).not.toContain('../shared');
  });

  it('the README links the docs', () => {
    expect(readFileSync(path.join(repoRoot, 'README.md'), 'utf8')).toContain('](docs/README.md)');
  });
});
