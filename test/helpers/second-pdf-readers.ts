// Poppler and MuPDF as PDF reader oracles beside pdf.js (issue 41 item 1): Debian's `poppler-utils` (what Evince and
// Okular read PDFs with) and `mupdf-tools`, installed on demand with apt, never project dependencies. A document is
// written to a scratch file and each reader says what it finds active: poppler's `pdfinfo -js` (every script it
// would run: name tree, document, page, link and form actions), `pdfinfo` (JavaScript present, an XFA form),
// `pdfinfo -url` (link targets), `pdfdetach -list` (attachments), and the links MuPDF resolves (`mutool run`). Under
// CI=true a missing reader fails the file (host-suite.ts), elsewhere its tests skip.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestContext } from 'vitest';
import { aptOracle, runOracle } from '../content/consumers/apt-oracle.ts';
import type { HostInstall } from '../real-host/install-package.ts';
import { realHostSuite } from '../real-host/host-suite.ts';

/** Where Debian's packages put the readers. */
export const readerBins = { pdfinfo: '/usr/bin/pdfinfo', pdfdetach: '/usr/bin/pdfdetach', mutool: '/usr/bin/mutool' };

// MuPDF's own script runner: every link of every page as MuPDF resolves it (a relative URI against the catalog's
// `/URI /Base`, a GoToR or Launch file as a `file://` url), one per line
const mupdfLinks = `var doc = new Document(scriptArgs[0]);
for (var i = 0; i < doc.countPages(); i++) {
  var links = doc.loadPage(i).getLinks();
  for (var j = 0; j < links.length; j++) print('link ' + links[j].uri);
}`;

const scriptSchemes = new Set(['javascript:', 'vbscript:', 'livescript:']);

// the scheme a browser reads from a link target (WHATWG URL), or null when it is no absolute url
function schemeOf(url: string): string | null {
  try {
    return new URL(url).protocol;
  } catch {
    return null;
  }
}

async function installBoth(): Promise<HostInstall> {
  const poppler = await aptOracle('poppler-utils', readerBins.pdfinfo);
  if (!poppler.ok) return poppler;
  const mupdf = await aptOracle('mupdf-tools', readerBins.mutool);
  return mupdf.ok ? { ...poppler, version: 'poppler-utils, mupdf-tools' } : mupdf;
}

/** What poppler and MuPDF find active in a document: `script:`, `link:` (script-scheme targets), `attachment:`, `xfa`; [] when neither finds anything or neither opens it. */
export type ActiveInReaders = (ctx: TestContext, bytes: Buffer) => Promise<string[]>;

/** Registers the file's install of poppler-utils and mupdf-tools; the returned function reads one document with both. */
export function useSecondPdfReaders(): ActiveInReaders {
  const suite = realHostSuite('poppler and mupdf', installBoth);
  let dir: string | undefined;
  let script: string | undefined;
  let count = 0;
  return async (ctx, bytes) => {
    suite.require(ctx);
    dir ??= await suite.scratch('linkgate-pdf-readers-');
    if (script === undefined) {
      script = path.join(dir, 'links.js');
      await writeFile(script, mupdfLinks);
    }
    const file = path.join(dir, `doc-${count++}.pdf`);
    await writeFile(file, bytes);
    const [info, js, urls, detach, mupdf] = await Promise.all([
      runOracle(readerBins.pdfinfo, [file]),
      runOracle(readerBins.pdfinfo, ['-js', file]),
      runOracle(readerBins.pdfinfo, ['-url', file]),
      runOracle(readerBins.pdfdetach, ['-list', file]),
      runOracle(readerBins.mutool, ['run', script, file]),
    ]);
    const found: string[] = [];
    // `-js` prints the info lines and, before them, each script under a heading: what `-js` adds is the scripts
    const infoLines = new Set(info.out.split('\n'));
    const scripts = js.out
      .split('\n')
      .filter((l) => !infoLines.has(l) && l.trim() !== '' && !/^(Syntax (Error|Warning)|Internal Error)/.test(l));
    if (scripts.length > 0) found.push(`script:${scripts.join(' ')}`);
    else if (/^JavaScript:\s+yes$/m.test(info.out)) found.push('script:(pdfinfo says JavaScript: yes)');
    if (/^Form:\s+XFA$/m.test(info.out)) found.push('xfa');
    for (const line of urls.out.split('\n').slice(1)) {
      const target = line.replace(/^\s*\d+\s+\S+\s+/, '');
      if (scriptSchemes.has(schemeOf(target) ?? '')) found.push(`link:poppler ${target}`);
    }
    const attached = /^(\d+) embedded files?$/m.exec(detach.out);
    if (attached !== null && Number(attached[1]) > 0) found.push(`attachment:${attached[1]}`);
    for (const line of mupdf.out.split('\n')) {
      if (!line.startsWith('link ')) continue;
      const target = line.slice(5);
      if (scriptSchemes.has(schemeOf(target) ?? '')) found.push(`link:mupdf ${target}`);
    }
    return found;
  };
}
