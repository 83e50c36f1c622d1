#!/usr/bin/env node
import { processIo, type CliIo } from './cli-io.ts';
import { commandRunner, type CommandDefinition, type OptionDefinitions } from './command-definition.ts';
import { didYouMean } from './did-you-mean.ts';
import { isMainModule } from './is-main-module.ts';
import { packageVersion } from './package-version.ts';
import { perEventCommands } from './per-event-commands.ts';

type AnyCommand = CommandDefinition<OptionDefinitions>;

export { perEventCommands } from './per-event-commands.ts';

async function allCommands(): Promise<readonly AnyCommand[]> {
  return (await import('./commands.ts')).commands;
}

/** The text of `linkgate --help`: the command list. */
export function mainHelp(commands: readonly AnyCommand[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `usage: linkgate <command> [options]\n\ncommands:\n${lines.join('\n')}\n\nrun \`linkgate <command> --help\` for a command's options and an example\n`;
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  const direct = name !== undefined && Object.hasOwn(perEventCommands, name) ? perEventCommands[name] : undefined;
  if (direct !== undefined) return commandRunner(await direct())(rest, io);
  const commands = await allCommands();
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(mainHelp(commands));
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === 'version') {
    io.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (command === undefined) {
    const best = didYouMean(
      name,
      commands.map((c) => c.name),
    );
    io.stderr.write(
      `linkgate: unknown command \`${name}\`${best === null ? '' : `; did you mean \`${best}\`?`}\n${mainHelp(commands)}`,
    );
    return 2;
  }
  return commandRunner(command)(rest, io);
}

/** Runs the CLI as this process: `argv` (without node and script) in, the exit code set on `process.exitCode`. */
export function runAsProcess(argv: readonly string[]): Promise<void> {
  // a reader that stops early (`| head`) closes stdout: the command still cleans up (the probe kills its server), then
  // ends quietly, as Unix tools do
  const closedPipe = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'EPIPE';
  process.stdout.on('error', (error) => {
    if (!closedPipe(error)) throw error;
  });
  return main(argv, processIo()).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      if (!closedPipe(error))
        process.stderr.write(`linkgate: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}

if (isMainModule(import.meta.url)) void runAsProcess(process.argv.slice(2));
