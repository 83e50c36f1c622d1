import { parseArgs } from 'node:util';
import { didYouMean } from './did-you-mean.ts';
import type { CliCommand, CliIo } from './cli-io.ts';
import { usageError } from './report-error.ts';

/** One option of a command: how it parses (as `util.parseArgs` takes it) and how `--help` and `docs/cli.md` show it. */
export interface OptionDefinition {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** default of a string option, applied by the parser and shown in the help */
  readonly default?: string;
  /** placeholder for the value in the help (`FILE`, `N`); string options only */
  readonly value?: string;
  /** true when the command refuses to run without it (shown as "required") */
  readonly required?: boolean;
  /** the only values a string option takes; any other is a usage error naming them (with a did-you-mean) */
  readonly choices?: readonly string[];
  /** one lowercase line: what it does, with units */
  readonly description: string;
}

/** The options of a command, by long name (without `--`). */
export type OptionDefinitions = Readonly<Record<string, OptionDefinition>>;

/** What a command's `run` gets: its option values, its positional arguments, and the words after `--` when it takes them. */
export interface CommandInput<O extends OptionDefinitions> {
  readonly values: OptionValues<O>;
  readonly positionals: readonly string[];
  /** the words after `--`; empty unless the definition sets `afterDashes` */
  readonly rest: readonly string[];
  /** prints `linkgate: MESSAGE` and this command's usage line to stderr and returns 2 */
  readonly usageError: (message: string) => number;
}

/** The parsed value of each option: a string (list when `multiple`), a boolean flag, or undefined when absent without a default. */
export type OptionValues<O extends OptionDefinitions> = {
  readonly [K in keyof O]: O[K]['type'] extends 'boolean'
    ? boolean | undefined
    : O[K]['multiple'] extends true
      ? string[] | undefined
      : O[K]['choices'] extends readonly (infer C extends string)[]
        ? O[K]['default'] extends string
          ? C
          : C | undefined
        : O[K]['default'] extends string
          ? string
          : string | undefined;
};

/**
 * One CLI command, from which the parser, `linkgate NAME --help` and `docs/cli.md` all come.
 * To add a command: write `src/cli/NAME-command.ts` exporting `defineCommand({...})` and list it in `src/cli/commands.ts`.
 */
export interface CommandDefinition<O extends OptionDefinitions = OptionDefinitions> {
  readonly name: string;
  /** one lowercase line for the command list */
  readonly summary: string;
  /** the arguments after `linkgate NAME` in the usage line, e.g. `--policy FILE [--json] < lines.jsonl` */
  readonly synopsis: string;
  /** longer help: paragraphs shown after the usage line */
  readonly description: readonly string[];
  readonly options: O;
  /** positional arguments and what they are; absent when the command takes none */
  readonly positionals?: readonly { readonly name: string; readonly description: string }[];
  /** true when the command takes a command line after `--` (the probe's server) */
  readonly afterDashes?: { readonly name: string; readonly description: string };
  /** one shell line that runs as pasted from the package folder (a clone after `npm run build`, or `node_modules/linkgate`) */
  readonly example: string;
  /** what the exit codes mean */
  readonly exitCodes: Readonly<Record<number, string>>;
  readonly run: (input: CommandInput<O>, io: CliIo) => Promise<number>;
}

/** A command definition with its options typed; returns it unchanged. */
export function defineCommand<const O extends OptionDefinitions>(
  definition: CommandDefinition<O>,
): CommandDefinition<O> {
  return definition;
}

/** The usage line of a command: `usage: linkgate NAME SYNOPSIS`. */
export function usageLine(definition: CommandDefinition<OptionDefinitions>): string {
  return `usage: linkgate ${definition.name} ${definition.synopsis}`;
}

const helpOption: OptionDefinition = { type: 'boolean', short: 'h', description: 'show this help and exit' };

/** The option list as `[flags, description]` rows, `--help` last. */
export function optionRows(definition: CommandDefinition<OptionDefinitions>): [string, string][] {
  const rows: [string, string][] = [];
  for (const [name, option] of Object.entries({ ...definition.options, help: helpOption })) {
    const flag = `${option.short === undefined ? '' : `-${option.short}, `}--${name}${option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : ''}`;
    const notes = [
      option.required === true ? 'required' : null,
      option.multiple === true ? 'repeatable' : null,
      option.default === undefined ? null : `default: ${option.default}`,
    ].filter((n) => n !== null);
    rows.push([flag, notes.length === 0 ? option.description : `${option.description} (${notes.join('; ')})`]);
  }
  return rows;
}

