// A markdown text's UTF-8 bytes and its two whole-text line readings (indented code, html block lines), each made
// once, when first asked for, and shared by the screen of the whole text and its cutting (`planMarkdown`): before,
// the screen encoded the text and read those lines (up to twice each), and the cutting encoded it and read them all
// again (issue 42: 8 MiB of READMEs). What each reader charges for the lines is counted where it asks for them, as
// before; only the reading is shared.
import { type IndentedCode, indentedCode } from './indented-code.ts';
import { type HtmlBlockLines, htmlBlockLines } from './raw-html-grammar.ts';

/** The text's bytes and line readings, each made on first use: `bytes` (UTF-8, as `Buffer.from` encodes it), `indented` (indented-code.ts), `blocks` (raw-html-grammar.ts `htmlBlockLines`). A reading may be handed in by a pass that read it already (`keep`). */
export class MarkdownBytes {
  private utf8: Buffer | undefined;
  private indentedLines: IndentedCode | undefined;
  private blockLines: HtmlBlockLines | undefined;

  constructor(readonly text: string) {}

  /** the text in UTF-8 */
  get bytes(): Buffer {
    this.utf8 ??= Buffer.from(this.text, 'utf8');
    return this.utf8;
  }

  /** the indented code lines of the whole text */
  get indented(): IndentedCode {
    this.indentedLines ??= indentedCode(this.bytes);
    return this.indentedLines;
  }

  /** the html block lines of the whole text */
  get blocks(): HtmlBlockLines {
    this.blockLines ??= htmlBlockLines(this.bytes);
    return this.blockLines;
  }

  /** The readings made so far: for a pass that reads the lines itself when they are not (fenced-lines.ts). */
  get made(): { indented: IndentedCode | undefined; blocks: HtmlBlockLines | undefined } {
    return { indented: this.indentedLines, blocks: this.blockLines };
  }

  /** Keeps the readings a pass over the whole text made (fenced-lines.ts), for later askers. */
  keep(indented: IndentedCode, blocks: HtmlBlockLines): void {
    this.indentedLines ??= indented;
    this.blockLines ??= blocks;
  }
}
