import { fileURLToPath } from 'node:url';
import { createGate, type Resolver } from '../gate/create-gate.ts';
import type { Policy } from '../policy/policy.ts';
import { explainLine } from '../review/explain.ts';
import { formatExplainJson, formatExplainText } from '../review/format-explain.ts';
import { commandRunner, defineCommand } from './command-definition.ts';
import { defaultMaxLineBytes } from './eval-command.ts';
import { readLines } from './read-lines.ts';
import { reportLoadError } from './report-error.ts';
import { resolverFromOption } from './resolve-from.ts';
import { reviewLoadOptions, reviewOptions, loadReviewedPolicy } from './review-options.ts';

/** The shipped default policy, used when `--policy` is not given. */
const defaultPolicyFile = fileURLToPath(new URL('../../policies/default.yaml', import.meta.url));

/** `linkgate explain`: every check and rule behind one eval line's decision; exit 0 explained, 2 usage or load errors. */
export const explainDefinition = defineCommand({
  name: 'explain',
  summary: "show every check and rule behind one line's decision",
  synopsis:
    '[--policy FILE [--allowed-signers FILE [--min-signers N]]] [--json] [--resolve-from FILE] [--line JSON | < line.json]',
  description: [
    'takes one eval line (docs/eval-lines.md), from `--line` or as the only line on stdin, and prints its decision (the same `eval` gives), the facts of its stage, and each built-in check and custom rule in engine order: pass, FAIL, skip (the setting is off or the check was not reached) or n/a (the setting does not apply to this line, as origins for a custom-scheme uri).',
    'without `--policy` it uses the shipped policies/default.yaml and says so on stderr.',
  ],
  options: {
    policy: {
      type: 'string',
      value: 'FILE',
      description: 'the policy file (default: the shipped policies/default.yaml)',
    },
    json: { type: 'boolean', description: 'print the explanation as one json document' },
    line: { type: 'string', value: 'JSON', description: 'the eval line to explain, instead of stdin' },
    'resolve-from': {
      type: 'string',
      value: 'FILE',
      description: 'json map of dns answers (docs/resolve-from.md); without it names are judged by their text',
    },
    ...reviewOptions,
  },
  example: `linkgate explain --policy policies/default.yaml --line '{"stage":"link","server":"docs","readFrom":"docs","link":{"type":"resource_link","uri":"guide://manuals/packing","name":"packing"}}'`,
  exitCodes: {
    0: 'explained (whatever the decision)',
    2: 'usage error, no line or more than one, or the policy cannot be loaded',
  },
  run: async ({ values, usageError }, io) => {
    const review = reviewLoadOptions(values, io);
    if (typeof review === 'string') return usageError(review);
    let text = values.line;
    if (text === undefined) {
      for await (const line of readLines(io.stdin, defaultMaxLineBytes)) {
        if (line.kind === 'too-long') return usageError(`line ${line.number} is over ${defaultMaxLineBytes} bytes`);
        if (line.text.trim() === '') continue;
        // explain answers one line; a second would be silently ignored, so it is refused
        if (text !== undefined)
          return usageError(`stdin has a second line (line ${line.number}); explain takes one line, eval takes many`);
        text = line.text;
      }
    }
    if (text === undefined) return usageError('no line to explain: pass `--line JSON` or one json line on stdin');
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch {
      return usageError('the line is not valid json');
    }
    let policy: Policy;
    let resolver: Resolver | undefined;
    try {
      if (values.policy === undefined) {
        io.stderr.write('linkgate: no `--policy`; using the shipped policies/default.yaml\n');
        policy = await loadReviewedPolicy(io, defaultPolicyFile, review, 'policies/default.yaml');
      } else {
        policy = await loadReviewedPolicy(io, values.policy, review);
      }
      resolver = await resolverFromOption(io.cwd, values['resolve-from']);
    } catch (error) {
      return reportLoadError(io, error);
    }
    // as eval: without --resolve-from, names are judged by their text and the network is never touched
    const gate = createGate(policy, { resolve: resolver ?? 'none' });
    const explanation = await explainLine(gate, line, { resolving: resolver !== undefined });
    io.stdout.write(values.json === true ? formatExplainJson(explanation) : formatExplainText(explanation, policy.ref));
    return 0;
  },
});

/** `linkgate explain` as a runnable command. */
export const explainCommand = commandRunner(explainDefinition);
