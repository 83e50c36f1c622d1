import type { Decision } from '../decision/decision.ts';
import { engineError, inputInvalid } from '../decision/deny.ts';
import { decideCredential } from './decide-credential.ts';
import { decideLink, prepareLink } from './decide-link.ts';
import type { ReadVerdict } from './read-evidence.ts';
import {
  isPlainLinkInput,
  parseCredentialInput,
  parseInput,
  parseLinkInput,
  parseReadInput,
  type LinkInput,
  type ParsedInput,
  type ReadInput,
} from './inputs.ts';
import type { Policy } from '../policy/policy.ts';
import { resolveWithin, systemResolver, type Resolver } from '../link/resolve-name.ts';
import type { UriReading } from '../link/reused-url.ts';
import { unreviewedDecision } from './unreviewed-decision.ts';

export type { Resolver } from '../link/resolve-name.ts';

/** Options of a gate: how names are resolved. */
export interface GateOptions {
  /** a resolver; `system` uses the OS resolver; `none` judges names by their text (default: `system` when the policy sets `links.resolveNames`, else `none`) */
  resolve?: Resolver | 'system' | 'none';
  /** deadline for resolving one name, milliseconds (default 2000) */
  resolveTimeoutMs?: number;
}

/** One policy bound to its options: every decision of the engine; methods never throw. */
export interface Gate {
  readonly policy: Policy;
  /**
   * pre-read decision, by the name's text only; synchronous. `reading`: a WHATWG reading of the link's uri made already
   * (the flow's, `reused-url.ts`), taken only when it reads exactly that uri
   */
  decideLink(input: unknown, reading?: UriReading): Decision;
  /** credential forwarding decision; synchronous */
  decideCredential(input: unknown): Decision;
  /** post-read decision */
  decideRead(input: unknown): Promise<Decision>;
  /** post-read decision with per-item evidence for records */
  decideReadDetailed(input: unknown): Promise<ReadVerdict>;
  /** content checks for an embedded `resource` item of a tool result (no read, so no read-stage checks) */
  decideEmbedded(resource: unknown): Promise<Decision>;
  /** any stage, exactly what `eval` does for one line (names resolved when a resolver is in force) */
  decide(line: unknown): Promise<Decision>;
}

/**
 * Binds a loaded policy to a gate; the policy is immutable, so a gate never mixes two policies. A policy whose review
 * was checked and did not verify (or has expired since) gets a gate that denies every decision with `policy.unreviewed`.
 */
export function createGate(policy: Policy, options: GateOptions = {}): Gate {
  const gate = bindGate(policy, options);
  const made = policy.reviewCheck === undefined ? gate : reviewedGate(gate);
  if (pickResolver(policy, options.resolve) === undefined) linksDecidedAtOnce.add(made);
  return made;
}

// gates `createGate` made with no resolver: their `decide` of a link line is their `decideLink`, decided at once
const linksDecidedAtOnce = new WeakSet<Gate>();

/**
 * Whether `gate` is one `createGate` made with no resolver, so `decide` of a link line gives exactly its synchronous
 * `decideLink` (a caller deciding many links takes that, with no promise each); false for any other gate.
 */
export function decidesLinksAtOnce(gate: Gate): boolean {
  return linksDecidedAtOnce.has(gate);
}

function reviewedGate(gate: Gate): Gate {
  const { policy } = gate;
  const stageOf = (line: unknown): 'link' | 'read' | 'credential' | 'input' => {
    const stage = (line as { stage?: unknown } | null)?.stage;
    return stage === 'link' || stage === 'read' || stage === 'credential' ? stage : 'input';
  };
  return Object.freeze({
    policy,
    decideLink: (input: unknown, reading?: UriReading) =>
      unreviewedDecision(policy, 'link') ?? gate.decideLink(input, reading),
    decideCredential: (input: unknown) => unreviewedDecision(policy, 'credential') ?? gate.decideCredential(input),
    decideRead: async (input: unknown) => unreviewedDecision(policy, 'read') ?? gate.decideRead(input),
    async decideReadDetailed(input: unknown): Promise<ReadVerdict> {
      const denied = unreviewedDecision(policy, 'read');
      return denied === undefined ? gate.decideReadDetailed(input) : { decision: denied, evidence: [] };
    },
    decideEmbedded: async (resource: unknown) => unreviewedDecision(policy, 'content') ?? gate.decideEmbedded(resource),
    decide: async (line: unknown) => unreviewedDecision(policy, stageOf(line)) ?? gate.decide(line),
  });
}

