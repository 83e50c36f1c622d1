// Text items: read as UTF-8 bytes (or decoded UTF-16), classified, and judged by the readers each kind reaches.
import { blankSniff, type ContentSniff, type SeenKind, type SniffOptions } from './content-sniff.ts';
import { describeExecutable } from './executable-kinds.ts';
import { pdfFindings } from './sniff-pdf.ts';
import { findActiveMarkupUtf8, readMarkup } from './svg-html/active-markup.ts';
import { decodeText, hasLoneSurrogate, utf8TextStart } from './text/text-encoding.ts';
import { declaredDataKind, kindOfMime } from './kinds.ts';
import { classifyUtf8 } from './text/text-kind.ts';
import { isSourceCodeUri, uriExtension } from './text/uri-extension.ts';
import { allInCodeBlocks } from './markdown/code-lines.ts';
import { findActiveNotebook, isNotebook } from './notebook/active-notebook.ts';
import { findInvisibleUtf8, findUnsafeText, findUnsafeUtf8 } from './text/unsafe-text.ts';
import type { WorkBudget } from './work-budget.ts';

/**
 * Text as the checks read it: its UTF-8 bytes (past any byte order mark), searched natively, and the decoded
 * string, made only when a parser or the JSON check must read it.
 */
export interface TextView {
  utf8: Buffer;
  text: () => string;
  /** findings of the string scan (UTF-16), or null when the UTF-8 bytes are scanned */
  unsafe: string[] | null;
  issues: readonly string[];
}

/** The bytes as text, or null when they are not text; UTF-8 stays bytes (a text carrier's string is reused), UTF-16 is decoded. */
export function readText(bytes: Buffer, hasNul: boolean, original: string | undefined): TextView | null {
  if (original !== undefined && !hasNul) {
    const bom = original.charCodeAt(0) === 0xfeff;
    return {
      utf8: bom ? bytes.subarray(3) : bytes,
      text: () => (bom ? original.slice(1) : original),
      unsafe: null,
      issues: [],
    };
  }
  const from = utf8TextStart(bytes);
  if (from !== -1) {
    const utf8 = bytes.subarray(from);
    let decoded: string | undefined;
    return { utf8, text: () => (decoded ??= utf8.toString('utf8')), unsafe: null, issues: [] };
  }
  const decoded = decodeText(bytes);
  if (decoded === null) return null;
  return {
    utf8: Buffer.from(decoded.text, 'utf8'),
    text: () => decoded.text,
    unsafe: findUnsafeText(decoded.text),
    issues: decoded.issues,
  };
}

/** Judges a text item: its kind, unsafe and invisible characters, and what its readers would make active. */
export function textFindings(
  bytes: Buffer,
  view: TextView,
  options: SniffOptions,
  budget: WorkBudget,
  seen: SeenKind,
): ContentSniff {
  budget.spend('text', bytes.length);
  const unsafe = view.unsafe ?? findUnsafeUtf8(bytes);
  if (view.issues.length > 0) unsafe.unshift(...view.issues);
  if (options.text !== undefined && hasLoneSurrogate(options.text))
    unsafe.push('text holds unpaired utf-16 surrogates');
  const textKind = classifyUtf8(view.utf8, 0, view.text, shortcutShownAsCode(view, options, budget));
  seen.kind = textKind;
  seen.textual = true;
  const sniff = blankSniff(textKind, true);
  sniff.unsafe = unsafe;
  sniff.invisible = options.findInvisible === false ? null : findInvisibleUtf8(view.utf8);
  if (textKind === 'pdf') {
    const pdf = pdfFindings(bytes, options, budget);
    sniff.active = pdf.active;
    sniff.uninterpretable = pdf.uninterpretable;
    return sniff;
  }
  const executable = describeExecutable(textKind);
  if (executable !== null) {
    sniff.active = executable;
    return sniff;
  }
  if (textKind === 'svg' || textKind === 'xml') {
    const markup = readMarkup(view.text(), textKind, budget);
    // XML also reaches readers that never parse it as XML: XML declared as text reaches markdown renderers and
    // HTML parsers, and SVG is inlined into HTML pages; both read comments, CDATA sections and processing
    // instructions the HTML way (`<!--><img onerror=…>-->` holds a live element), so they judge it too
    sniff.active =
      markup.active ?? findActiveMarkupUtf8(view.utf8, textKind === 'svg' ? 'html' : 'text', view.text, budget);
    // an image/svg+xml reader stops at the first error; what a lenient reader makes of the rest is unknown
    if (textKind === 'svg' && markup.malformed !== null)
      sniff.uninterpretable = `svg is not well-formed xml: ${markup.malformed}`;
  } else if (textKind === 'html') {
    sniff.active = findActiveMarkupUtf8(view.utf8, 'html', view.text, budget);
  } else if (textKind === 'text' || textKind === 'json') {
    if (textKind === 'text' && options.declaredMime === 'text/plain' && isSourceCodeUri(options.uri)) return sniff;
    judgeProse(sniff, view, declaredDataKind(options.declaredMime), budget);
  }
  return sniff;
}

// Text that may be prose: markdown is what its renderers make of it (a `<script>` shown in a code block is text);
// other text may reach a reader that takes the raw text as HTML, JSON a renderer that takes it as text or markdown
// (`["<script>…</script>"]` declared text/markdown renders the script); judgeContent decides by the declared type.
// A body declared a data type is parsed by its consumer, not rendered: it is read as HTML only (a host that sniffs
// it), and JSON declared JSON is data and nothing else, so the renderers' work on it is never spent.
function judgeProse(sniff: ContentSniff, view: TextView, data: string | null, budget: WorkBudget): void {
  if (sniff.kind === 'json') {
    // a notebook is rendered by its viewers whatever it is declared as: its cells and outputs are judged as they show them
    budget.spend('json', view.utf8.length);
    const parsed: unknown = JSON.parse(view.text());
    if (isNotebook(parsed)) {
      sniff.active = findActiveNotebook(parsed, budget);
      if (sniff.active !== null) return;
    }
    if (data !== 'json')
      sniff.activeUnlessJson = findActiveMarkupUtf8(view.utf8, data === null ? 'text' : 'html', view.text, budget);
  } else if (data !== null) {
    sniff.activeUnlessMarkdown = findActiveMarkupUtf8(view.utf8, 'html', view.text, budget);
  } else {
    sniff.active = findActiveMarkupUtf8(view.utf8, 'markdown', view.text, budget);
    if (sniff.active === null) sniff.activeUnlessMarkdown = findActiveMarkupUtf8(view.utf8, 'html', view.text, budget);
  }
}

// A Windows shortcut (`.url`) or a desktop launcher (`.desktop`) runs when a file of that name is opened; a body that
// reaches that reader by its name or its declared type is one wherever its group stands. Any other body showing
// the group only inside code blocks is a document about them (a how-to with an example), not one
const launcherExtensions: Readonly<Record<string, string>> = { 'url-shortcut': 'url', 'desktop-launcher': 'desktop' };

function shortcutShownAsCode(
  view: TextView,
  options: SniffOptions,
  budget: WorkBudget,
): (kind: 'url-shortcut' | 'desktop-launcher', sections: readonly number[]) => boolean {
  const extension = uriExtension(options.uri);
  const declared =
    options.declaredMime === undefined || options.declaredMime === null
      ? undefined
      : kindOfMime(options.declaredMime)?.id;
  return (kind, sections) =>
    extension !== launcherExtensions[kind] &&
    declared !== kind &&
    allInCodeBlocks(view.utf8, view.text(), sections, budget);
}
