// Issue 40 item 1: one description per host. Every host event name and tool name (and the MCP tool-name patterns)
// is written in src/hosts/ only; the hook, `--print-config`, the framework adapters and doctor read it from there.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { hostDescriptions } from '../../src/hosts/hosts.ts';

const src = path.resolve(import.meta.dirname, '../../src');

// a label, not host knowledge: the records of every host's web fetch name the tool `WebFetch` (hook-pre-read.ts)
const allowed: readonly { file: string; text: string }[] = [{ file: 'hook/hook-pre-read.ts', text: 'WebFetch' }];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

// the text of every string, template and regular expression literal of a file (comments and names are left out)
function literals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteralLike(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isRegularExpressionLiteral(node)
    ) {
      // an import path is no knowledge
      if (!ts.isImportDeclaration(node.parent) && !ts.isExportDeclaration(node.parent)) found.push(node.text);
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

// what the descriptions know: event names, tool names, the patterns of MCP tool names
function hostWords(): { word: string; pattern: RegExp }[] {
  const words = new Set<string>();
  for (const host of Object.values(hostDescriptions)) {
    for (const event of [...Object.keys(host.events), ...Object.keys(host.otherEvents ?? {})]) words.add(event);
    const { read, list, listDir, webFetch, everyMcpTool } = host.tools;
    for (const name of [read, list, listDir, webFetch, everyMcpTool]) if (name !== undefined) words.add(name);
  }
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [
    ...[...words].map((word) => ({ word, pattern: new RegExp(`(?<![A-Za-z0-9_])${escape(word)}(?![A-Za-z0-9_])`) })),
    // the MCP tool-name prefixes, whatever pattern they are written in
    { word: 'mcp__', pattern: /\bmcp__/ },
    { word: 'MCP:', pattern: /\bMCP:/ },
  ];
}

describe('host knowledge is written once, in src/hosts/', () => {
  test('no string literal outside src/hosts/ names a host event, tool or MCP tool-name pattern', () => {
    const words = hostWords();
    // the check knows what it looks for: the events and tools of all four hosts
    expect(words.map((w) => w.word)).toEqual(
      expect.arrayContaining(['PreToolUse', 'AfterTool', 'beforeMCPExecution', 'read_mcp_resource', 'WebFetch']),
    );
    const found: string[] = [];
    for (const file of sourceFiles(src)) {
      const relative = path.relative(src, file).split(path.sep).join('/');
      if (relative.startsWith('hosts/')) continue;
      for (const text of literals(file))
        for (const { word, pattern } of words)
          if (pattern.test(text) && !allowed.some((a) => a.file === relative && a.text === text))
            found.push(`${relative}: ${JSON.stringify(text)} names \`${word}\``);
    }
    expect(found).toEqual([]);
  });

  test('the check finds a planted copy', () => {
    const words = hostWords();
    const planted = ["const phases = { BeforeTool: 'pre' }", "if (name === 'read_mcp_resource')", '/^mcp__(.+?)__/'];
    for (const text of planted)
      expect(
        words.some((w) => w.pattern.test(text)),
        text,
      ).toBe(true);
    expect(words.some((w) => w.pattern.test('mcp_servers'))).toBe(false);
  });
});
