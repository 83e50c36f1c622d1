import type { Decision, Reason } from '../decision/decision.ts';
import { parseInput, type ReadInput } from '../gate/inputs.ts';
import type { Gate } from '../gate/create-gate.ts';
import { credentialRuleFacts } from '../gate/decide-credential.ts';
import { linkRuleFacts } from '../gate/decide-link.ts';
import { maskUri } from '../link/mask-uri.ts';
import { pathSegments } from '../policy/json-logic-ops.ts';
import type { CompiledRule } from '../policy/compile-rule.ts';
import { ruleFacts, type RuleFacts, type RuleStage } from '../policy/rule-facts.ts';
import { buildReadFacts } from '../read/read-facts.ts';
import { classifyResult } from '../read/result-outcome.ts';
import { checkCatalogue, settingPresent, settingValue, type CheckInfo } from './check-catalogue.ts';

/** A fact value as explain shows it: secrets masked (userinfo, query values), long lists cut. */
export type ShownFact = string | number | boolean | null | readonly string[];

/** One check or custom rule of the stage, in engine order, with what it concluded and the facts it read. */
export interface ExplainStep {
  readonly kind: 'check' | 'rule';
  /** `reason.rule`: the setting (`links.schemes`), a built-in check (`links.uri`) or `rules.<id>` */
  readonly rule: string;
  readonly title: string;
  /** `n/a`: the check does not apply to this line (origins for a custom-scheme uri) */
  readonly status: 'pass' | 'fail' | 'skip' | 'n/a';
  /** why a step was skipped or does not apply */
  readonly why?: string;
  /** custom rules: the effect it asks for when it fires */
  readonly effect?: 'deny' | 'partial';
  /** reasons this step raised, on the decision or its items */
  readonly reasons: readonly Pick<Reason, 'code' | 'message'>[];
  readonly facts: Readonly<Record<string, ShownFact>>;
}

/** Every step behind one decision. */
export interface Explanation {
  readonly stage: RuleStage | 'input';
  readonly decision: Decision;
  /** the stage's facts, masked; empty when the line is not valid */
  readonly facts: Readonly<Record<string, ShownFact>>;
  readonly steps: readonly ExplainStep[];
}

/** Facts that may hold a url with userinfo or query values: shown through `maskUri`. */
const urlFacts = new Set(['uri', 'from', 'to']);
/** Most list entries shown for one fact; the rest are counted. */
export const maxShownListItems = 16;

/** Masks facts that could hold secrets: urls lose userinfo, query values and fragment. */
export function maskFacts(facts: RuleFacts): Record<string, ShownFact> {
  const out: Record<string, ShownFact> = {};
  for (const [name, value] of Object.entries(facts)) {
    if (typeof value === 'string' && urlFacts.has(name)) out[name] = maskUri(value);
    else if (Array.isArray(value))
      out[name] =
        value.length > maxShownListItems
          ? [...(value as readonly string[]).slice(0, maxShownListItems), `… ${value.length - maxShownListItems} more`]
          : [...(value as readonly string[])];
    else out[name] = value;
  }
  return out;
}

// Mirrors the facts decide-link builds inline for link rules (src/gate/decide-link.ts): the engine has no exported
// builder yet. The explain test checks each rule's verdict here against the engine's decision so a drift shows up.
const envelopeRules = new Set([
  'links.requireSameServer',
  'read.readTimeoutMs',
  'read',
  'read.answerInputRequired',
  'read.allowTaskResults',
  'read.maxItems',
]);

async function readFacts(gate: Gate, input: ReadInput): Promise<{ facts: RuleFacts; decision: Decision }> {
  const verdict = await gate.decideReadDetailed(input);
  const outcome = classifyResult(input.result);
  const resultType =
    outcome.kind === 'error'
      ? 'error'
      : outcome.kind === 'input-required'
        ? 'input_required'
        : outcome.kind === 'unknown-type'
          ? outcome.resultType
          : outcome.kind;
  const contents = outcome.kind === 'complete' || outcome.kind === 'task' ? outcome.contents : undefined;
  const facts = buildReadFacts({
    server: input.server ?? 'default',
    readFrom: input.readFrom ?? 'default',
    uri: input.link.uri,
    resultType,
    elapsedMs: input.elapsedMs ?? null,
    itemCount: Array.isArray(contents) ? contents.length : 0,
    totalBytes: verdict.evidence.reduce((sum, e) => sum + e.bytes, 0),
    kinds: verdict.evidence.map((e) => e.kind),
    mimeTypes: verdict.evidence.map((e) => e.declaredMime ?? ''),
  });
  return { facts, decision: verdict.decision };
}

