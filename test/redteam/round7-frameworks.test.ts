// Red team (issue 39, hidden-style round 7), the in-process framework adapters on the session's later results: the
// Claude Agent SDK hooks with their default memory state (no state folder: a path the command hook never takes) and
// the Copilot SDK hooks, each after a tool result whose link was refused: a later result naming the address in prose,
// in a `resource_link`'s name of an allowed link, and (Copilot) in the text the Copilot built beside its items. Each
// callback is called as the SDK calls it (the event shapes the SDKs hand them, test/frameworks).
import path from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { claudeAgentHooks } from '../../src/frameworks/claude-agent-hooks.ts';
import { copilotSdkHooks } from '../../src/frameworks/copilot-sdk-hooks.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { toolReturned } from '../hook/hook-events.ts';
import { closeAll, hostPath, link, metadata, policyFile, scratch } from './scripted-host.ts';
import { caseKeys, prose, signal, told } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

const sink = () => callbackSink(() => undefined);

// later results naming the address of the link refused before
const later: [string, unknown[]][] = [
  ['prose', [prose(told)]],
  ['an allowed link named by the address', [link('rt://docs/a.txt', `mirror of ${metadata}`)]],
];

describe('red team, frameworks (round 7): Claude Agent SDK hooks with the memory state', () => {
  for (const [label, content] of later)
    it(`agent ${label}`)(`after the refusal, ${label} is not handed on`, async () => {
      const hooks = claudeAgentHooks({ policy: policyFile, records: sink() });
      const post = hooks.PostToolUse[0]?.hooks[0];
      const first = toolReturned('fixture', 'links', [link(metadata, 'creds')], { toolUseId: 'toolu_1' });
      expect(JSON.stringify(await post?.(first, 'toolu_1', signal))).toContain('linkgate refused the link');
      const second = toolReturned('fixture', 'notes', content, { toolUseId: 'toolu_2' });
      const answer = await post?.(second, 'toolu_2', signal);
      // no answer: the SDK hands the model the tool result as it came
      const handed = answer === undefined || Object.keys(answer).length === 0 ? content : answer;
      expect(JSON.stringify(handed)).not.toContain(hostPath);
    });
});

const copilotPost = (toolName: string, contents: unknown[], text: string) => ({
  sessionId: 's1',
  timestamp: new Date(),
  workingDirectory: '/tmp',
  toolName,
  toolArgs: {},
  toolResult: { textResultForLlm: text, resultType: 'success', contents },
});

describe('red team, frameworks (round 7): Copilot SDK hooks', () => {
  for (const [label, content] of later)
    it(`copilot ${label}`)(`after the refusal, ${label} is not handed on`, async () => {
      const hooks = copilotSdkHooks({
        policy: policyFile,
        records: sink(),
        stateDir: path.join(await scratch(), 'state'),
      });
      const invocation = { sessionId: 's1' };
      await hooks.onPreMcpToolCall(
        { sessionId: 's1', serverName: 'docs', toolName: 'links', arguments: {} },
        invocation,
      );
      const first = await hooks.onPostToolUse(copilotPost('docs-links', [link(metadata, 'creds')], ''), invocation);
      expect(first?.modifiedResult.textResultForLlm).toContain('linkgate refused the link');
      await hooks.onPreMcpToolCall(
        { sessionId: 's1', serverName: 'docs', toolName: 'notes', arguments: {} },
        invocation,
      );
      const text = content.map((c) => (c as { text?: string }).text ?? '').join('\n');
      const original = copilotPost('docs-notes', content, text);
      const answer = await hooks.onPostToolUse(original, invocation);
      expect(JSON.stringify(answer?.modifiedResult ?? original.toolResult)).not.toContain(hostPath);
    });
});
