import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CliIo } from './cli-io.ts';
import { usageError } from './report-error.ts';

type Options = NonNullable<ParseArgsConfig['options']>;
type WithHelp<O extends Options> = O & { help: { type: 'boolean'; short: 'h' } };

/** A command's parsed options and positionals, as `util.parseArgs` types them. */
export type ParsedCommandArgs<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: WithHelp<O>; strict: true; allowPositionals: true }>
>;

/**
 * Parses a command's arguments strictly, with `--help`/`-h` added: returns the parsed arguments, or the exit code when
 * the command is already done (0 after printing the usage for `--help`, 2 after a usage error naming the bad option).
 */
export function parseCommandArgs<O extends Options>(
  args: readonly string[],
  io: CliIo,
  usage: string,
  options: O,
  { positionals }: { positionals: boolean },
): ParsedCommandArgs<O> | number {
  let parsed: ParsedCommandArgs<O>;
  try {
    const withHelp = { ...options, help: { type: 'boolean', short: 'h' } } as WithHelp<O>;
    parsed = parseArgs({ args: [...args], options: withHelp, strict: true, allowPositionals: true });
  } catch (error) {
    return usageError(io, argumentMessage(error), usage);
  }
  if ((parsed.values as { help?: boolean }).help === true) {
    io.stdout.write(`${usage}\n`);
    return 0;
  }
  const [extra] = parsed.positionals;
  if (!positionals && extra !== undefined) return usageError(io, `unexpected argument \`${extra}\``, usage);
  return parsed;
}

// node's parseArgs messages, in the house style: lowercase, one line, the option in backticks
function argumentMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const text = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  const option = /'(-[^' ]+)/.exec(text)?.[1];
  if (option !== undefined && code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option \`${option}\``;
  if (option !== undefined && code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return text.includes('does not take')
      ? `option \`${option}\` takes no value`
      : `option \`${option}\` needs a value`;
  }
  return text.charAt(0).toLowerCase() + text.slice(1);
}
