// The parts of the real @openai/agents package the framework tests drive, typed as far as they use them, loaded
// from the test cache where the framework suite installed it.
import { importFrom } from './framework-package.ts';

/** `@openai/agents`: the agent, its runner and the tool maker. */
export interface Agents {
  Agent: new (config: Record<string, unknown>) => unknown;
  run(agent: unknown, input: string, options?: Record<string, unknown>): Promise<{ finalOutput?: unknown }>;
  tool(options: Record<string, unknown>): unknown;
}

/** `@openai/agents/testing`: the framework's own scripted model and its step makers. */
export interface AgentsTesting {
  ScriptedModel: new (
    steps: unknown[],
  ) => { calls: readonly { request: { input: unknown } }[]; assertComplete(): void };
  functionCall(name: string, args: Record<string, unknown>, options: { callId: string }): unknown;
  assistantMessage(text: string): unknown;
}

/** The framework and its testing module, from the suite's install folder `dir`. */
export async function importAgents(dir: string): Promise<{ agents: Agents; testing: AgentsTesting }> {
  const agents = await importFrom<Agents>(dir, '@openai/agents');
  const testing = await importFrom<AgentsTesting>(dir, '@openai/agents/testing');
  return { agents, testing };
}
