// The consumers the content rules protect, and how a body reaches each: the consumer registry printed in
// docs/policy-reference.md. Every consumer is read with its own parser (or the one it is built on); what a
// consumer does not cover, and what a policy gives up by leaving it out of `content.consumers`, is said next to
// what it does.
import { contentConsumers } from './consumers/consumer-registry.ts';

/** The coverage as a markdown table, for the policy reference: one row per consumer and mode, in registry order. */
export function consumerCoverageMarkdown(): string {
  const cell = (text: string): string => text.replaceAll('|', '\\|');
  const rows = contentConsumers.flatMap((consumer) =>
    consumer.coverage.map(
      (c, i) =>
        `| ${i === 0 ? `\`${consumer.id}\`${consumer.optIn ? ' (opt-in)' : ''}` : ''} | ${cell(c.consumer)} | ${cell(c.reaches)} | ${cell(c.judged)} | ${cell(c.notCovered)} | ${i === 0 ? cell(consumer.leftOut) : ''} |`,
    ),
  );
  return [
    '| `content.consumers` | consumer | a body reaches it when | what is judged | not covered | left out of the profile |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
