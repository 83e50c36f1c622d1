// A LangChain chat model that answers each turn from a script of tool calls (no network), built on the installed
// @langchain/core's own BaseChatModel so a LangGraph agent drives it as it would a provider's model.
import { importFrom } from './framework-package.ts';

/** A LangChain chat model class (its constructor). */
export type ChatModelClass = new (fields: Record<string, unknown>) => object;
/** One tool call the model makes. */
export type ToolCall = { id: string; name: string; args: Record<string, unknown> };

/** A chat model that answers each turn from a script of tool calls, and keeps every message list it was sent. */
export async function scriptedModelClass(dir: string) {
  const { BaseChatModel } = await importFrom<{ BaseChatModel: ChatModelClass }>(
    dir,
    '@langchain/core/language_models/chat_models',
  );
  const { AIMessage } = await importFrom<{ AIMessage: new (fields: Record<string, unknown>) => object }>(
    dir,
    '@langchain/core/messages',
  );
  return class ScriptedChatModel extends BaseChatModel {
    readonly seen: unknown[][] = [];
    private turn = 0;
    constructor(private readonly script: readonly ToolCall[][]) {
      super({});
    }
    _llmType(): string {
      return 'scripted';
    }
    bindTools(): this {
      return this;
    }
    async _generate(messages: unknown[]) {
      this.seen.push(messages);
      const calls = this.script[this.turn++];
      const message = new AIMessage({ content: calls === undefined ? 'all read' : '', tool_calls: calls ?? [] });
      return { generations: [{ text: '', message }] };
    }
  };
}
