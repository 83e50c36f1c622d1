// The parsers' object shapes kept alive for the life of the process. V8's optimized code checks the maps (hidden
// classes) of the objects it reads; a map reached by adding fields (a class's fields, a constructor's `this.x = …`)
// is held only by the objects that have it, and a full garbage collection that finds none alive frees it and throws
// away every optimized function that checked it ("weak objects" in `--trace-deopt`). Between two reads nothing of a
// parse is alive, so after each full collection (the bench forces one before every round; an idle resident process
// runs them) markdown-it, marked, parse5 and the gate's own classes ran unoptimized and were compiled again: the
// notebook at the bound took 1.1–1.4 s of CPU after one, 0.3–0.45 s without. One instance of each such class, made
// from a small specimen and kept here, keeps those maps, and the code checking them, alive.

const kept: unknown[] = [];

/** A small markdown text holding the constructs ordinary READMEs and notebook cells hold (headings, emphasis, code, links, images, lists, a fence, a quote, a table, inline html, an entity), parsed once by each renderer to make its shapes. */
export const shapeSpecimen = [
  '# Title\n\n',
  'Some *emphasis*, **strong**, `code`, ~~struck~~, a [link](https://example.com/a "t") and ![an image](a.png) &amp; <kbd class="k">Ctrl</kbd>.\n',
  'An autolink <https://example.com/> and a [reference][r].\n\n',
  '- one\n- two\n  1. three\n\n',
  '> quoted _text_\n\n',
  '```js\nconst a = 1;\n```\n\n',
  '| a | b |\n|---|---|\n| 1 | 2 |\n\n',
  '<div title="x">\nblock\n</div>\n\n',
  '[r]: https://example.com/r\n',
].join('');

/** Keeps `objects` (instances a parser made of `shapeSpecimen`) alive for the life of the process. */
export function keepShapes(...objects: unknown[]): void {
  kept.push(...objects);
}
