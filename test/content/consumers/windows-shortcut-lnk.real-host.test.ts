// The `.lnk` launcher reading against a shell-link reader (issue 41 item 1: each consumer's oracle is a real reader):
// libyal's `lnkinfo` (Debian's liblnk-utils, installed on demand) reads MS-SHLLINK as Windows does, by its header
// (size 0x4C and the shell link class id) and nothing else. Generated shortcuts (seeded: flags, strings, ANSI or
// UTF-16, an id list, the extra data's terminal block) go to both: every body the reader opens as a shortcut is withheld by the
// gate as an executable under any name and declared type, with octet-stream allowed so the refusal is the launcher
// adapter's own; bodies the reader refuses are counted, and not required either way. Under CI=true a missing `lnkinfo`
// fails the suite.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { createGate } from '../../../src/gate/create-gate.ts';
import { parsePolicy } from '../../../src/policy/load-policy.ts';
import { realHostSuite } from '../../real-host/host-suite.ts';
import { aptOracle, runOracle } from './apt-oracle.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const defaultYaml = readFileSync(path.join(repoRoot, 'policies/default.yaml'), 'utf8');
// octet-stream allowed, so a refusal can only come from what the body is
const gate = createGate(
  parsePolicy(
    defaultYaml.replace(
      /^content:\n {2}allow:\n/m,
      'content:\n  allow:\n    - application/octet-stream\n    - application/x-ms-shortcut\n',
    ),
    'octet.yaml',
  ),
);

const suite = realHostSuite('lnkinfo', () => aptOracle('liblnk-utils', '/usr/bin/lnkinfo'));

const shellLinkClassId = '0114020000000000c000000000000046';

// mulberry32: a seed names one list of shortcuts
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

interface Shape {
  headerSize: number;
  classId: string;
  unicode: boolean;
  idList: boolean;
  strings: string[]; // name, relative path, working dir, arguments, icon: '' leaves one out
  after: 'nothing' | 'terminal block' | 'junk'; // after the last string: the extra data's terminal block, or bytes no reader takes
}

// MS-SHLLINK: a 76-byte header, an optional LinkTargetIDList, then the counted strings the flags announce
function shellLink(shape: Shape, next: () => number): Buffer {
  const header = Buffer.alloc(76);
  header.writeUInt32LE(shape.headerSize, 0);
  Buffer.from(shape.classId, 'hex').copy(header, 4);
  const stringFlags = [0x04, 0x08, 0x10, 0x20, 0x40];
  let flags = (shape.unicode ? 0x80 : 0) | (shape.idList ? 0x01 : 0);
  shape.strings.forEach((s, i) => {
    if (s !== '') flags |= stringFlags[i] ?? 0;
  });
  header.writeUInt32LE(flags, 20);
  header.writeUInt32LE(0x20, 24);
  header.writeUInt32LE(1, 60);
  const parts = [header];
  // an id list holding only its terminal id: its size (2) and the zero terminator
  if (shape.idList) parts.push(Buffer.from([2, 0, 0, 0]));
  for (const s of shape.strings) {
    if (s === '') continue;
    const count = Buffer.alloc(2);
    count.writeUInt16LE(s.length);
    parts.push(count, Buffer.from(s, shape.unicode ? 'utf16le' : 'latin1'));
  }
  if (shape.after === 'terminal block') parts.push(Buffer.alloc(4));
  if (shape.after === 'junk') parts.push(Buffer.from(Array.from({ length: 37 }, () => 1 + Math.floor(next() * 255))));
  return Buffer.concat(parts);
}

function shapes(seed: number, count: number): { shape: Shape; body: Buffer }[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const words = [
    '',
    'cmd.exe',
    '..\\..\\Windows\\System32\\cmd.exe',
    '/c calc',
    'C:\\Users\\Public',
    'notes',
    '%TEMP%',
  ];
  return Array.from({ length: count }, (_, i) => {
    const shape: Shape = {
      // a few with a header size or class id the reader refuses
      headerSize: i % 9 === 8 ? pick([0x4b, 0x4d, 0x44c]) : 0x4c,
      classId: i % 11 === 10 ? `${shellLinkClassId.slice(0, 30)}47` : shellLinkClassId,
      unicode: next() < 0.6,
      idList: next() < 0.3,
      strings: Array.from({ length: 5 }, () => pick(words)),
      after: i % 13 === 12 ? 'junk' : pick(['nothing', 'terminal block'] as const),
    };
    return { shape, body: shellLink(shape, next) };
  });
}

const sendings: [string, string | undefined][] = [
  ['app.lnk', 'application/octet-stream'],
  ['app.lnk', 'application/x-ms-shortcut'],
  ['archive.bin', 'application/octet-stream'],
  ['notes.txt', 'text/plain'],
  ['download', undefined],
];

async function decide(name: string, mimeType: string | undefined, body: Buffer) {
  const uri = `guide://share/${name}`;
  const declared = mimeType === undefined ? {} : { mimeType };
  const decision = await gate.decideRead({
    stage: 'read',
    link: { type: 'resource_link', uri, name, ...declared },
    result: { resultType: 'complete', contents: [{ uri, ...declared, blob: body.toString('base64') }] },
  });
  return { effect: decision.effect, codes: decision.reasons.map((r) => r.code) };
}

describe('every shell link lnkinfo opens is withheld as an executable', () => {
  test.for([7, 41])('seed %i', async (seed, ctx) => {
    const lnkinfo = suite.require(ctx);
    const dir = await suite.scratch('linkgate-lnk-');
    let opened = 0;
    let refusedByReader = 0;
    for (const [i, { body }] of shapes(seed, 40).entries()) {
      const file = path.join(dir, `s${i}.lnk`);
      await writeFile(file, body);
      const read = await runOracle(lnkinfo, [file]);
      if (read.code !== 0) {
        refusedByReader += 1;
        continue;
      }
      expect(read.out).toMatch(/Windows Shortcut information/);
      opened += 1;
      for (const [name, mimeType] of sendings) {
        const verdict = await decide(name, mimeType, body);
        expect(verdict.effect, `shortcut ${i} sent as ${name} (${String(mimeType)})`).toBe('deny');
        expect(verdict.codes).toContain('content.executable');
      }
    }
    // the generator made both: shortcuts the reader runs, and bodies it refuses
    expect(opened).toBeGreaterThan(25);
    expect(refusedByReader).toBeGreaterThan(3);
  });
});
