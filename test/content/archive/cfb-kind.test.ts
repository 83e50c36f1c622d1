import { describe, expect, test } from 'vitest';
import { classifyCfb, isCfb } from '../../../src/content/archive/cfb-kind.ts';
import { makeCfb, msiClsid } from '../../fixtures/make-bytes.ts';

describe('classifyCfb', () => {
  test.each([
    ['word document', makeCfb({ names: ['WordDocument', '1Table'] }), 'doc', null],
    ['excel workbook', makeCfb({ names: ['Workbook'] }), 'xls', null],
    ['powerpoint', makeCfb({ names: ['PowerPoint Document'] }), 'ppt', null],
    ['word with Macros/VBA', makeCfb({ names: ['WordDocument', 'Macros', 'VBA'] }), 'doc', /`macros` storage/],
    ['excel with _VBA_PROJECT_CUR', makeCfb({ names: ['Workbook', '_VBA_PROJECT_CUR'] }), 'xls', /_vba_project_cur/],
    ['msi by root clsid', makeCfb({ names: ['x'], rootClsid: msiClsid }), 'msi', /installer/],
    ['msi by encoded stream names', makeCfb({ names: ['\u4840\u3f3f\u4577'] }), 'msi', /installer/],
    ['unknown compound file', makeCfb({ names: ['Contents'] }), 'cfb', null],
  ])('%s', (_, bytes, kind, active) => {
    expect(isCfb(bytes)).toBe(true);
    const found = classifyCfb(bytes);
    expect(found.kind).toBe(kind);
    if (active === null) expect(found.active).toBeNull();
    else expect(found.active).toMatch(active);
  });

  test('a damaged directory falls back to a plain compound file', () => {
    const bytes = makeCfb({ names: ['Macros'] });
    bytes.writeUInt32LE(0x7fffffff, 0x30); // first directory sector out of range
    expect(classifyCfb(bytes)).toEqual({ kind: 'cfb', active: null, uninterpretable: null });
  });

  test('a directory chain that loops terminates', () => {
    const bytes = makeCfb({ names: ['WordDocument'] });
    bytes.writeUInt32LE(1, 512 + 4); // FAT: directory sector 1 points to itself
    expect(classifyCfb(bytes).kind).toBe('doc');
  });

  test('a DIFAT that names the same FAT sector over and over reads the FAT once', () => {
    // 12,000 DIFAT sectors × 127 ids each, all naming sector 0: read per id, the FAT would grow to 195 million
    // entries, past what a V8 array can hold (the process aborts; no exception to catch)
    const difatSectors = 12_000;
    const bytes = Buffer.alloc(512 * (difatSectors + 3));
    makeCfb({ names: ['WordDocument'] }).copy(bytes);
    bytes.writeUInt32LE(2, 0x44); // first DIFAT sector (after the FAT and directory sectors of the fixture)
    for (let n = 0; n < difatSectors; n++) {
      const base = (n + 3) * 512;
      for (let i = 0; i < 127; i++) bytes.writeUInt32LE(0, base + i * 4);
      bytes.writeUInt32LE(n + 3, base + 508);
    }
    expect(classifyCfb(bytes).kind).toBe('doc');
  });
});