/** `var` names of the stage that a rule's condition reads, in first-use order. */
export function factsReadBy(when: unknown, stage: RuleStage): string[] {
  const names = new Set<string>();
  const facts: Readonly<Record<string, unknown>> = ruleFacts[stage];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    for (const [op, arg] of Object.entries(node)) {
      if (op === 'var') {
        const path: unknown = Array.isArray(arg) ? (arg as unknown[])[0] : arg;
        const [first] = pathSegments(path);
        if (first !== undefined && Object.hasOwn(facts, first)) names.add(first);
      }
      walk(arg);
    }
  };
  walk(when);
  return [...names];
}

function pick(facts: Readonly<Record<string, ShownFact>>, names: readonly string[]): Record<string, ShownFact> {
  const out: Record<string, ShownFact> = {};
  for (const name of names) if (Object.hasOwn(facts, name)) out[name] = facts[name] as ShownFact;
  return out;
}

function allReasons(decision: Decision): Reason[] {
  const seen = new Set<string>();
  const out: Reason[] = [];
  for (const r of [...decision.reasons, ...(decision.items ?? []).flatMap((i) => i.reasons)]) {
    // item reasons repeat on the decision with an `item N:` prefix; show each once
    const key = `${r.rule}\u0000${r.code}\u0000${r.message.replace(/^item \d+: /, '')}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(r);
    }
  }
  return out;
}

interface StepContext {
  readonly decision: Decision;
  readonly shown: Readonly<Record<string, ShownFact>>;
  /** why a check that is on was not reached, by rule; absent: reached */
  readonly notReached: (check: CheckInfo) => string | undefined;
  /** why a check does not apply to this line, by rule; absent: it applies */
  readonly notApplicable: (check: CheckInfo) => string | undefined;
}

function checkStep(check: CheckInfo, ctx: StepContext, doc: Parameters<CheckInfo['enabled']>[0]): ExplainStep {
  const raised = allReasons(ctx.decision).filter(
    (r) => r.rule === check.rule && (check.codes as readonly string[]).includes(r.code),
  );
  const base = { kind: 'check' as const, rule: check.rule, title: check.title, facts: pick(ctx.shown, check.reads) };
  if (raised.length > 0)
    return { ...base, status: 'fail', reasons: raised.map((r) => ({ code: r.code, message: r.message })) };
  const notApplicable = ctx.notApplicable(check);
  if (notApplicable !== undefined) return { ...base, status: 'n/a', why: notApplicable, reasons: [] };
  if (!check.enabled(doc)) {
    const setting = check.setting ?? check.rule;
    const why = settingPresent(doc, setting)
      ? `off: \`${setting}\` is \`${JSON.stringify(settingValue(doc, setting))}\``
      : `\`${setting}\` is not set`;
    return { ...base, status: 'skip', why, reasons: [] };
  }
  const why = ctx.notReached(check);
  if (why !== undefined) return { ...base, status: 'skip', why, reasons: [] };
  return { ...base, status: 'pass', reasons: [] };
}

function ruleStep(rule: CompiledRule, when: unknown, facts: RuleFacts | null, ctx: StepContext): ExplainStep {
  const rule_ = `rules.${rule.id}`;
  const raised = allReasons(ctx.decision).filter((r) => r.rule === rule_);
  const base = {
    kind: 'rule' as const,
    rule: rule_,
    title: rule.message,
    effect: rule.effect,
    facts: pick(ctx.shown, factsReadBy(when, rule.stage)),
  };
  if (facts === null)
    return {
      ...base,
      status: 'skip',
      why: 'not reached: the uri does not parse, and link rules need its facts',
      reasons: [],
    };
  const fires = rule.test(facts);
  if (raised.length > 0 || fires) {
    const reasons = raised.map((r) => ({ code: r.code, message: r.message }));
    return fires === raised.length > 0
      ? { ...base, status: 'fail', reasons }
      : {
          ...base,
          status: 'fail',
          why: 'explain evaluated this rule differently from the engine; trust the decision',
          reasons,
        };
  }
  return { ...base, status: 'pass', reasons: [] };
}

