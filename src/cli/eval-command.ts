import { decisionJson } from '../decision/decision-json.ts';
import { createGate, type Resolver } from '../gate/create-gate.ts';
import type { Policy } from '../policy/policy.ts';
import { commandRunner, defineCommand } from './command-definition.ts';
import { readLines } from './read-lines.ts';
import { resolverFromOption } from './resolve-from.ts';
import { reportLoadError } from './report-error.ts';
import { writeLine } from './write-line.ts';
import { inputInvalid } from '../decision/deny.ts';
import { bundleOption, loadCommandPolicy, policyChoiceProblem } from './bundle-option.ts';
import {
  lintErrorLines,
  loadReviewedPolicy,
  reviewLoadOptions,
  reviewOptions,
  warnReplaceable,
  warnUnreviewed,
} from './review-options.ts';
import type { LoadPolicyOptions } from '../policy/load-policy.ts';
import { loadPolicyWithNotes, policyBuildKey, policyCacheDir } from '../policy/policy-cache.ts';
import { displayPath } from '../review/display-path.ts';
import { resolve as resolvePath } from 'node:path';
import type { CliIo } from './cli-io.ts';

/** Default cap on one input line, bytes: a line over it is refused with `input.invalid` before it is parsed. */
export const defaultMaxLineBytes = 32 * 1024 * 1024;

/** `linkgate eval` (docs/eval-lines.md): one decision per JSON line of stdin, in order. */
export const evalDefinition = defineCommand({
  name: 'eval',
  summary: 'decide JSON lines from stdin, one decision per line',
  synopsis:
    '(--policy FILE | --bundle DIR) [--allowed-signers FILE [--min-signers N]] [--resolve-from FILE] [--max-line-bytes N] < lines.jsonl',
  description: [
    'each line of stdin is one json object with a `stage` (`link`, `read`, `credential`; see docs/eval-lines.md); each gets one decision line on stdout, in order. blank lines are skipped; a line that is not json, or is over the cap, gets a deny with `input.invalid`.',
    'names in uris are judged by their text: nothing is resolved and the network is never touched, unless `--resolve-from` gives the answers.',
  ],
  options: {
    policy: { type: 'string', value: 'FILE', description: 'the policy file (yaml); required unless `--bundle`' },
    ...bundleOption,
    'resolve-from': {
      type: 'string',
      value: 'FILE',
      description: 'json map of dns answers, `{"answers": {"name": ["address", …]}}` (docs/resolve-from.md)',
    },
    'max-line-bytes': {
      type: 'string',
      value: 'N',
      default: String(defaultMaxLineBytes),
      description: 'cap on one input line, bytes',
    },
    ...reviewOptions,
  },
  example: `echo '{"stage":"link","server":"docs","readFrom":"docs","link":{"type":"resource_link","uri":"https://docs.example.com/guide.md","name":"guide"}}' | linkgate eval --policy policies/default.yaml`,
  exitCodes: {
    0: 'every line was answered (denies included)',
    2: 'usage error, or the policy or resolver map cannot be loaded',
  },
  run: async ({ values, usageError }, io) => {
    const maxLineBytes = Number(values['max-line-bytes']);
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1)
      return usageError('`--max-line-bytes` must be a whole number ≥ 1');
    const review = reviewLoadOptions(values, io);
    if (typeof review === 'string') return usageError(review);
    const choice = policyChoiceProblem(values);
    if (choice !== undefined) return usageError(choice);

    let policy: Policy;
    let resolver: Resolver | undefined;
    try {
      // `--policy FILE` through the validated-policy cache next to the bundle; a bundle state folder as fleet loads it
      policy =
        values.bundle === undefined
          ? await loadEvalPolicy(io, values.policy ?? '', review)
          : await loadCommandPolicy(io, values, review);
      resolver = await resolverFromOption(io.cwd, values['resolve-from']);
    } catch (error) {
      return reportLoadError(io, error);
    }
    // without --resolve-from, eval never touches the network: names are judged by their text
    const gate = createGate(policy, { resolve: resolver ?? 'none' });
    const invalid = (message: string) => JSON.stringify(decisionJson(inputInvalid(policy, message)));

    let answered = 0;
    for await (const line of readLines(io.stdin, maxLineBytes)) {
      if (line.kind === 'too-long') {
        answered += 1;
        await writeLine(
          io.stdout,
          invalid(`line ${line.number} is ${line.bytes} bytes, over the limit of ${maxLineBytes}`),
        );
        continue;
      }
      // a blank line is spacing, not a question: it gets no answer
      if (line.text.trim() === '') continue;
      answered += 1;
      let value: unknown;
      try {
        value = JSON.parse(line.text);
      } catch {
        await writeLine(io.stdout, invalid(`line ${line.number} is not valid json`));
        continue;
      }
      await writeLine(io.stdout, JSON.stringify(decisionJson(await gate.decide(value))));
    }
    if (answered === 0) io.stderr.write('linkgate: no lines on stdin; nothing to decide\n');
    return 0;
  },
});

/**
 * The policy for eval: without a review check, the validated policy and its lint lines come from the cache next to
 * the installed bundle (keyed by the policy's bytes and this build), so one eval line loads no yaml parser and no
 * schema (issue 42 item 1); with a review check, a verified outcome from an entry keyed by every input of the check
 * (`src/policy/reviewed-policy-cache.ts`); with `--strict-files`, or from source, the full load of `loadReviewedPolicy`.
 */
async function loadEvalPolicy(io: CliIo, file: string, review: LoadPolicyOptions): Promise<Policy> {
  const dir = policyCacheDir();
  const buildKey = policyBuildKey();
  // not under `strictFiles`: a cache entry is a file this user writes (and the full load refuses a policy it could change)
  if (dir === undefined || buildKey === undefined || review.strictFiles === true)
    return loadReviewedPolicy(io, file, review);
  const reviewed =
    review.allowedSigners !== undefined || review.policyId !== undefined || review.minVersion !== undefined;
  const shownAs = displayPath(io.cwd, file);
  const now = new Date();
  const { policy, notes } = await loadPolicyWithNotes(resolvePath(io.cwd, file), shownAs, {
    dir,
    buildKey,
    // the lint errors depend on the day (an expired review) and on how the file is named
    notes: {
      tag: `lint ${now.toISOString().slice(0, 10)} ${shownAs}`,
      make: (text) => lintErrorLines(text, shownAs, now),
    },
    // a review check: its verified outcome from an entry keyed by every input of the check, its time facts checked now
    ...(reviewed ? { review, cacheReviewed: true } : {}),
  });
  // a policy that did not verify is not used (its settings are locked): only its review failure is worth a line
  if (policy.reviewCheck?.verified !== false) for (const line of notes) io.stderr.write(line);
  if (reviewed) {
    warnUnreviewed(io, policy);
    await warnReplaceable(io, resolvePath(io.cwd, file), review);
  }
  return policy;
}

/** `linkgate eval` as a runnable command. */
export const evalCommand = commandRunner(evalDefinition);
