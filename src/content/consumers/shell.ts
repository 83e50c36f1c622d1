// Shells, interpreters and the operating system's loaders: a `#!` script, a registry import, a PostScript program,
// an HTML application, executables and archives that carry code run when opened or piped to an interpreter.
import { describeExecutable } from '../executable-kinds.ts';
import { embeddedArchive } from '../polyglot.ts';
import type { TextKind } from '../text/text-kind.ts';
import { type BinaryReading, type ContentConsumer, foundIn } from './content-consumer.ts';

const scriptKinds: readonly TextKind[] = ['shell-script', 'reg', 'postscript', 'hta'];

// the scripts Windows and macOS run by their file's name when opened (a double click): cmd.exe, Windows Script Host,
// Terminal; their bytes have no structure of their own to tell them from text
const scriptExtensions: Readonly<Record<string, string>> = {
  bat: 'a windows batch script (.bat: cmd.exe runs it when opened)',
  cmd: 'a windows batch script (.cmd: cmd.exe runs it when opened)',
  vbs: 'a vbscript file (.vbs: windows script host runs it when opened)',
  vbe: 'an encoded vbscript file (.vbe: windows script host runs it when opened)',
  jse: 'an encoded jscript file (.jse: windows script host runs it when opened)',
  wsf: 'a windows script file (.wsf: windows script host runs it when opened)',
  wsh: 'a windows script host settings file (.wsh: runs the script it names when opened)',
  command: 'a macos shell script (.command: terminal runs it when opened)',
};

/** The script a uri's extension names (`.bat`, `.cmd`, `.vbs`, `.vbe`, `.jse`, `.wsf`, `.wsh`, `.command`), described; null for any other. */
export function scriptNamed(extension: string | null): string | null {
  return extension === null ? null : (scriptExtensions[extension] ?? null);
}

// the interpreters that run a source language, by the extensions of its files: a `#!` line naming one of them over a
// file of that language is the language's own first line (npm `bin` entries, tsc copying it into a `.d.ts`, python
// tools), and the file is the same source without it, which the profile shows as text
const interpretersOf: Readonly<Record<string, RegExp>> = {
  js: /^(?:node|nodejs|bun|deno)$/,
  mjs: /^(?:node|nodejs|bun|deno)$/,
  cjs: /^(?:node|nodejs|bun|deno)$/,
  jsx: /^(?:node|nodejs|bun|deno)$/,
  ts: /^(?:node|nodejs|bun|deno|tsx|ts-node|ts-node-esm)$/,
  mts: /^(?:node|nodejs|bun|deno|tsx|ts-node|ts-node-esm)$/,
  cts: /^(?:node|nodejs|bun|deno|tsx|ts-node|ts-node-esm)$/,
  tsx: /^(?:node|nodejs|bun|deno|tsx|ts-node|ts-node-esm)$/,
  py: /^(?:python|pypy)[0-9.]*$/,
  rb: /^ruby[0-9.]*$/,
  lua: /^(?:lua[0-9.]*|luajit)$/,
};

/**
 * True when the `#!` first line of `utf8` (past white space) names an interpreter of the source language `extension`
 * names (`#!/usr/bin/env node` over a `.mjs` or `.d.ts`, `#!/usr/bin/python3` over a `.py`): the body is that source
 * file, which no consumer of the profile runs; false for any other interpreter (`#!/bin/sh` over a `.js` is a script).
 */
export function isOwnSourceShebang(utf8: Buffer, extension: string | null): boolean {
  const runs = extension === null ? undefined : interpretersOf[extension];
  if (runs === undefined) return false;
  const start = utf8.toString('latin1', 0, 512).search(/\S/);
  if (start === -1) return false;
  const line = utf8.toString('latin1', start, start + 512).split(/[\r\n]/, 1)[0] ?? '';
  const words = /^#!\s*(\S+)(.*)$/.exec(line);
  if (words === null) return false;
  let program = (words[1] ?? '').slice((words[1] ?? '').lastIndexOf('/') + 1);
  if (program === 'env') {
    // `env -S node --flags`, `env NODE_OPTIONS=… node`: the first word that is neither an option nor an assignment
    const rest = (words[2] ?? '').trim().split(/\s+/);
    program = rest.find((w) => w !== '' && !w.startsWith('-') && !w.includes('=')) ?? '';
    program = program.slice(program.lastIndexOf('/') + 1);
  }
  return runs.test(program);
}

/** How a shell or interpreter reads binary bodies: a code archive, an executable, a zip archive inside another format. */
const shellBinary = {
  // code an archive carries runs in an interpreter (`java -jar`, a browser's extension installer, an office macro host)
  archive: (body) => foundIn('active', body.carried ?? describeExecutable(body.kind)),
  executable: (body) => foundIn('active', describeExecutable(body.kind)),
  // a zip reader finds an archive in an image or a pdf (its directory at the end, local headers after the image)
  appendedArchive: (body, budget) => {
    const archive = embeddedArchive(body.bytes, body.end, budget);
    return foundIn('active', archive === null ? null : `the ${body.kind} is also ${archive} (polyglot)`);
  },
} as const satisfies Record<string, BinaryReading>;

/** Shells and interpreters: shebang scripts, registry imports, PostScript, HTA, scripts run by their name, executables and code archives. */
export const shellConsumer = {
  id: 'shell',
  optIn: false,
  coverage: [
    {
      consumer: 'shells and interpreters',
      reaches:
        'a `#!` first line, registry imports, PostScript, HTA, executables and archives that carry code (jar, apk, extensions, macro documents), a zip archive inside an image; a uri named `.bat`, `.cmd`, `.vbs`, `.vbe`, `.jse`, `.wsf`, `.wsh` (run by Windows on a double click) or `.command` (run by the macOS Terminal), whatever its bytes',
      judged: 'executable: denied',
      notCovered:
        "plain-text source without a shebang, or with one naming its own language's interpreter (`#!/usr/bin/env node` over a `.mjs` or `.d.ts`, `python3` over a `.py`): shown as text; never executed by a consumer of the profile; `.js` and `.ps1` files (Windows Script Host runs a `.js` on a double click, a `.ps1` opens in an editor): source shown as text; batch and VBScript under another name (no structure of their own)",
    },
  ],
  leftOut:
    'scripts sent as text are text; executables and code archives stay denied by their type unless `content.allow` admits it',
  textKinds: scriptKinds,
  readsText: (body) => scriptKinds.includes(body.kind) || scriptNamed(body.extension) !== null,
  judgeText: (body) => [
    {
      slot: 'active',
      message: describeExecutable(body.kind) ?? scriptNamed(body.extension) ?? `a \`${body.kind}\``,
    },
  ],
  binaryReadings: shellBinary,
} as const satisfies ContentConsumer;
