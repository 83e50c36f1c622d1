// Red team (issue 39, hidden-style round 15), the in-process hooks as docs/frameworks.md pastes them
// (`claudeAgentHooks({ policy: 'policy.yaml', records: sink })`, `copilotSdkHooks({ policy: 'policy.yaml', … })`), in a
// folder where that policy file is missing or is not a policy: the SDKs' own default for a failed hook is to go
// ahead, so every event must be answered closed (a read denied, a web fetch denied, a result withheld). And what the
// SDKs hand their hooks beside the items: the Copilot's `binaryResultsForLlm` holding a text/plain binary no item
// stands for (naming the metadata address), the Claude Agent SDK's post event with its result under no member it
// reads. Controls: the same hooks over the shipped policy let an ordinary read and an ordinary result through.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { readRequested, toolReturned, webFetch } from '../hook/hook-events.ts';
import { doc } from './round13-hosts.ts';
import { agentCall, agentHooks, copilotHooks } from './round15-fronts.ts';
import { hostPath, link, metadata } from './scripted-host.ts';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'linkgate-redteam-r15adapters-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The policy file as the README names it, in the scratch folder: missing, or holding `text`. */
const policyAt = (text?: string) => {
  const file = path.join(dir, 'policy.yaml');
  if (text !== undefined) writeFileSync(file, text);
  return file;
};
const denies = (answer: unknown) => JSON.stringify(answer).includes('"permissionDecision":"deny"');
const withholds = (answer: unknown) =>
  /"decision":"block"|linkgate withheld/.test(JSON.stringify(answer)) && !JSON.stringify(answer).includes(hostPath);

// [label, the policy file the hooks are given]
const broken: [string, () => string][] = [
  ['missing', () => policyAt()],
  ['not a policy (yaml of another tool)', () => policyAt('hooks:\n  PreToolUse: []\n')],
  ['not yaml at all', () => policyAt('{{{ : : :')],
];

describe('red team, adapters (round 15): the Claude Agent SDK hooks as pasted, the policy file broken', () => {
  for (const [label, file] of broken) {
    test(`${label}: a read of an ordinary uri is denied, a web fetch denied, a result withheld`, async () => {
      const hooks = await agentHooks(file());
      expect(denies(await agentCall(hooks, readRequested('fixture', doc)))).toBe(true);
      expect(denies(await agentCall(hooks, webFetch(metadata)))).toBe(true);
      const post = toolReturned('fixture', 'links', [link(metadata, 'creds'), link(doc, 'a')]);
      expect(withholds(await agentCall(hooks, post))).toBe(true);
    });
  }
  test('the shipped policy, a post event with its result under no member the hook reads: withheld', async () => {
    const { tool_response: response, ...event } = toolReturned('fixture', 'links', [link(metadata, 'creds')]);
    const answer = await agentCall(await agentHooks(), { ...event, tool_result: response });
    expect(withholds(answer)).toBe(true);
  });
  test('control: the shipped policy: an ordinary read goes ahead, an ordinary result is left alone', async () => {
    const hooks = await agentHooks();
    expect(await agentCall(hooks, readRequested('fixture', doc))).toEqual({});
    expect(await agentCall(hooks, toolReturned('fixture', 'links', [link(doc, 'a')]))).toEqual({});
  });
});

describe('red team, adapters (round 15): the Copilot SDK hooks as pasted, the policy file broken', () => {
  const fetch = { sessionId: 's1', timestamp: 1, cwd: '/tmp', toolName: 'web_fetch', toolArgs: { url: doc } };
  const post = (toolResult: Record<string, unknown>) => ({
    sessionId: 's1',
    timestamp: new Date(),
    workingDirectory: '/tmp',
    toolName: 'docs-links',
    toolArgs: {},
    toolResult: { textResultForLlm: 'ok', resultType: 'success', ...toolResult },
  });
  for (const [label, file] of broken) {
    test(`${label}: a web fetch of an ordinary url is denied, a result withheld`, async () => {
      const hooks = await copilotHooks(dir, file());
      expect(await hooks.onPreToolUse(fetch, { sessionId: 's1' })).toMatchObject({ permissionDecision: 'deny' });
      const answer = await hooks.onPostToolUse(post({ contents: [link(metadata, 'creds')] }), { sessionId: 's1' });
      expect(withholds(answer)).toBe(true);
    });
  }
  test('the shipped policy: a text/plain binary no item stands for, naming the metadata address: withheld', async () => {
    const hooks = await copilotHooks(dir);
    const binary = {
      type: 'resource',
      mimeType: 'text/plain',
      data: Buffer.from(`keys at ${metadata}`).toString('base64'),
    };
    const answer = await hooks.onPostToolUse(
      post({ contents: [{ type: 'text', text: 'ok' }], binaryResultsForLlm: [binary] }),
      { sessionId: 's1' },
    );
    expect(JSON.stringify(answer?.modifiedResult.binaryResultsForLlm ?? [binary])).toBe('[]');
  });
  test('control: the shipped policy: an ordinary web fetch goes ahead, an ordinary result is left alone', async () => {
    const hooks = await copilotHooks(dir);
    expect(await hooks.onPreToolUse(fetch, { sessionId: 's1' })).toBeUndefined();
    expect(await hooks.onPostToolUse(post({ contents: [link(doc, 'a')] }), { sessionId: 's1' })).toBeUndefined();
  });
});