/** The full `--help` text of a command: usage, description, arguments, options, exit codes and a runnable example. */
export function helpText(definition: CommandDefinition<OptionDefinitions>): string {
  const table = (rows: readonly [string, string][]) => {
    const width = Math.max(...rows.map(([left]) => left.length));
    return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join('\n');
  };
  const parts = [usageLine(definition), definition.summary, ...definition.description];
  const args: [string, string][] = (definition.positionals ?? []).map((p) => [p.name, p.description]);
  if (definition.afterDashes !== undefined)
    args.push([`-- ${definition.afterDashes.name}`, definition.afterDashes.description]);
  if (args.length > 0) parts.push(`arguments:\n${table(args)}`);
  parts.push(`options:\n${table(optionRows(definition))}`);
  parts.push(`exit codes:\n${table(Object.entries(definition.exitCodes).map(([code, what]) => [code, what]))}`);
  parts.push(
    `example (from the package folder: a clone after \`npm run build\`, or node_modules/linkgate):\n  ${definition.example}`,
  );
  return `${parts.join('\n\n')}\n`;
}

/** The `CliCommand` that parses arguments strictly by the definition (with `--help`/`-h`) and runs it. */
export function commandRunner<O extends OptionDefinitions>(definition: CommandDefinition<O>): CliCommand {
  const loose = definition as unknown as CommandDefinition<OptionDefinitions>;
  return async (args, io) => {
    const fail = (message: string) =>
      usageError(io, message, `${usageLine(loose)}\nrun \`linkgate ${definition.name} --help\` for the options`);
    const split = definition.afterDashes === undefined ? -1 : args.indexOf('--');
    const optionArgs = split === -1 ? [...args] : args.slice(0, split);
    const rest = split === -1 ? [] : args.slice(split + 1);
    const config: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean; default?: string }> =
      { help: { type: 'boolean', short: 'h' } };
    for (const [name, option] of Object.entries(loose.options)) {
      config[name] = {
        type: option.type,
        ...(option.short === undefined ? {} : { short: option.short }),
        ...(option.multiple === true ? { multiple: true } : {}),
        ...(option.default === undefined ? {} : { default: option.default }),
      };
    }
    let parsed: { values: Record<string, unknown>; positionals: string[] };
    try {
      parsed = parseArgs({ args: optionArgs, options: config, strict: true, allowPositionals: true });
    } catch (error) {
      return fail(argumentMessage(error, Object.keys(config)));
    }
    if (parsed.values['help'] === true) {
      io.stdout.write(helpText(loose));
      return 0;
    }
    const [extra] = parsed.positionals;
    if (definition.positionals === undefined && extra !== undefined) return fail(`unexpected argument \`${extra}\``);
    for (const [name, option] of Object.entries(loose.options)) {
      if (option.required === true && (parsed.values[name] === undefined || parsed.values[name] === ''))
        return fail(`missing \`--${name}${option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : ''}\``);
    }
    for (const [name, option] of Object.entries(loose.options)) {
      const given = parsed.values[name];
      if (option.choices === undefined || given === undefined) continue;
      for (const value of Array.isArray(given) ? (given as string[]) : [given as string]) {
        if (!option.choices.includes(value))
          return fail(
            `unknown ${name.replaceAll('-', ' ')} \`${value}\`; expected ${alternatives(option.choices)}${didYouMeanText(value, option.choices)}`,
          );
      }
    }
    const { help: _help, ...values } = parsed.values;
    return definition.run(
      { values: values as OptionValues<O>, positionals: parsed.positionals, rest, usageError: fail },
      io,
    );
  };
}

/** `a, b or c` */
function alternatives(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1) ?? ''}`;
}

/** `; did you mean \`X\`?` for the closest candidate, or an empty string. */
export function didYouMeanText(word: string, candidates: readonly string[]): string {
  const best = didYouMean(word, candidates);
  return best === null ? '' : `; did you mean \`${best}\`?`;
}

// node's parseArgs messages, in the house style: lowercase, one line, the option in backticks, the fix suggested
function argumentMessage(error: unknown, names: readonly string[]): string {
  const code = (error as { code?: unknown } | null)?.code;
  const text = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  const option = /'(-[^' ]+)/.exec(text)?.[1];
  if (option !== undefined && code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const best = didYouMean(option.replace(/^-+/, ''), names);
    return `unknown option \`${option}\`${best === null ? '' : `; did you mean \`--${best}\`?`}`;
  }
  if (option !== undefined && code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return text.includes('does not take')
      ? `option \`${option}\` takes no value`
      : `option \`${option}\` needs a value`;
  }
  return text.charAt(0).toLowerCase() + text.slice(1);
}
