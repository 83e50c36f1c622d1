// The parsers consumers use, loaded on first need: a hook event is one process start, and most items (images,
// plain prose) never need them, so the CLI's cold start does not pay for them. `require` of these ESM packages
// is synchronous on Node ≥ 20.19, which keeps the sniff synchronous.
import { createRequire } from 'node:module';
import type * as Acorn from 'acorn';
import type * as Parse5 from 'parse5';
import type { DefaultTreeAdapterMap, Token } from 'parse5';
import type * as Saxes from 'saxes';

const load = createRequire(import.meta.url);

let parse5: typeof Parse5 | undefined;
let saxes: typeof Saxes | undefined;

/** parse5, the WHATWG HTML parser. */
export function html5(): typeof Parse5 {
  parse5 ??= load('parse5') as typeof Parse5;
  return parse5;
}

/** A hook parse5's tree builder calls before it takes each tag: the tag, whether it starts an element, and how many elements are open. */
export type TagHook = (token: Token.TagToken, start: boolean, open: number) => void;

// parse5's Parser with a tag hook, one class for every parse: a class made per parse gives V8 a new shape each time,
// and parse5's own code ran 1.8× slower on the pages markdown renderers make (37 → 66 ns per character)
interface SeeingParser extends Parse5.Parser<DefaultTreeAdapterMap> {
  hook: TagHook;
}
let seeingParser: (new () => SeeingParser) | undefined;
// one parser of a small page, kept for the life of the process: parse5's shapes then outlive a full garbage
// collection, and its optimized code with them (markdown/kept-shapes.ts)
let keptParser: SeeingParser | undefined;

/** The document parse5 builds of `text` (as a browser parses a page), calling `hook` before it takes each start and end tag. */
export function parseHtmlSeeingTags(text: string, hook: TagHook): DefaultTreeAdapterMap['document'] {
  seeingParser ??= class extends html5().Parser<DefaultTreeAdapterMap> implements SeeingParser {
    hook: TagHook = () => {};
    override onStartTag(token: Token.TagToken): void {
      this.hook(token, true, this.openElements.stackTop + 1);
      super.onStartTag(token);
    }
    override onEndTag(token: Token.TagToken): void {
      this.hook(token, false, this.openElements.stackTop + 1);
      super.onEndTag(token);
    }
  };
  if (keptParser === undefined) {
    keptParser = new seeingParser();
    keptParser.tokenizer.write(
      '<p class="a">x <kbd>y</kbd> <a href="b">c</a> &amp;</p><pre><code>d</code></pre>',
      true,
    );
  }
  const parser = new seeingParser();
  parser.hook = hook;
  parser.tokenizer.write(text, true);
  return parser.document;
}

/** saxes, a strict namespace-aware XML parser. */
export function xmlParser(): typeof Saxes {
  saxes ??= load('saxes') as typeof Saxes;
  return saxes;
}

let acorn: typeof Acorn | undefined;

/** acorn, an ECMAScript parser. */
export function ecmaScript(): typeof Acorn {
  acorn ??= load('acorn') as typeof Acorn;
  return acorn;
}
