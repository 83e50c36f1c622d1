#!/usr/bin/env node
import { processIo, type CliIo } from './cli-io.ts';
import { commandRunner } from './command-definition.ts';
import { commands } from './commands.ts';
import { didYouMean } from '../did-you-mean.ts';
import { isMainModule } from './is-main-module.ts';
import { packageVersion } from '../package-version.ts';

/** The text of `linkgate --help`: the command list. */
export function mainHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `usage: linkgate <command> [options]\n\ncommands:\n${lines.join('\n')}\n\nrun \`linkgate <command> --help\` for a command's options and an example\n`;
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(mainHelp());
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
      `linkgate: unknown command \`${name}\`${best === null ? '' : `; did you mean \`${best}\`?`}\n${mainHelp()}`,
    );
    return 2;
  }
  return commandRunner(command)(rest, io);
}

if (isMainModule(import.meta.url)) {
  // a reader that stops early (`| head`) closes stdout: the command still cleans up (the probe kills its server), then
  // ends quietly, as Unix tools do
  const closedPipe = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'EPIPE';
  process.stdout.on('error', (error) => {
    if (!closedPipe(error)) throw error;
  });
  main(process.argv.slice(2), processIo()).then(
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
