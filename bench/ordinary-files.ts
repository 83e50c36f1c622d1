// Over-blocking, measured (issue 41 acceptance: both hidden benign corpora ≥ 99.5% allowed). Ordinary files of the
// packages in node_modules (READMEs, changelogs, licences, sources, declarations, stylesheets, pages, SVG, JSON,
// notebooks, PDFs, raster images), sampled with a fixed seed, each read through the gate under policies/default.yaml
// (its default consumer profile) and under every consumer, opt-in ones included, as a typical MCP server sends it:
// declared by its extension (a type the policy does not admit is sent as text/plain, as the benign corpora do), as
// text/plain, a page also as text/html, and as an application/octet-stream blob (text/html and octet-stream are types
// the default policy refuses by name: judged with each added to `content.allow`, so the bytes decide). Prints the percentage allowed per mode (and of the files that are
// neither pages whose script a browser runs nor text holding controls a terminal acts on, both refused rightly) and
// every file withheld or denied with its reasons. test/conformance/ordinary-files.test.ts keeps the files it found
// over-blocked allowed.
//
// `--root DIR` samples another tree instead (/usr/share/doc, /usr/lib/python3: the Debian packages of the machine),
// with Python, reStructuredText, XML, TOML and INI files sampled too. `--noise N` adds N PNGs of 8 MiB of random
// pixels (deflated, as an encoder writes a photo's compressed data), seeded by `--seed`: compressed pixels spell the
// sniffed page screen's triggers by chance every few images, and each must still be allowed.
//
//   npx tsx bench/ordinary-files.ts [--sample 1500] [--seed 41] [--root DIR] [--noise 0] [--json out.json]
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isUtf8 } from 'node:buffer';
import { crc32, deflateSync } from 'node:zlib';
import { createGate, type Gate } from '../src/gate/create-gate.ts';
import { parsePolicy } from '../src/policy/load-policy.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(`--${name}`);
  if (at < 0) return fallback;
  return args[at + 1] ?? fallback;
};
const modulesDir = path.resolve(option('root', path.join(repoRoot, 'node_modules')));
const sampleSize = Number(option('sample', '1500'));
const seed = Number(option('seed', '41'));
const jsonOut = option('json', '');
const noiseImages = Number(option('noise', '0'));
const maxBytes = 4 * 1024 * 1024;

/** The type a typical server declares for a file name (mime-db's answer for the usual extensions). */
const typeByExtension: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  ts: 'text/typescript',
  mts: 'text/typescript',
  cts: 'text/typescript',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  css: 'text/css',
  html: 'text/html',
  htm: 'text/html',
  svg: 'image/svg+xml',
  json: 'application/json',
  ipynb: 'application/x-ipynb+json',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  csv: 'text/csv',
  yml: 'text/yaml',
  yaml: 'text/yaml',
  py: 'text/x-python',
  rst: 'text/x-rst',
  xml: 'application/xml',
  toml: 'application/toml',
  ini: 'text/plain',
  cfg: 'text/plain',
};
const binaryTypes = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

/** The sampling class of a file (its extension, `d.ts` and licences apart), or undefined when not sampled. */
function classOf(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (/^(readme|changelog|history|license|licence|notice|authors|contributing)(\.(md|markdown|txt))?$/.test(lower))
    return lower.startsWith('licen') || lower === 'notice' ? 'license' : lower.replace(/\..*$/, '') + '.md';
  if (lower.endsWith('.d.ts') || lower.endsWith('.d.mts') || lower.endsWith('.d.cts')) return 'd.ts';
  const ext = lower.includes('.') ? lower.slice(lower.lastIndexOf('.') + 1) : '';
  return typeByExtension[ext] === undefined ? undefined : ext;
}

function walk(dir: string, out: string[]): void {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // a folder the running user cannot read
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && !entry.isSymbolicLink()) walk(full, out);
    else if (entry.isFile() && classOf(entry.name) !== undefined) out.push(full);
  }
}

