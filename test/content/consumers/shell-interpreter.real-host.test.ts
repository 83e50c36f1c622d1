// The shell consumer against the programs it stands for (issue 41 item 6): the kernel's own `#!` loader (the body
// written as a file, made executable and run by `execv`: Linux's binfmt_script reads the first line; not `execvp`,
// whose fallback hands any file the kernel refuses to /bin/sh) and CPython (Debian's python3, installed on demand),
// which runs a file holding a zip archive anywhere, found from its end, by the
// archive's `__main__.py` (`python3 photo.png`). An attack is shown live by the oracle (a marker file appears) and
// withheld by the gate's shell adapter alone; a control is shown inert by the same oracle and allowed under the
// default profile.
import { spawn } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, type TestContext, test } from 'vitest';
import { makePng, makeZip, seededBytes } from '../../fixtures/make-bytes.ts';
import { realHostSuite } from '../../real-host/host-suite.ts';
import { aptOracle } from './apt-oracle.ts';
import { decideBody, profileGate } from './profile-gate.ts';

const python = realHostSuite('python3', () => aptOracle('python3-minimal', '/usr/bin/python3'));
const shellOnly = profileGate(['shell']);
const defaults = profileGate();
const MARK = '__MARK__';

// how the oracle opens a body: executed by the kernel, or handed to python3
type Opener = 'exec' | 'python';

// a png whose bytes end in a zip archive holding `__main__.py`
const pngWithMain = (main: string): Buffer =>
  Buffer.concat([makePng({ width: 8, height: 8 }), makeZip([{ name: '__main__.py', data: main }])]);
const pyTouch = `open(${JSON.stringify(MARK)}, 'w').write('ran')\n`;

// name, how it is opened, declared type, uri, body (MARK stands for the marker file's path)
const attacks: [string, Opener, string, string, (mark: string) => Buffer][] = [
  ['a #! script', 'exec', 'text/plain', 'guide://tools/setup', (m) => Buffer.from(`#!/bin/sh\ntouch '${m}'\n`)],
  [
    'a #! line with a space',
    'exec',
    'text/plain',
    'guide://tools/setup',
    (m) => Buffer.from(`#! /bin/sh\ntouch '${m}'\n`),
  ],
  [
    'a #! line through env',
    'exec',
    'text/plain',
    'guide://tools/setup.txt',
    (m) => Buffer.from(`#!/usr/bin/env sh\ntouch '${m}'\n`),
  ],
  [
    'a png ending in a zip with __main__.py',
    'python',
    'image/png',
    'guide://art/photo.png',
    (m) => pngWithMain(pyTouch.replace(MARK, m)),
  ],
];

const controls: [string, Opener, string, string, (mark: string) => Buffer][] = [
  [
    'a how-to showing a #! script in a fenced block',
    'exec',
    'text/markdown',
    'guide://docs/setup.md',
    (m) => Buffer.from(`# Setup\n\n\`\`\`sh\n#!/bin/sh\ntouch '${m}'\n\`\`\`\n`),
  ],
  [
    'prose with a #! line further down',
    'exec',
    'text/plain',
    'guide://docs/notes.txt',
    (m) => Buffer.from(`Write this into run.sh:\n#!/bin/sh\ntouch '${m}'\n`),
  ],
  ['a png of noise', 'python', 'image/png', 'guide://art/noise.png', () => pngWithNoise()],
];

function pngWithNoise(): Buffer {
  const png = makePng({ width: 8, height: 8 });
  // noise as a private ancillary chunk before IEND (readers skip it), so the file still ends as a png does
  const noise = seededBytes(4096, 41);
  const chunk = Buffer.alloc(12 + noise.length);
  chunk.writeUInt32BE(noise.length, 0);
  chunk.write('ruNd', 4, 'latin1');
  noise.copy(chunk, 8);
  return Buffer.concat([png.subarray(0, png.length - 12), chunk, png.subarray(png.length - 12)]);
}

// whether opening the body as `opener` runs it: the marker file appears once the program has exited
async function runs(ctx: TestContext, opener: Opener, body: (mark: string) => Buffer): Promise<boolean> {
  const dir = await python.scratch('shell-oracle-');
  const mark = path.join(dir, 'ran');
  const file = path.join(dir, 'body');
  await writeFile(file, body(mark));
  await chmod(file, 0o755);
  const bin = python.require(ctx);
  // os.execv is execve alone: a body the kernel will not run raises ENOEXEC (that is the answer, not an error)
  const args = opener === 'exec' ? ['-c', 'import os, sys; os.execv(sys.argv[1], [sys.argv[1]])', file] : [file];
  await new Promise<void>((resolve) => {
    const child = spawn(bin, args, { cwd: dir, stdio: 'ignore' });
    child.on('error', () => resolve());
    child.on('exit', () => resolve());
  });
  return readFile(mark).then(
    () => true,
    () => false,
  );
}

describe('a body a shell or interpreter runs, the gate withholds', () => {
  test.for(attacks)('%s', async ([, opener, mime, uri, body], ctx) => {
    expect(await runs(ctx, opener, body), 'the oracle runs it').toBe(true);
    const verdict = await decideBody(shellOnly, uri, mime, bodyOf(mime, body('/tmp/x')));
    expect(verdict.effect, verdict.why).toBe('deny');
  });
});

describe('a body no shell or interpreter runs, the gate allows', () => {
  test.for(controls)('%s', async ([, opener, mime, uri, body], ctx) => {
    expect(await runs(ctx, opener, body), 'the oracle runs nothing').toBe(false);
    expect(await decideBody(defaults, uri, mime, bodyOf(mime, body('/tmp/x')))).toEqual({ effect: 'allow', why: '' });
  });
});

// first lines made of the pieces the kernel's reading of `#!` turns on (white space around the interpreter, a BOM, a
// carriage return, env and its options): every one the kernel runs is withheld by the shell adapter
const firstLine = fc
  .tuple(
    fc.constantFrom('', '\ufeff', ' ', '\n'),
    fc.constantFrom('#!', '#! ', '#!\t', '# !'),
    fc.constantFrom('/bin/sh', '/usr/bin/env sh', '/usr/bin/env -S sh -e', '/bin/sh -e'),
    fc.constantFrom('', ' ', '\t', '\r'),
  )
  .map((parts) => parts.join(''));

test('every first line the kernel runs as a script is withheld (fixed-seed sample)', {
  timeout: 120_000,
}, async (ctx) => {
  python.require(ctx);
  const lines = [...new Set(fc.sample(firstLine, { numRuns: 80, seed: 41 }))];
  let live = 0;
  for (const line of lines) {
    const body = (m: string): Buffer => Buffer.from(`${line}\ntouch '${m}'\n`);
    if (!(await runs(ctx, 'exec', body))) continue;
    live++;
    const verdict = await decideBody(shellOnly, 'guide://tools/setup', 'text/plain', bodyOf('text/plain', body('/x')));
    expect(verdict.effect, JSON.stringify(line)).toBe('deny');
  }
  expect(live, 'the sample holds lines the kernel runs').toBeGreaterThan(5);
});

function bodyOf(mime: string, bytes: Buffer): { text: string } | { blob: string } {
  return mime.startsWith('text/') ? { text: bytes.toString('utf8') } : { blob: bytes.toString('base64') };
}
