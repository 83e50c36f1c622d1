import { describe, expect, test } from 'vitest';
import { classifyCfb, isCfb } from '../../src/content/cfb-kind.ts';
import { makeCfb, msiClsid } from '../fixtures/make-bytes.ts';

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
    expect(classifyCfb(bytes)).toEqual({ kind: 'cfb', active: null });
  });

  test('a directory chain that loops terminates', () => {
    const bytes = makeCfb({ names: ['WordDocument'] });
    bytes.writeUInt32LE(1, 512 + 4); // FAT: directory sector 1 points to itself
    expect(classifyCfb(bytes).kind).toBe('doc');
  });
});
