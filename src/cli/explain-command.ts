import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGate, type Resolver } from '../gate.ts';
import { loadPolicy } from '../policy/load-policy.ts';
import type { Policy } from '../policy/policy.ts';
import { explainLine } from '../review/explain.ts';
import { formatExplainJson, formatExplainText } from '../review/format-explain.ts';
import type { CliCommand } from './cli-io.ts';
import { defaultMaxLineBytes } from './eval-command.ts';
import { readLines } from './read-lines.ts';
import { reportLoadError, usageError } from './report-error.ts';
import { loadResolveFrom } from './resolve-from.ts';
import { parseCommandArgs } from './parse-command-args.ts';

const usage = 'usage: linkgate explain [--policy FILE] [--json] [--resolve-from FILE] [--line JSON] < line.json';
/** The shipped default policy, used when `--policy` is not given. */
const defaultPolicyFile = fileURLToPath(new URL('../../policies/default.yaml', import.meta.url));

/** `linkgate explain`: every check and rule behind one eval line's decision; exit 0 explained, 2 usage or load errors. */
export const explainCommand: CliCommand = async (args, io) => {
  const parsed = parseCommandArgs(
    args,
    io,
    usage,
    {
      policy: { type: 'string' },
      json: { type: 'boolean' },
      line: { type: 'string' },
      'resolve-from': { type: 'string' },
    },
    { positionals: false },
  );
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  let text = values.line;
  if (text === undefined) {
    for await (const line of readLines(io.stdin, defaultMaxLineBytes)) {
      if (line.kind === 'too-long')
        return usageError(io, `line ${line.number} is over ${defaultMaxLineBytes} bytes`, usage);
      if (line.text.trim() !== '') {
        text = line.text;
        break;
      }
    }
  }
  if (text === undefined)
    return usageError(io, 'no line to explain: pass `--line JSON` or one json line on stdin', usage);
  let line: unknown;
  try {
    line = JSON.parse(text);
  } catch {
    return usageError(io, 'the line is not valid json', usage);
  }
  let policy: Policy;
  let resolver: Resolver | undefined;
  try {
    policy = await loadPolicy(values.policy === undefined ? defaultPolicyFile : resolvePath(io.cwd, values.policy));
    if (values['resolve-from'] !== undefined)
      resolver = await loadResolveFrom(resolvePath(io.cwd, values['resolve-from']));
  } catch (error) {
    return reportLoadError(io, error);
  }
  // as eval: without --resolve-from, names are judged by their text and the network is never touched
  const gate = createGate(policy, { resolve: resolver ?? 'none' });
  const explanation = await explainLine(gate, line, { resolving: resolver !== undefined });
  io.stdout.write(values.json === true ? formatExplainJson(explanation) : formatExplainText(explanation, policy.ref));
  return 0;
};
