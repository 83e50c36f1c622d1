// The parsers consumers use, loaded on first need: a hook event is one process start, and most items (images,
// plain prose) never need them, so the CLI's cold start does not pay for them. `require` of these ESM packages
// is synchronous on Node ≥ 20.19, which keeps the sniff synchronous.
import { createRequire } from 'node:module';
import type * as Acorn from 'acorn';
import type * as Parse5 from 'parse5';
import type * as Saxes from 'saxes';

const load = createRequire(import.meta.url);

let parse5: typeof Parse5 | undefined;
let saxes: typeof Saxes | undefined;

/** parse5, the WHATWG HTML parser. */
export function html5(): typeof Parse5 {
  parse5 ??= load('parse5') as typeof Parse5;
  return parse5;
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