// mulberry32: a small seeded generator, so a seed names one sample
function random(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Up to `size` files, spread over classes (each class gets an equal share; what a class cannot fill goes to the rest). */
function sample(files: string[], size: number, next: () => number): string[] {
  const byClass = new Map<string, string[]>();
  for (const file of files.sort()) {
    const c = classOf(path.basename(file)) as string;
    byClass.set(c, [...(byClass.get(c) ?? []), file]);
  }
  for (const list of byClass.values())
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [list[i], list[j]] = [list[j] as string, list[i] as string];
    }
  const picked: string[] = [];
  const classes = [...byClass.keys()].sort();
  while (picked.length < size && classes.some((c) => (byClass.get(c) as string[]).length > 0))
    for (const c of classes) {
      const file = (byClass.get(c) as string[]).shift();
      if (file !== undefined && picked.length < size) picked.push(file);
    }
  return picked;
}

interface Outcome {
  file: string;
  mode: string;
  mimeType: string;
  effect: string;
  codes: string[];
  why: string;
}

const defaultYaml = readFileSync(path.join(repoRoot, 'policies/default.yaml'), 'utf8');
const allowed = new Set([...defaultYaml.matchAll(/^ {4}- ([a-z]+\/[\w.+-]+)\s*$/gm)].map((m) => m[1] as string));
const octetYaml = defaultYaml.replace(
  /^content:\n {2}allow:\n/m,
  'content:\n  allow:\n    - application/octet-stream\n',
);
// a page declared as the page it is (text/html), a type the default policy refuses by name: judged with it added to
// `content.allow`, so the bytes decide, as in the octet-stream mode
const pageYaml = defaultYaml.replace(/^content:\n {2}allow:\n/m, 'content:\n  allow:\n    - text/html\n');
const everyConsumer = (yaml: string): string =>
  yaml.replace(
    /^content:\n/m,
    'content:\n  consumers: [browser, markdown, notebook, pdf-reader, launcher, shell, mdx, vitepress]\n',
  );
const gateOf = (yaml: string): Gate => createGate(parsePolicy(yaml, 'default.yaml'));
const profiles: Record<string, { gate: Gate; octet: Gate; page: Gate }> = {
  default: { gate: gateOf(defaultYaml), octet: gateOf(octetYaml), page: gateOf(pageYaml) },
  'every consumer': {
    gate: gateOf(everyConsumer(defaultYaml)),
    octet: gateOf(everyConsumer(octetYaml)),
    page: gateOf(everyConsumer(pageYaml)),
  },
};

async function read(gate: Gate, file: string, mode: string, mimeType: string, bytes: Buffer): Promise<Outcome> {
  const rel = path.relative(modulesDir, file);
  const uri = `guide://corpus/${rel.split(path.sep).join('/')}`;
  const body =
    binaryTypes.has(mimeType) || mimeType === 'application/octet-stream'
      ? { blob: bytes.toString('base64') }
      : { text: bytes.toString('utf8') };
  const decision = await gate.decideRead({
    stage: 'read',
    link: { type: 'resource_link', uri, name: path.basename(file), mimeType },
    result: { resultType: 'complete', contents: [{ uri, mimeType, ...body }] },
  });
  const why = decision.reasons.map((r) => `${r.code}: ${r.message}`).join('; ');
  return { file: rel, mode, mimeType, effect: decision.effect, codes: decision.reasons.map((r) => r.code), why };
}

const all: string[] = [];
for (const entry of readdirSync(modulesDir, { withFileTypes: true }))
  if (entry.isDirectory() && !entry.name.startsWith('.')) walk(path.join(modulesDir, entry.name), all);
const files = sample(
  all.filter((f) => statSync(f).size > 0 && statSync(f).size <= maxBytes),
  sampleSize,
  random(seed),
);

const results: Outcome[] = [];
for (const file of files) {
  const bytes = readFileSync(file);
  const c = classOf(path.basename(file)) as string;
  const ext = c.endsWith('.md') ? 'md' : c === 'license' ? 'txt' : c === 'd.ts' ? 'ts' : c;
  const declared = typeByExtension[ext] as string;
  const text = !binaryTypes.has(declared) && isUtf8(bytes);
  const modes: [string, string][] = [['extension', allowed.has(declared) ? declared : 'text/plain']];
  if (text) modes.push(['text/plain', 'text/plain']);
  // a page is also sent as what it is: text/html, admitted (the extension mode sends it as text/plain)
  if (text && declared === 'text/html') modes.push(['text/html', 'text/html']);
  modes.push(['octet-stream', 'application/octet-stream']);
  for (const [profile, { gate, octet, page }] of Object.entries(profiles))
    for (const [mode, mimeType] of modes) {
      if (!text && !binaryTypes.has(mimeType) && mimeType !== 'application/octet-stream') continue;
      const judge = mode === 'octet-stream' ? octet : mode === 'text/html' ? page : gate;
      results.push(await read(judge, file, `${profile} · ${mode}`, mimeType, bytes));
    }
}

