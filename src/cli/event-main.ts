// The entry of the event bundle (`dist/bin/linkgate-event.cjs`): the per-event commands only, as one CommonJS script
// that `cached-start.ts` compiles with V8's code cache (issue 42 item 2). Any other command goes to the full CLI.
import { processIo } from './cli-io.ts';
import { commandRunner } from './command-definition.ts';
import { perEventCommands } from './per-event-commands.ts';

/** True when `name` is a command the event bundle runs itself. */
export function isEventCommand(name: string | undefined): boolean {
  return name !== undefined && Object.hasOwn(perEventCommands, name);
}

/** Runs one per-event command (`hook`, `eval`) as this process; the exit code is set on `process.exitCode`. */
export async function runEvent(argv: readonly string[]): Promise<void> {
  const [name, ...rest] = argv;
  const load = isEventCommand(name) ? perEventCommands[name ?? ''] : undefined;
  if (load === undefined) {
    process.stderr.write(`linkgate: \`${String(name)}\` is not a per-event command\n`);
    process.exitCode = 2;
    return;
  }
  try {
    process.exitCode = await commandRunner(await load())(rest, processIo());
  } catch (error) {
    process.stderr.write(`linkgate: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  }
}
