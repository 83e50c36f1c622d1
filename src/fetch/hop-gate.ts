import type { Decision } from '../decision/decision.ts';
import { createGate } from '../gate/create-gate.ts';
import type { ResourceLink } from '../link/resource-link.ts';
import type { Resolver } from '../link/resolve-name.ts';
import type { Policy } from '../policy/policy.ts';
import { memoizeResolver } from './pinned-lookup.ts';

/** A hop's link decision and the answers it checked for each name (the ones the hop connects to). */
export interface HopDecision {
  decision: Decision;
  answersFor(name: string): readonly string[] | undefined;
}

/** Decides each hop of one fetch as a link, in turn (hops never overlap). */
export interface HopGate {
  decide(server: string, link: ResourceLink): Promise<HopDecision>;
}

/**
 * The one Gate of a fetch, built once: every hop's names go through a fresh memo (DNS pinning per hop), so the
 * answers a hop's link decision checked are the answers that hop connects to, and no hop sees another's answers.
 */
export function hopGate(policy: Policy, resolve: Resolver, resolveTimeoutMs: number): HopGate {
  let memo = memoizeResolver(resolve);
  const gate = createGate(policy, { resolve: (name) => memo.resolver(name), resolveTimeoutMs });
  return {
    async decide(server, link) {
      const hopMemo = memoizeResolver(resolve);
      memo = hopMemo;
      const decision = await gate.decide({ stage: 'link', server, readFrom: server, link });
      return { decision, answersFor: (name) => hopMemo.answersFor(name) };
    },
  };
}
