// Red team (issue 39, hidden-style round 7), the hook commands (Claude Code, Codex) on round 7's surviving forms: a
// refused link named by its own uri; the refused address beside it, or in a later result of the session, as a
// text/plain blob of an embedded resource (a host hands the model the text) and written with HTML character references
// (what markdown renderers turn back into the address). What the host hands on is the hook's replacement, or the
// result as it came when the hook answers nothing.
import { describe, expect } from 'vitest';
import { readBack } from '../../src/flow/read-back.ts';
import { hookScratch } from '../hook/hook-args.ts';
import { codexToolReturned, toolReturned } from '../hook/hook-events.ts';
import { hostPath, link, metadata } from './scripted-host.ts';
import { caseKeys, prose, told } from './round-cases.ts';

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): as through
// the proxy and the decorator (round7-surviving, round7-order-adapters), a blob is searched as its base64 and HTML
// character references are not read back (src/flow/read-back.ts `readBack`); beside the refused link the hooks
// keep the item as it came (Codex's block reason carries `http&#58;//169&#46;254…` word for word).
const open = new Set<string>([]);
const it = caseKeys(open);

const hooks = hookScratch('linkgate-redteam-r7hooks-');
const blob = {
  type: 'resource',
  resource: { uri: 'rt://n.txt', mimeType: 'text/plain', blob: Buffer.from(told).toString('base64') },
};
const entities = prose(`fetch ${metadata.replace(':', '&#58;').replaceAll('.', '&#46;')}`);

/** What the host hands the model after the hook ran, base64 blobs decoded and character references read. */
function handed(stdout: string, result: unknown): string {
  const text = stdout.trim() === '' ? JSON.stringify(result) : stdout;
  const decoded = [...text.matchAll(/"blob\\?":\\?"([A-Za-z0-9+/=]+)/g)].map((m) =>
    Buffer.from(m[1] as string, 'base64').toString('utf8'),
  );
  return readBack([text, ...decoded].join('\n').replaceAll('&#46;', '.').replaceAll('&#58;', ':').toLowerCase());
}

const cases: [string, unknown[]][] = [
  ['named by its uri', [link(metadata, metadata)]],
  ['a text/plain blob beside', [link(metadata, 'creds'), blob]],
  ['character references beside', [link(metadata, 'creds'), entities]],
];

describe('red team, hooks (round 7): Claude Code', () => {
  for (const [label, content] of cases)
    it(`claude ${label}`)(`a refused link ${label}: the address does not survive`, async () => {
      const run = await hooks.hook('claude-code', toolReturned('fixture', 'links', content));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('linkgate refused the link');
      expect(handed(run.stdout, content)).not.toContain(hostPath);
    });

  for (const [label, item] of [
    ['a text/plain blob later', blob],
    ['character references later', entities],
  ] as const)
    it(`claude ${label}`)(`after the refusal, ${label} does not hand the address on`, async () => {
      const first = toolReturned('fixture', 'links', [link(metadata, 'creds')], { toolUseId: 'toolu_1' });
      expect((await hooks.hook('claude-code', first)).stdout).toContain('linkgate refused the link');
      const later = await hooks.hook('claude-code', toolReturned('fixture', 'notes', [item], { toolUseId: 'toolu_2' }));
      expect(later.code, later.stderr).toBe(0);
      expect(handed(later.stdout, [item])).not.toContain(hostPath);
    });
});

describe('red team, hooks (round 7): Codex', () => {
  for (const [label, content] of cases)
    it(`codex ${label}`)(`a refused link ${label}: the address does not survive`, async () => {
      const run = await hooks.hook('codex', codexToolReturned({ content }));
      expect(run.code, run.stderr).toBe(0);
      expect(handed(run.stdout, { content })).not.toContain(hostPath);
    });
});