// the read decision and the content judges it calls load on the first read: a front end that only decides links (a
// pre-read hook event, an eval line of links) never loads a content parser (issue 42 item 1)
let readModule: Promise<typeof import('./decide-read.ts')> | undefined;
// the module once loaded: a read then calls it with no await of the loaded import (a turn of the microtask queue per read)
let readLoaded: typeof import('./decide-read.ts') | undefined;
const readDecisions = () =>
  (readModule ??= import('./decide-read.ts').then((loaded) => {
    readLoaded = loaded;
    return loaded;
  }));

function decideReadDetailed(policy: Policy, input: ReadInput): Promise<ReadVerdict> {
  if (readLoaded !== undefined) return readLoaded.decideReadDetailed(policy, input);
  return readDecisions().then((loaded) => loaded.decideReadDetailed(policy, input));
}

async function decideEmbedded(policy: Policy, resource: unknown): Promise<ReadVerdict> {
  return (await readDecisions()).decideEmbedded(policy, resource);
}

function bindGate(policy: Policy, options: GateOptions): Gate {
  const resolver = pickResolver(policy, options.resolve);
  const resolveTimeoutMs = options.resolveTimeoutMs ?? 2000;

  const failClosed = (error: unknown): Decision => engineError(policy, error);
  const invalid = (message: string): Decision => inputInvalid(policy, message);

  function guardSync<T>(parsed: ParsedInput<T>, decide: (input: T) => Decision): Decision {
    if (!parsed.ok) return invalid(parsed.message);
    try {
      return decide(parsed.input);
    } catch (error) {
      return failClosed(error);
    }
  }

  async function decideLinkResolved(input: LinkInput): Promise<Decision> {
    if (resolver === undefined) return decideLink(policy, input);
    // analysed once: the names to resolve and the decision come from the same analysis
    const prepared = prepareLink(policy, input);
    if (prepared.names.length === 0) return prepared.decide();
    const resolved = new Map<string, readonly string[]>();
    await Promise.all(
      prepared.names.map(async (name) => {
        const answers = await resolveWithin(resolver, name, resolveTimeoutMs);
        if (answers !== undefined) resolved.set(name, answers);
      }),
    );
    return prepared.decide(resolved);
  }

  async function detailed(input: unknown): Promise<ReadVerdict> {
    const parsed = parseReadInput(input);
    if (!parsed.ok) return { decision: invalid(parsed.message), evidence: [] };
    try {
      return await decideReadDetailed(policy, parsed.input);
    } catch (error) {
      return { decision: failClosed(error), evidence: [] };
    }
  }

  return Object.freeze({
    policy,
    // the per-link hot path: a hand-written check of the common shape, no closure per call
    decideLink(input: unknown, reading?: UriReading): Decision {
      let link: LinkInput;
      if (isPlainLinkInput(input)) link = input;
      else {
        const parsed = parseLinkInput(input);
        if (!parsed.ok) return invalid(parsed.message);
        link = parsed.input;
      }
      try {
        return reading === undefined ? decideLink(policy, link) : decideLink(policy, link, { reading });
      } catch (error) {
        return failClosed(error);
      }
    },
    decideCredential: (input: unknown) => guardSync(parseCredentialInput(input), (i) => decideCredential(policy, i)),
    // `detailed`'s steps in place, not awaited through it: one async frame and one turn of the microtask queue fewer
    async decideRead(input: unknown): Promise<Decision> {
      const parsed = parseReadInput(input);
      if (!parsed.ok) return invalid(parsed.message);
      try {
        return (await decideReadDetailed(policy, parsed.input)).decision;
      } catch (error) {
        return failClosed(error);
      }
    },
    decideReadDetailed: detailed,
    async decideEmbedded(resource: unknown): Promise<Decision> {
      try {
        return (await decideEmbedded(policy, resource)).decision;
      } catch (error) {
        return failClosed(error);
      }
    },
    async decide(line: unknown): Promise<Decision> {
      const parsed = parseInput(line);
      if (!parsed.ok) return invalid(parsed.message);
      try {
        const input = parsed.input;
        if (input.stage === 'link') return await decideLinkResolved(input);
        if (input.stage === 'credential') return decideCredential(policy, input);
        return (await decideReadDetailed(policy, input)).decision;
      } catch (error) {
        return failClosed(error);
      }
    },
  });
}

function pickResolver(policy: Policy, choice: GateOptions['resolve']): Resolver | undefined {
  if (typeof choice === 'function') return choice;
  if (choice === 'system') return systemResolver;
  if (choice === 'none') return undefined;
  return policy.document.links.resolveNames === true ? systemResolver : undefined;
}
