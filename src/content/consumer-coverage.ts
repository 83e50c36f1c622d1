// The consumers the content rules protect, and how a body reaches each: the documented profile, printed in
// docs/policy-reference.md. Every consumer is read with its own parser (or the one it is built on); what a
// consumer does not cover is said next to what it does.

/** One consumer: how a body is found to reach it, what is judged, and what is not. */
export interface ConsumerCoverage {
  consumer: string;
  /** how a body is taken to reach it: declared type, uri extension, its own bytes */
  reaches: string;
  /** what of the body is judged, and with which parser */
  judged: string;
  /** what it does not cover */
  notCovered: string;
}

/** The consumers every policy protects today (one profile, not yet a setting). */
export const consumerCoverage: readonly ConsumerCoverage[] = [
  {
    consumer: 'browsers: HTML',
    reaches:
      'bytes whose markup root is html; any text read raw as HTML by a sniffing host (text declared other than markdown)',
    judged:
      'parse5 tree and tokenizer start tags: script, plugins, handlers, script and markup `data:` urls, css, `srcdoc` and conditional comments (4 levels)',
    notCovered: 'script loaded from elsewhere by an allowed url (links are judged as links, not fetched)',
  },
  {
    consumer: 'browsers: SVG as a document',
    reaches: 'bytes whose markup root is svg, whatever the declared type',
    judged:
      'saxes (namespaces, entities): element and attribute allow-lists, DTD subsets, xml-stylesheet, `foreignObject` xhtml as a rendered page (meta refresh, frames, forms, base); the same bytes through parse5 as HTML',
    notCovered: 'nesting past 256 levels (withheld as too complex)',
  },
  {
    consumer: 'browsers: SVG as an image',
    reaches: 'an svg `data:` url in `<image href>`, `<feImage href>` or `<img src>`',
    judged: 'nothing runs in image mode (script off, no loads), so the url is inert there; elsewhere it is a document',
    notCovered: 'markdown image syntax with an svg `data:` url (still denied)',
  },
  {
    consumer: 'markdown renderers: CommonMark, GFM, markdown-it, marked',
    reaches:
      'text declared markdown, or text/plain and undeclared text unless its uri names a source file (`.ts`, `.css`, `.py`, … are shown as text)',
    judged:
      'markdown-it (commonmark and default presets), micromark with GFM, marked, commonmark.js: every rendered page through parse5; destinations and reference definitions from markdown-it tokens',
    notCovered:
      'MDX and VitePress (build-time consumers: expressions, directives, `{…}` attributes, frontmatter `head`)',
  },
  {
    consumer: 'notebook viewers (nbconvert, JupyterLab, nbviewer)',
    reaches: 'JSON with a `cells` (nbformat 4) or `worksheets` (nbformat 3) list, whatever the declared type',
    judged:
      'markdown cells and markdown outputs as markdown, html outputs as HTML, svg outputs as SVG, javascript outputs as script, raw cells by their format',
    notCovered: 'widget outputs (`application/vnd.jupyter.widget-view+json`), whose code a viewer loads from elsewhere',
  },
  {
    consumer: 'PDF readers (pdf.js, Acrobat)',
    reaches:
      'a `%PDF-` header in the first KiB; in an image, any PDF structure (`startxref`, `trailer`, `%%EOF`) anywhere',
    judged:
      'the object layer and inflated streams (object streams, objects hidden in stream data 4 deep) for script, launch, attachments, forms, rich media; empty-password encryption (RC4, AESV2, AESV3) decrypted first',
    notCovered: 'filters other than FlateDecode on object streams (withheld), files that need a password (withheld)',
  },
  {
    consumer: 'desktop launchers and shortcuts',
    reaches:
      'a `[Desktop Entry]` group with an `Exec` key, an `[InternetShortcut]` section, `.lnk`; a group shown only in code blocks of a document not named `.desktop`/`.url` is code',
    judged: 'executable: denied',
    notCovered: 'launchers in other desktop formats (`.command`, `.webloc`)',
  },
  {
    consumer: 'shells and interpreters',
    reaches:
      'a `#!` first line, registry imports, PostScript, HTA, executables and archives that carry code (jar, apk, extensions, macro documents)',
    judged: 'executable: denied',
    notCovered: 'plain-text source without a shebang (shown as text; never executed by a consumer of the profile)',
  },
];

/** The coverage as a markdown table, for the policy reference. */
export function consumerCoverageMarkdown(): string {
  const cell = (text: string): string => text.replaceAll('|', '\\|');
  const rows = consumerCoverage.map(
    (c) => `| ${cell(c.consumer)} | ${cell(c.reaches)} | ${cell(c.judged)} | ${cell(c.notCovered)} |`,
  );
  return [
    '| consumer | a body reaches it when | what is judged | not covered |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
