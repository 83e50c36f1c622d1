import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseProxyArgs } from '../../src/proxy/proxy-options.ts';
import { repoRoot } from '../sdk/fake-gate.ts';

const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const section = readme.slice(
  readme.indexOf('## Putting the gate in front of any server'),
  readme.indexOf('## Writing a policy'),
);

function blocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1] as string);
}

// every linkgate command line a block configures: the arguments after `linkgate` or the installed bundle's path
function linkgateArgs(args: readonly string[]): string[] {
  const at = args.findIndex((a) => a === 'linkgate' || a.endsWith('/linkgate/dist/bin/linkgate.js'));
  return at === -1 ? [] : args.slice(at + 1);
}

describe('the README’s host set-ups are command lines the proxy accepts', () => {
  const configs = blocks(section, 'json').map(
    (b) => JSON.parse(b) as Record<string, Record<string, { args: string[] }>>,
  );
  const lines: string[][] = [
    ...configs.flatMap((c) => Object.values(c['mcpServers'] ?? c['servers'] ?? {}).map((s) => linkgateArgs(s.args))),
    ...blocks(section, 'toml').map((b) => linkgateArgs(JSON.parse(/args = (\[.*\])/.exec(b)?.[1] ?? '[]') as string[])),
    ...blocks(section, 'sh').map((b) =>
      linkgateArgs(
        b
          .trim()
          .split(/\s+/)
          .slice(b.trim().split(/\s+/).indexOf('--') + 1),
      ),
    ),
  ];

  // claude mcp add, .mcp.json, the shared mcpServers block, .vscode/mcp.json, config.toml, a remote server
  test('every block is found', () => {
    expect(lines).toHaveLength(6);
  });

  test.each(lines.map((l) => [l.join(' '), l]))('%s', (_, args) => {
    expect(args[0]).toBe('proxy');
    const options = parseProxyArgs(args.slice(1), { MCP_TOKEN: 'token' });
    expect(options).not.toBe('help');
    if (options === 'help') return;
    if (options.upstream.kind === 'command')
      expect([options.upstream.command, ...options.upstream.args]).toEqual([
        'npx',
        '-y',
        '@modelcontextprotocol/server-everything',
      ]);
    else expect(options.upstream.headers).toEqual([['Authorization', 'Bearer token']]);
  });
});
