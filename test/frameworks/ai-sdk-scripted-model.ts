// An AI SDK language model that answers each turn from a script of tool calls (no network): the installed `ai`'s own
// MockLanguageModelV4, so `generateText` drives it as it would a provider's model.
import { importFrom } from './framework-package.ts';
import type { ToolCall } from './langchain-scripted-model.ts';

/** The scripted model; `doGenerateCalls` keeps the prompt of every turn it answered. */
export interface ScriptedAiModel {
  readonly doGenerateCalls: { prompt: unknown }[];
}

interface AiTest {
  MockLanguageModelV4: new (options: Record<string, unknown>) => ScriptedAiModel;
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/**
 * A mock model's `doGenerate` that makes each turn's tool calls of `script`, then answers `all read`; `usage` and
 * `finish` (a finish reason as the model spec writes it) are in the spec of the mock it drives.
 */
export function scriptedDoGenerate(
  script: readonly ToolCall[][],
  usage: unknown,
  finish: (reason: 'stop' | 'tool-calls') => unknown,
): () => Promise<Record<string, unknown>> {
  let turn = 0;
  return async () => {
    const calls = script[turn++];
    if (calls === undefined)
      return { content: [{ type: 'text', text: 'all read' }], finishReason: finish('stop'), usage, warnings: [] };
    return {
      content: calls.map((c) => ({
        type: 'tool-call',
        toolCallId: c.id,
        toolName: c.name,
        input: JSON.stringify(c.args),
      })),
      finishReason: finish('tool-calls'),
      usage,
      warnings: [],
    };
  };
}

/** A model of the `ai` installed in `dir` that makes each turn's tool calls of `script`, then answers `all read`. */
export async function scriptedAiModel(dir: string, script: readonly ToolCall[][]): Promise<ScriptedAiModel> {
  const { MockLanguageModelV4 } = await importFrom<AiTest>(dir, 'ai/test');
  // the v4 spec's finish reason: the unified one and the provider's own
  const finish = (reason: 'stop' | 'tool-calls') => ({
    unified: reason,
    raw: reason === 'stop' ? 'stop' : 'tool_calls',
  });
  return new MockLanguageModelV4({ doGenerate: scriptedDoGenerate(script, usage, finish) });
}

/** The tool results of the last prompt a model was sent (an AI SDK prompt; Mastra's mock gets one too), by call id. */
export function lastToolOutputs(model: ScriptedAiModel): Map<string, unknown> {
  const prompts = model.doGenerateCalls.map((c) => c.prompt);
  const outputs = new Map<string, unknown>();
  for (const message of (prompts[prompts.length - 1] ?? []) as { role: string; content: unknown }[])
    if (message.role === 'tool' && Array.isArray(message.content))
      for (const part of message.content as Record<string, unknown>[])
        if (part['type'] === 'tool-result') outputs.set(String(part['toolCallId']), part['output']);
  return outputs;
}
