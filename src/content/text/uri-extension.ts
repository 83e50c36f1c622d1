// The file extension of an item's uri, and what it tells about the consumers that would read the body: source
// code no markdown renderer or browser renders (a `.ts` or `.css` file shown as text/plain is shown as text).

// source languages whose files editors, compilers and browsers (as text/plain) show as text: none of them is a
// markdown or html document to any consumer of the default profile (a template named `page.html.erb` is named by its
// last extension, `.erb`, as editors and servers name it)
const sourceExtensions: ReadonlySet<string> = new Set([
  'ts',
  'mts',
  'cts',
  'tsx',
  'js',
  'mjs',
  'cjs',
  'jsx',
  'css',
  'scss',
  'sass',
  'less',
  'py',
  'pyi',
  'rb',
  'go',
  'rs',
  'java',
  'kt',
  'kts',
  'scala',
  'c',
  'h',
  'cc',
  'cpp',
  'cxx',
  'hpp',
  'hh',
  'cs',
  'swift',
  'm',
  'mm',
  'lua',
  'dart',
  'zig',
  'ex',
  'exs',
  'erl',
  'hs',
  'ml',
  'mli',
  'fs',
  'clj',
  'r',
  'jl',
  'nim',
  'sql',
  'graphql',
  'proto',
  // data files editors and hosts show as code: a JSON schema's descriptions spell `\\<iframe>`, which a renderer
  // would pass on as a live tag
  'json',
  'xml',
  // component and template sources: compiled or rendered on a server or at build, never by a consumer of the default
  // profile by their name (a browser opens none of them as a page, no markdown renderer is handed one); `.mdx` is the
  // MDX compiler's and markdown renderers', `.html`/`.htm` a browser's
  'vue',
  'svelte',
  'astro',
  'erb',
  'hbs',
  'handlebars',
  'mustache',
  'ejs',
  'njk',
  'liquid',
  'twig',
  'jinja',
  'jinja2',
  'j2',
  'php',
  // text a host shows as text by its name, whatever it quotes (a page's markup in a patch, a head snippet in a site's
  // config, probes in a server's log): shell scripts, patches, configuration and logs; no renderer is handed one
  'sh',
  'bash',
  'zsh',
  'patch',
  'diff',
  'yaml',
  'yml',
  'toml',
  'ini',
  'cfg',
  'conf',
  'properties',
  'env',
  'log',
  // documentation sources of other markup languages: reStructuredText (docutils indents a code block by three spaces,
  // too few for a markdown code block) and TeX (verbatim environments); neither is handed to a markdown renderer
  'rst',
  'tex',
]);

// the variants of a dotenv file (`.env.local`, `.env.example`, …) that editors and hosts name dotenv as they name `.env`
const dotenvVariants: ReadonlySet<string> = new Set([
  'ci',
  'defaults',
  'dev',
  'development',
  'dist',
  'example',
  'local',
  'prod',
  'production',
  'sample',
  'staging',
  'template',
  'test',
  'testing',
]);

/** The lower-case extension of the last path segment of `uri` (`d.ts` counts as `ts`; a dotfile `.env` is named `env`, as `.env.local`), or null when it has none or the uri does not parse. A read asks once per item (sniff-text.ts) and hands the answer on. */
export function uriExtension(uri: string | undefined): string | null {
  if (uri === undefined) return null;
  // no url, no extension: the caller reads the body as it would any other
  const url = URL.parse(uri);
  if (url === null) return null;
  const path = url.pathname;
  const segment = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = segment.lastIndexOf('.');
  if (dot === segment.length - 1) return null;
  // a dotfile is named by its name (`.env`, `.bashrc`): a host going by the name reads `.env` as it reads `site.env`
  // (an attacker who names a file may name it `site.env` as well: the name gives it nothing a name did not)
  if (dot === 0) return segment.slice(1);
  if (dot === -1) return null;
  if (segment.startsWith('.env.') && dotenvVariants.has(segment.slice(5))) return 'env';
  return segment.slice(dot + 1);
}

/** True when `extension` (a uri's, from `uriExtension`) names a source file: declared text/plain, no markdown renderer in the profile reads it. */
export function isSourceCodeExtension(extension: string | null): boolean {
  return extension !== null && sourceExtensions.has(extension);
}

// data files among the source extensions: a host going by the name opens them by their type (a browser renders a
// `.xml` file as an XML document, its XHTML and SVG script included), not as code
const dataExtensions: ReadonlySet<string> = new Set(['json', 'xml']);

/** True when `extension` (a uri's) names program or template source (`App.vue`, `list.hbs`, `index.php`): a source file that is not data (`.json`, `.xml`). */
export function isProgramSourceExtension(extension: string | null): boolean {
  return extension !== null && sourceExtensions.has(extension) && !dataExtensions.has(extension);
}

// the extensions a browser opens from disk with its XML parser (XML, XHTML, SVG, MathML, XSLT, feeds): elements in
// the XHTML namespace are live in them whatever their root or prefix
const xmlDocumentExtensions: ReadonlySet<string> = new Set([
  'xml',
  'xhtml',
  'xht',
  'svg',
  'mml',
  'xsl',
  'xslt',
  'rss',
  'atom',
  'rdf',
]);

/** True when `extension` (a uri's) names a document a browser opens with its XML parser (`.xml`, `.xhtml`, `.svg`, …). */
export function isXmlDocumentExtension(extension: string | null): boolean {
  return extension !== null && xmlDocumentExtensions.has(extension);
}

/** True when `extension` (a uri's) names an XHTML page (`.xhtml`, `.xht`), which a browser opens with its XML parser. */
export function isXhtmlExtension(extension: string | null): boolean {
  return extension === 'xhtml' || extension === 'xht';
}

// the extensions a browser opens from disk as an HTML page
const pageExtensions: ReadonlySet<string> = new Set(['html', 'htm', 'xhtml', 'xht', 'shtml', 'mht', 'mhtml']);

/** True when `extension` (a uri's) names a page a browser opens from disk (`.html`, `.htm`, `.xhtml`, …). */
export function isPageExtension(extension: string | null): boolean {
  return extension !== null && pageExtensions.has(extension);
}

// the extensions of a markdown document
const markdownExtensions: ReadonlySet<string> = new Set(['md', 'markdown', 'mdown', 'mkd', 'mkdn']);

/** True when `extension` (lower case, no dot) names a markdown document (`README.md`): a host going by the name renders markdown. */
export function isMarkdownExtension(extension: string | null): boolean {
  return extension !== null && markdownExtensions.has(extension);
}

/** True when `extension` (a uri's) names a table (`.csv`, `.tsv`), which spreadsheets and csv viewers read as cells. */
export function isTableExtension(extension: string | null): boolean {
  return extension === 'csv' || extension === 'tsv';
}
