import type { CommandDefinition, OptionDefinitions } from './command-definition.ts';

type AnyCommand = CommandDefinition<OptionDefinitions>;

/**
 * The commands a host starts once per event or per line load only their own module: loading every command's
 * definition (and so its imports: the probe's SDK client, the reviewer's reporters) would double their start-up.
 * They are the same definitions `commands.ts` lists (a test holds them equal); the event bundle
 * (`dist/bin/linkgate-event.cjs`, started through the code cache) holds these and nothing else.
 */
export const perEventCommands: Readonly<Record<string, () => Promise<AnyCommand>>> = {
  hook: async () => (await import('./hook-command.ts')).hookDefinition as unknown as AnyCommand,
  eval: async () => (await import('./eval-command.ts')).evalDefinition as unknown as AnyCommand,
};
