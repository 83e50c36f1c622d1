import type { ConsumerProfile } from './consumers/content-consumer.ts';
import type { WorkBudget } from './work-budget.ts';

/** What the bytes of one item really are; findings are one-line messages, never body text. */
export interface ContentSniff {
  /** real kind id from our table, `empty`, `unknown`, or a file-type extension the table does not list */
  kind: string;
  /** true when the bytes were read as text (UTF-8, UTF-16, or windows-1252 when they hold no binary data byte) */
  textual: boolean;
  /** why the bytes are executable or active, or null */
  active: string | null;
  /** script in JSON text read as text or markdown rather than as JSON data (declared other than JSON, it is active), or null */
  activeUnlessJson: string | null;
  /** script that only the raw text read as HTML holds, not the pages markdown renderers make of it (declared other than markdown, it is active), or null */
  activeUnlessMarkdown: string | null;
  /** what a consumer would load from elsewhere by itself as it shows the bytes (a css `@import`), or null */
  remoteLoad: string | null;
  /** bidi controls or zero-width characters in text (a policy may withhold them), or null (also when `findInvisible` is false) */
  invisible: string | null;
  /** unsafe characters or encodings in text (NUL, terminal escapes, UTF-16 without BOM); empty when clean */
  unsafe: readonly string[];
  /** why the bytes cannot be interpreted safely (truncated, encrypted, uninspectable), or null */
  uninterpretable: string | null;
  /** image size from its header, pixels; null when not an image or not stated */
  width: number | null;
  height: number | null;
  /** why checking the bytes ran out of its work budget (the item is withheld), or null */
  tooComplex: string | null;
}

/** Options of a sniff. */
export interface SniffOptions {
  /** the item's original text when it came as `text` (lone surrogates are lost in its utf-8 bytes) */
  text?: string;
  /** budget for inflating compressed PDF streams, bytes */
  maxInflateBytes?: number;
  /** look for bidi controls and zero-width characters (default true); a policy that does not flag them skips the search */
  findInvisible?: boolean;
  /** the item's declared mime type (normalized), when known: a body declared a data type (JSON, CSV, …) is not rendered as markdown */
  declaredMime?: string | null;
  /** the item's uri, when known: its extension names the consumers that read it (a `.ts` file declared text/plain is not rendered as markdown) */
  uri?: string;
  /** the consumers the policy protects (`content.consumers`); absent: the default profile */
  consumers?: ConsumerProfile;
  /** the item's work budget, shared by every check (default: `WorkBudget.forBytes` of the item, fresh for each attempt) */
  budget?: WorkBudget;
}

/** A sniff of `kind` with nothing found yet; the detectors fill in what they find. */
export function blankSniff(kind: string, textual: boolean): ContentSniff {
  return {
    kind,
    textual,
    active: null,
    activeUnlessJson: null,
    activeUnlessMarkdown: null,
    remoteLoad: null,
    invisible: null,
    unsafe: [],
    uninterpretable: null,
    width: null,
    height: null,
    tooComplex: null,
  };
}

/** The kind found so far, kept so that a sniff that runs out of budget still says what the bytes are. */
export interface SeenKind {
  kind: string;
  textual: boolean;
}
