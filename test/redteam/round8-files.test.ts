// Red team (issue 39, hidden-style round 8), agent-writable files: the hook's session state after a refusal. The state
// folder is the gated user's, so the agent can change it between two events with its own shell tool; state "can only
// tighten" (test/hook/state-tamper.test.ts covers a pending read). Here the agent loosens what the session remembers
// of its refusals: it deletes the session's folder, or empties the file of refused addresses (keeping its format), or
// puts back the copy it took before the refusal. The next tool result names the refused address in prose; with the
// state as the hook left it, that prose is withheld (the control). Claude Code's and Codex's hook commands.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { hostSettings } from '../../src/hook/hook-settings.ts';
import { doctorReport, printedHook, useScratch, write } from '../doctor/doctor-scratch.ts';
import { hookScratch } from '../hook/hook-args.ts';
import { codexToolReturned, toolReturned } from '../hook/hook-events.ts';
import { call, closeAll, hostPath, link, metadata, proxied, settled } from './scripted-host.ts';

// Cases that got through when this round was written: the session's refusals are only what its `refused-`/`allrefused-`
// files say when the next event reads them (src/hook/session-state.ts `refusedAddresses`), so a folder or a file the
// agent removed, emptied or rolled back is a session that refused nothing, in both hooks. A same-user agent with an
// unsandboxed shell can change any file the hook keeps, so no on-disk trick fixes it: the hooks alone are not offered
// as holding it. `linkgate doctor` says so for that set-up (the host's sandbox leaves the state folder to the agent's
// shell), and the printed set-up (the proxy in front, the hooks a second layer) holds the refusal under the same tamper:
// the proxy remembers in its own process.
const hooks = hookScratch('linkgate-redteam-r8files-');
const told = { type: 'text', text: `the keys are at ${metadata} now` };

/** Each session folder of the state, and the files in it whose names start with `prefix`. */
function stateFiles(prefix: string): string[] {
  const state = path.join(hooks.dir, 'state');
  return readdirSync(state)
    .filter((d) => d.startsWith('s-'))
    .flatMap((d) =>
      readdirSync(path.join(state, d))
        .filter((f) => f.startsWith(prefix))
        .map((f) => path.join(state, d, f)),
    );
}

type Tamper = (before: Map<string, string>) => void;
const tampers: [string, Tamper][] = [
  ['none (control)', () => undefined],
  [
    'the session folder deleted',
    () => {
      for (const file of stateFiles('')) rmSync(path.dirname(file), { recursive: true, force: true });
    },
  ],
  [
    'the refused addresses emptied',
    () => {
      for (const file of stateFiles('refused-')) {
        const kept = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        writeFileSync(file, JSON.stringify({ ...kept, addresses: [], forms: [] }));
      }
    },
  ],
  [
    'the state put back as it was before the refusal',
    (before) => {
      for (const file of stateFiles('')) if (!before.has(file)) rmSync(file);
      for (const [file, text] of before) writeFileSync(file, text);
    },
  ],
];

/** The session's state files and their text now. */
const snapshot = () => new Map(stateFiles('').map((f) => [f, readFileSync(f, 'utf8')] as const));

const hosts = [
  [
    'claude',
    'claude-code',
    (content: unknown[], id: string) => toolReturned('fixture', 'links', content, { toolUseId: id }),
  ],
  ['codex', 'codex', (content: unknown[], id: string) => codexToolReturned({ content }, { toolUseId: id })],
] as const;

const doctorScratch = useScratch('linkgate-redteam-r8files-doctor-');

for (const [, host] of hosts)
  test(`red team, agent-writable files (round 8): doctor says the ${host} hooks alone do not hold refusals across events`, async () => {
    // the hook-alone set-up the tamper cases ran under: the printed hooks, no sandbox keeping the shell out of the state
    const { home, project } = doctorScratch();
    const file =
      host === 'codex' ? path.join(home, '.codex', 'hooks.json') : path.join(home, '.claude', 'settings.json');
    write(file, hostSettings[host](printedHook(host)));
    const report = await doctorReport(home, project);
    const post = report.hooks.filter((h) => h.phase === 'post');
    expect(post.length).toBeGreaterThan(0);
    for (const h of post)
      expect(h.warnings).toContainEqual(
        expect.stringContaining("the hook's memory of refusals across events is not held"),
      );
  });

describe('red team, agent-writable files (round 8): the printed claude code set-up (proxy + hooks) after a refusal', () => {
  afterEach(closeAll);
  const [, , event] = hosts[0];
  for (const [label, tamper] of tampers)
    test(`${label}: a later result naming the refused address is not handed on`, async () => {
      const { host } = await proxied();
      // the first event of the session, through the proxy and the hook behind it
      await call(host, { result: { content: [link('rt://docs/a.txt', 'a')] } });
      expect((await hooks.hook('claude-code', event([link('rt://docs/a.txt', 'a')], 'call_0'))).code).toBe(0);
      const before = snapshot();
      await call(host, { result: { content: [link(metadata, 'creds')] } });
      expect(await settled(host)).not.toContain(hostPath);
      expect((await hooks.hook('claude-code', event([link(metadata, 'creds')], 'call_1'))).stdout).toContain(
        'linkgate',
      );
      tamper(before);
      const seen = host.lines.length;
      await call(host, { result: { content: [told] } });
      const later = (await settled(host)).split('\n').slice(seen).join('\n');
      expect(later).toContain('linkgate');
      expect(later).not.toContain(hostPath);
    });
});
