// One consumer of a body: the software a host hands it to (a browser, a markdown renderer, a notebook viewer, a
// PDF reader, a launcher, a shell, a build-time compiler). Each adapter says which bodies it reads and judges them
// with the consumer's own parser (or the one it is built on); the profile (`content.consumers`) names the ones a
// policy protects.
import type { TextKind } from '../text/text-kind.ts';
import type { WorkBudget } from '../work-budget.ts';

/** The consumers a policy may name in `content.consumers`. */
export const consumerIds = [
  'browser',
  'markdown',
  'notebook',
  'pdf-reader',
  'launcher',
  'shell',
  'terminal',
  'mdx',
  'vitepress',
] as const;

/** The id of one consumer, as written in `content.consumers`. */
export type ConsumerId = (typeof consumerIds)[number];

/** The consumers a policy protects; judging asks only these. */
export type ConsumerProfile = ReadonlySet<ConsumerId>;

/** Build-time consumers a policy names itself; every other consumer is in the default profile. */
export const optInConsumerIds: readonly ConsumerId[] = ['mdx', 'vitepress'];

/** The consumers a policy protects when `content.consumers` is absent. */
export const defaultConsumerIds: readonly ConsumerId[] = consumerIds.filter((id) => !optInConsumerIds.includes(id));

/** The default profile. */
export const defaultProfile: ConsumerProfile = Object.freeze(new Set(defaultConsumerIds));

/** The consumers of the default profile that `named` (a policy's `content.consumers`) leaves out, in the default's order. */
export function droppedDefaults(named: Iterable<ConsumerId>): ConsumerId[] {
  const kept = new Set(named);
  return defaultConsumerIds.filter((id) => !kept.has(id));
}

/**
 * The profile a policy protects: `content.consumers` (absent: the default), with `terminal` always in it (a list written
 * before `terminal` was a consumer could not name it, and leaving it out must not be a list's silence), less what
 * `content.excludeConsumers` names: the one way to leave a consumer of every text body out (a GUI-only host).
 */
export function consumerProfile(
  ids: readonly ConsumerId[] | undefined,
  excluded: readonly ConsumerId[] = [],
): ConsumerProfile {
  if (ids === undefined && excluded.length === 0) return defaultProfile;
  const profile = new Set<ConsumerId>(ids ?? defaultConsumerIds);
  profile.add('terminal');
  for (const id of excluded) profile.delete(id);
  return Object.freeze(profile);
}

/** One row of the documented coverage: how a body reaches the consumer, what is judged, and what is not. */
export interface ConsumerCoverage {
  consumer: string;
  /** how a body is taken to reach it: declared type, uri extension, its own bytes */
  reaches: string;
  /** what of the body is judged, and with which parser */
  judged: string;
  /** what it does not cover */
  notCovered: string;
}

/** A text body as the consumers see it: its UTF-8 bytes, its kind by its own bytes, what it was declared as and named. */
export interface TextBody {
  /** the whole item's bytes */
  bytes: Buffer;
  /** its text as UTF-8, past any byte order mark */
  utf8: Buffer;
  /** the decoded text, made on first need */
  text: () => string;
  /** the markup screen's answer for the text (`mayHoldActiveMarkupUtf8`), made once on first need for every consumer */
  mayHoldActiveMarkup: () => boolean;
  /** whether `bytes` hold a byte, each byte searched for once for every consumer: a longer search is skipped when its first byte is missing */
  mayHold: (byte: number) => boolean;
  kind: TextKind;
  /** the declared mime type (normalized), or null */
  declaredMime: string | null;
  /** the declared type's kind id (`markdown`, `json`, …), or null when undeclared or unknown */
  declaredKind: string | null;
  /** the declared data kind (`json`, `csv`, …) a consumer parses rather than renders, or null */
  declaredData: string | null;
  /** the item's uri, when known */
  uri: string | undefined;
  /** the lower-case extension of the item's uri, or null */
  extension: string | null;
  /** the findings of what a terminal acts on in the text (escape sequences, its C1 and C0 controls), from the one scan of its characters */
  terminalControls: readonly string[];
  /** true when its declared type or name hands it to an XML parser (application/xml, application/xhtml+xml, `.xml`, `.xhtml`, `.svg`, …) */
  readByXml: boolean;
  /** budget for inflating compressed PDF streams, bytes (absent: the PDF reader's default) */
  maxInflateBytes: number | undefined;
  /** the parsed JSON of a `json` body, made on first need */
  json: () => unknown;
}

/** The verdict slots a consumer fills on the sniff: `active` (denied whatever the declared type), or active only under a declared type other than JSON or markdown, `remoteLoad` (a load from elsewhere the consumer makes by itself), `uninterpretable`, and `unsafe` (characters unsafe to show raw: every such finding is kept). */
export type VerdictSlot =
  | 'active'
  | 'activeUnlessJson'
  | 'activeUnlessMarkdown'
  | 'remoteLoad'
  | 'uninterpretable'
  | 'unsafe';

/** What one consumer found in a body: the slot and a one-line message. */
export interface ConsumerFinding {
  slot: VerdictSlot;
  message: string;
}

/** A binary body as the consumers see it: its real kind and bytes, and what its format reader found (sniff-binary.ts). */
export interface BinaryBody {
  /** the real kind by its bytes (`png`, `pdf`, `jar`, …) */
  kind: string;
  bytes: Buffer;
  /** budget for inflating compressed PDF streams, bytes (absent: the PDF reader's default) */
  maxInflateBytes: number | undefined;
  /** where the format's own structure ends (an image's end marker), 0 when it has none */
  end: number;
  /** what the format reader found inside for the consumer that opens it (the code a zip archive carries, HTML in an image's metadata), or null */
  carried: string | null;
}

/** One way a consumer reads a binary body: what it makes active of it, in the order found. */
export type BinaryReading = (body: BinaryBody, budget: WorkBudget) => ConsumerFinding[];

/** One step of judging a binary format: a consumer and one of its binary readings. */
export interface BinaryStep {
  readonly consumer: ConsumerId;
  readonly read: BinaryReading;
}

/** One consumer adapter: the bodies it reads and how it judges them, with the rows the policy reference prints. */
export interface ContentConsumer {
  readonly id: ConsumerId;
  /** false for the default profile's consumers; true for build-time consumers a policy names itself */
  readonly optIn: boolean;
  /** the rows of docs/policy-reference.md */
  readonly coverage: readonly ConsumerCoverage[];
  /** what a policy gives up by leaving it out of the profile */
  readonly leftOut: string;
  /** text kinds that exist only because this consumer reads them (a launcher's group, a shebang): recognised only when it is in the profile */
  readonly textKinds?: readonly TextKind[];
  /** true when this consumer would read the text body */
  readsText(body: TextBody): boolean;
  /** what the consumer makes active of the body, in the order found; an empty list when nothing */
  judgeText(body: TextBody, budget: WorkBudget): ConsumerFinding[];
  /** the ways it reads binary bodies, by name: the binary format readers (sniff-binary.ts) name which readings judge each format, in order */
  readonly binaryReadings?: Readonly<Record<string, BinaryReading>>;
}

/** A finding in `slot` when `message` is not null; none otherwise. */
export function foundIn(slot: VerdictSlot, message: string | null): ConsumerFinding[] {
  return message === null ? [] : [{ slot, message }];
}
