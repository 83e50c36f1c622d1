import { resolve as resolvePath } from 'node:path';
import { decisionJson } from '../decision/decision-json.ts';
import { createGate, type Resolver } from '../gate.ts';
import { loadPolicy } from '../policy/load-policy.ts';
import type { Policy } from '../policy/policy.ts';
import type { CliCommand } from './cli-io.ts';
import { parseCommandArgs } from './parse-command-args.ts';
import { readLines } from './read-lines.ts';
import { loadResolveFrom } from './resolve-from.ts';
import { reportLoadError, usageError } from './report-error.ts';
import { writeLine } from './write-line.ts';

/** Default cap on one input line, bytes: a line over it is refused with `input.invalid` before it is parsed. */
export const defaultMaxLineBytes = 32 * 1024 * 1024;

const usage = 'usage: linkgate eval --policy FILE [--resolve-from FILE] [--max-line-bytes N] < lines.jsonl';

/** `linkgate eval` (DESIGN §4): one decision per JSON line of stdin, in order. */
export const evalCommand: CliCommand = async (args, io) => {
  const parsed = parseCommandArgs(
    args,
    io,
    usage,
    { policy: { type: 'string' }, 'resolve-from': { type: 'string' }, 'max-line-bytes': { type: 'string' } },
    { positionals: false },
  );
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  if (values.policy === undefined) return usageError(io, 'missing `--policy FILE`', usage);
  let maxLineBytes = defaultMaxLineBytes;
  if (values['max-line-bytes'] !== undefined) {
    const n = Number(values['max-line-bytes']);
    if (!Number.isSafeInteger(n) || n < 1)
      return usageError(io, '`--max-line-bytes` must be a whole number ≥ 1', usage);
    maxLineBytes = n;
  }

  let policy: Policy;
  let resolver: Resolver | undefined;
  try {
    policy = await loadPolicy(resolvePath(io.cwd, values.policy));
    if (values['resolve-from'] !== undefined)
      resolver = await loadResolveFrom(resolvePath(io.cwd, values['resolve-from']));
  } catch (error) {
    return reportLoadError(io, error);
  }
  // without --resolve-from, eval never touches the network: names are judged by their text
  const gate = createGate(policy, { resolve: resolver ?? 'none' });
  const invalid = (message: string) =>
    JSON.stringify(
      decisionJson({
        effect: 'deny',
        reasons: [{ code: 'input.invalid', rule: 'input', stage: 'input', message }],
        policy: policy.ref,
      }),
    );

  for await (const line of readLines(io.stdin, maxLineBytes)) {
    if (line.kind === 'too-long') {
      await writeLine(
        io.stdout,
        invalid(`line ${line.number} is ${line.bytes} bytes, over the limit of ${maxLineBytes}`),
      );
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch {
      await writeLine(io.stdout, invalid(`line ${line.number} is not valid json`));
      continue;
    }
    await writeLine(io.stdout, JSON.stringify(decisionJson(await gate.decide(value))));
  }
  return 0;
};