// PNGs of random pixels, 8 MiB each: a 1024-pixel-wide RGB image whose rows are xorshift noise, deflated
const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0, 0);
  return b;
};
const pngChunk = (type: string, data: Buffer): Buffer => {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  return Buffer.concat([u32(data.length), typed, u32(crc32(typed))]);
};
function noisePng(state: number): Buffer {
  const rowBytes = 1024 * 3 + 1;
  const height = Math.ceil((8 << 20) / rowBytes);
  const raw = Buffer.alloc(rowBytes * height);
  let x = state >>> 0 || 1;
  for (let i = 0; i < raw.length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    raw[i] = i % rowBytes === 0 ? 0 : x & 0xff;
  }
  const header = Buffer.concat([u32(1024), u32(height), Buffer.from([8, 2, 0, 0, 0])]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
const nextNoise = random(seed ^ 0x6e6f6973);
const defaultGate = gateOf(defaultYaml);
for (let i = 0; i < noiseImages; i++) {
  const name = `noise-${i}.png`;
  const started = performance.now();
  const outcome = await read(
    defaultGate,
    path.join(modulesDir, name),
    'default · noise png',
    'image/png',
    noisePng(Math.floor(nextNoise() * 2 ** 32)),
  );
  results.push(outcome);
  if (i === 0 || outcome.effect !== 'allow')
    console.log(`  ${name}: ${outcome.effect} in ${(performance.now() - started).toFixed(0)} ms`);
}

console.log(`ordinary files: ${files.length} of ${all.length} in ${modulesDir} (seed ${seed})`);
const classes = new Map<string, number>();
for (const f of files)
  classes.set(classOf(path.basename(f)) as string, (classes.get(classOf(path.basename(f)) as string) ?? 0) + 1);
console.log(`  by class: ${[...classes].map(([c, n]) => `${c} ${n}`).join(', ')}`);
// refused rightly, counted apart: a page whose script a browser runs, and text holding controls a terminal acts on
// (a host printing the body to a terminal: ESC, the C1 introducers, BS, NUL …), whatever else the file is
const scriptPage = (r: Outcome): boolean => /\.html?$/.test(r.file) && /`<script>` element/.test(r.why);
const terminalText = (r: Outcome): boolean =>
  r.codes.every((code) => code === 'content.unsafe-text') &&
  /nul characters|terminal escape|c1 control|control characters a terminal/.test(r.why);
for (const mode of [...new Set(results.map((r) => r.mode))]) {
  const rows = results.filter((r) => r.mode === mode);
  const ok = rows.filter((r) => r.effect === 'allow').length;
  const pages = rows.filter((r) => r.effect !== 'allow' && scriptPage(r)).length;
  const terminal = rows.filter((r) => r.effect !== 'allow' && !scriptPage(r) && terminalText(r)).length;
  const ordinary = rows.length - pages - terminal;
  console.log(
    `  ${mode.padEnd(36)} ${((100 * ok) / rows.length).toFixed(2).padStart(6)}% allowed (${ok}/${rows.length}); ` +
      `${ordinary === 0 ? '—' : ((100 * ok) / ordinary).toFixed(2)}% of the ${ordinary} that are neither pages running a script (${pages}) ` +
      `nor text a terminal acts on (${terminal})`,
  );
}
const refused = results.filter((r) => r.effect !== 'allow');
for (const r of refused)
  console.log(`  ${r.effect.padEnd(7)} [${r.mode}] ${r.file} (${r.mimeType}): ${r.why.slice(0, 300)}`);
if (jsonOut !== '') writeFileSync(jsonOut, JSON.stringify(refused, null, 2));
