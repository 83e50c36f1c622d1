#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { processIo, type CliCommand, type CliIo } from './cli-io.ts';
import { isMainModule } from './is-main-module.ts';
import { evalCommand } from './eval-command.ts';
import { probeCommand } from './probe.ts';
import { lintCommand } from './lint-command.ts';
import { testCommand } from './test-command.ts';
import { diffCommand } from './diff-command.ts';
import { explainCommand } from './explain-command.ts';
import { hookCommand } from './hook-command.ts';
import { proxyCommand } from './proxy-command.ts';

const commands: Readonly<Record<string, { run: CliCommand; summary: string }>> = {
  eval: { run: evalCommand, summary: 'decide JSON lines from stdin, one decision per line' },
  probe: { run: probeCommand, summary: 'start a stdio mcp server, call one tool, gate and record every link' },
  lint: { run: lintCommand, summary: 'check policy files: schema, rules, over-broad settings, review dates' },
  test: { run: testCommand, summary: "run a policy's case file: decisions, rule coverage, junit" },
  diff: { run: diffCommand, summary: 'replay case lines against two policy versions; flag loosening' },
  explain: { run: explainCommand, summary: "show every check and rule behind one line's decision" },
  hook: { run: hookCommand, summary: 'judge one host hook event (claude code, codex): deny reads, withhold bodies' },
  proxy: { run: proxyCommand, summary: 'front a stdio or http mcp server, gating reads, links and embedded resources' },
};

function help(): string {
  const width = Math.max(...Object.keys(commands).map((k) => k.length));
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `usage: linkgate <command> [options]\n\ncommands:\n${lines.join('\n')}\n\nrun \`linkgate <command> --help\` for a command's options\n`;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(help());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === 'version') {
    io.stdout.write(`${version()}\n`);
    return 0;
  }
  const command = commands[name];
  if (command === undefined) {
    io.stderr.write(`linkgate: unknown command \`${name}\`\n${help()}`);
    return 2;
  }
  return command.run(rest, io);
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
