// The consumer registry: every adapter, the default profile, and judging a body for every consumer of a profile
// that would read it: a text body by each adapter's `readsText`/`judgeText`, a binary body by the adapters' binary
// readings a format names (sniff-binary.ts). A new consumer is one adapter file here and one entry in
// `contentConsumers`.
import type { ContentSniff } from '../content-sniff.ts';
import { familyOf } from '../kinds.ts';
import type { TextKind } from '../text/text-kind.ts';
import type { WorkBudget } from '../work-budget.ts';
import { browserConsumer } from './browser.ts';
import {
  type BinaryBody,
  type BinaryReading,
  type BinaryStep,
  type ConsumerId,
  type ConsumerProfile,
  type ContentConsumer,
  type ConsumerFinding,
  type TextBody,
} from './content-consumer.ts';
import { launcherConsumer } from './desktop-launcher.ts';
import { markdownConsumer } from './markdown-renderer.ts';
import { mdxConsumer } from './mdx-compiler.ts';
import { notebookConsumer } from './notebook-viewer.ts';
import { pdfReaderConsumer } from './pdf-reader.ts';
import { shellConsumer } from './shell.ts';
import { terminalConsumer } from './terminal.ts';
import { vitepressConsumer } from './vitepress.ts';

/** Every consumer, in the order they judge a body: the terminal (every text body, what it acts on noted before a verdict stops the judging), then those that recognise a format by its own bytes. */
export const contentConsumers: readonly ContentConsumer[] = [
  terminalConsumer,
  shellConsumer,
  launcherConsumer,
  pdfReaderConsumer,
  notebookConsumer,
  markdownConsumer,
  mdxConsumer,
  vitepressConsumer,
  browserConsumer,
];

/** The default profile, named here for the sniff's callers. */
export { defaultProfile } from './content-consumer.ts';

/** True when a text kind may be recognised under `profile`: kinds that exist only for a consumer need it in the profile. */
export function recognisedUnder(profile: ConsumerProfile): (kind: TextKind) => boolean {
  return (kind) => {
    const owner = contentConsumers.find((c) => c.textKinds?.includes(kind) === true);
    return owner === undefined || profile.has(owner.id);
  };
}

// A page (a body whose markup root is html) is judged by its own consumer, the browser, before the markdown renderers
// a text type hands it to as well: a page the browser finds active is denied for what it runs, without five renderings
// of it first (which may end its budget and withhold it as too complex instead)
const pageOrder: readonly ContentConsumer[] = contentConsumers.flatMap((consumer) =>
  consumer === browserConsumer ? [] : consumer === markdownConsumer ? [browserConsumer, consumer] : [consumer],
);

/** Judges a text body for every consumer of `profile` that would read it, filling the sniff's verdict slots; stops once one makes it active. */
export function judgeTextForProfile(
  body: TextBody,
  profile: ConsumerProfile,
  sniff: ContentSniff,
  budget: WorkBudget,
): void {
  const order = body.kind === 'html' || body.kind === 'xhtml' ? pageOrder : contentConsumers;
  for (const consumer of order) {
    if (sniff.active !== null) return;
    if (!profile.has(consumer.id) || !consumer.readsText(body)) continue;
    recordFindings(sniff, consumer.judgeText(body, budget));
  }
}

/** Judges a binary body by `steps` in order, each only when its consumer is in `profile`, filling the sniff's verdict slots; stops once one makes it active. */
export function judgeBinaryForProfile(
  body: BinaryBody,
  profile: ConsumerProfile,
  steps: readonly BinaryStep[],
  sniff: ContentSniff,
  budget: WorkBudget,
): void {
  for (const step of steps) {
    if (sniff.active !== null) return;
    if (profile.has(step.consumer)) recordFindings(sniff, step.read(body, budget));
  }
}

/** The step that reads a binary body by `consumer`'s binary reading `name`. */
export function binaryStep<R extends Readonly<Record<string, BinaryReading>>>(
  consumer: ContentConsumer & { readonly binaryReadings: R },
  name: keyof R,
): BinaryStep {
  return { consumer: consumer.id, read: consumer.binaryReadings[name] as BinaryReading };
}

/** The step that judges an executable kind: its launcher (`lnk`) or shell (other executables); none when no consumer runs it. */
export function executableStep(kind: string): BinaryStep | null {
  const consumer = binaryConsumerOf(kind);
  if (consumer === 'launcher') return binaryStep(launcherConsumer, 'executable');
  return consumer === 'shell' ? binaryStep(shellConsumer, 'executable') : null;
}

/** The consumer that runs or opens a binary kind (`pdf` a PDF reader, `lnk` a launcher, other executables a shell), or null when none of them reads it. */
export function binaryConsumerOf(kind: string): ConsumerId | null {
  if (kind === 'pdf') return 'pdf-reader';
  if (kind === 'lnk') return 'launcher';
  return familyOf(kind) === 'executable' ? 'shell' : null;
}

// each finding's slot is set unless it already holds one: the first consumer's finding stands; unsafe characters are
// each kept
function recordFindings(sniff: ContentSniff, findings: readonly ConsumerFinding[]): void {
  for (const f of findings)
    if (f.slot === 'unsafe') sniff.unsafe = [...sniff.unsafe, f.message];
    else if (sniff[f.slot] === null) sniff[f.slot] = f.message;
}