/** Explains one eval line under the gate's policy: its decision (exactly what `eval` answers), the stage's masked facts and every step. */
export async function explainLine(gate: Gate, line: unknown, options: { resolving: boolean }): Promise<Explanation> {
  const policy = gate.policy;
  const doc = policy.document;
  const parsed = parseInput(line);
  if (policy.reviewCheck !== undefined) {
    // a policy that is not used explains nothing but why: no check of it ran
    const decision = await gate.decide(line);
    const refused = decision.reasons.filter((r) => r.code === 'policy.unreviewed');
    if (refused.length > 0)
      return {
        stage: parsed.ok ? parsed.input.stage : 'input',
        decision,
        facts: {},
        steps: [
          {
            kind: 'check',
            rule: 'review',
            title: "the policy's review signatures verify (--allowed-signers)",
            status: 'fail',
            reasons: refused.map((r) => ({ code: r.code, message: r.message })),
            facts: {},
          },
        ],
      };
  }
  if (!parsed.ok) {
    const decision = await gate.decide(line);
    return {
      stage: 'input',
      decision,
      facts: {},
      steps: [
        {
          kind: 'check',
          rule: 'input',
          title: 'the line is a well-formed eval line',
          status: 'fail',
          reasons: decision.reasons.map((r) => ({ code: r.code, message: r.message })),
          facts: {},
        },
      ],
    };
  }
  const input = parsed.input;
  const stage = input.stage;
  let decision: Decision;
  let facts: RuleFacts | null;
  let notReached: StepContext['notReached'] = () => undefined;
  let notApplicable: StepContext['notApplicable'] = () => undefined;
  if (input.stage === 'link') {
    decision = await gate.decide(input);
    facts = linkRuleFacts(gate.policy, input);
    const linkFacts = facts;
    notApplicable = (check) => {
      if (linkFacts === null) return undefined;
      const scheme = String(linkFacts['scheme']);
      const custom = linkFacts['customScheme'] === true;
      if (check.rule === 'links.origins' && !doc.links.schemes.includes(scheme))
        return custom
          ? `not applicable: \`${scheme}:\` is a custom scheme; origins apply to the schemes in \`links.schemes\``
          : `not applicable: origins apply to the schemes in \`links.schemes\`, not \`${scheme}:\``;
      if (check.rule === 'links.customSchemes' && !custom)
        return `not applicable: \`${scheme}:\` is not a custom scheme`;
      return undefined;
    };
    const denied = decision.reasons.some((r) => r.rule !== 'links.resolveNames' && !r.rule.startsWith('rules.'));
    notReached = (check) => {
      if (
        facts === null &&
        [
          'links.userinfo',
          'links.schemes',
          'links.customSchemes',
          'links.denyNonPublicAddresses',
          'links.origins',
        ].includes(check.rule)
      )
        return 'not reached: the uri does not parse';
      if (check.rule === 'links.resolveNames') {
        if (!options.resolving) return 'names are judged by their text: no resolver in force';
        if (denied) return 'not reached: the link was already denied';
        if (
          facts === null ||
          facts['host'] === null ||
          facts['addressClass'] !== null ||
          facts['customScheme'] === true
        )
          return 'not reached: no host name to resolve';
      }
      return undefined;
    };
  } else if (input.stage === 'credential') {
    decision = await gate.decide(input);
    facts = credentialRuleFacts(input);
  } else {
    const read = await readFacts(gate, input);
    decision = read.decision;
    facts = read.facts;
    // decide-read judges items only when nothing in the envelope denied the read
    const envelopeFailed = decision.reasons.some((r) => envelopeRules.has(r.rule) && r.stage !== 'content');
    notReached = (check) =>
      envelopeFailed &&
      ['content', 'read.maxItemBytes', 'read.maxBytes', 'content.allow', 'content.maxImagePixels'].includes(check.rule)
        ? 'not reached: the read failed before its items were judged'
        : undefined;
  }
  const shown = facts === null ? {} : maskFacts(facts);
  const ctx: StepContext = { decision, shown, notReached, notApplicable };
  const steps: ExplainStep[] = checkCatalogue[stage].map((c) => checkStep(c, ctx, doc));
  const documents = new Map((doc.rules ?? []).map((r) => [r.id, r.when]));
  for (const rule of policy.rules)
    if (rule.stage === stage) steps.push(ruleStep(rule, documents.get(rule.id), facts, ctx));
  return { stage, decision, facts: shown, steps };
}
