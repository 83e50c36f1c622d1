import { describe, expect, test } from 'vitest';
import { readZipDirectory, readZipEntry, scanLocalHeaders } from '../../../src/content/archive/zip-entries.ts';
import { classifyZip } from '../../../src/content/archive/zip-kind.ts';
import { makeApk, makeJar, makeOdt, makeOoxml, makePng, makeWebExtension, makeZip } from '../../fixtures/make-bytes.ts';

describe('zip entries', () => {
  test('lists the central directory and reads stored and deflated entries', () => {
    const zip = makeZip([
      { name: 'a.txt', data: 'alpha', deflate: false },
      { name: 'dir/b.txt', data: 'beta'.repeat(100) },
    ]);
    const listing = readZipDirectory(zip);
    expect(listing?.entries.map((e) => e.name)).toEqual(['a.txt', 'dir/b.txt']);
    expect(listing?.start).toBe(0);
    const [a, b] = listing?.entries ?? [];
    expect(a && readZipEntry(zip, a, 100)?.toString()).toBe('alpha');
    expect(b && readZipEntry(zip, b, 1000)?.toString()).toBe('beta'.repeat(100));
    expect(b && readZipEntry(zip, b, 10)).toBeNull();
  });

  test('finds an archive behind prepended bytes and corrects its offsets', () => {
    const png = makePng();
    const bytes = Buffer.concat([png, makeZip([{ name: 'x.txt', data: 'x' }])]);
    const listing = readZipDirectory(bytes);
    expect(listing?.start).toBe(png.length);
    const entry = listing?.entries[0];
    expect(entry && readZipEntry(bytes, entry, 10)?.toString()).toBe('x');
  });

  test('walks local headers when the directory is gone', () => {
    const zip = makeZip([
      { name: 'one', data: '1' },
      { name: 'two', data: '2' },
    ]);
    const cut = zip.subarray(0, zip.indexOf('PK\u0001\u0002', 0, 'latin1'));
    expect(readZipDirectory(cut)).toBeNull();
    expect(scanLocalHeaders(cut).map((e) => e.name)).toEqual(['one', 'two']);
  });

  test('ignores an end record that does not hold together', () => {
    const fake = Buffer.concat([Buffer.alloc(100), Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18, 0x7f)]);
    expect(readZipDirectory(fake)).toBeNull();
  });
});

describe('classifyZip', () => {
  test.each([
    ['plain archive', makeZip([{ name: 'a.txt', data: 'a' }]), 'zip', null],
    ['runnable jar', makeJar(), 'jar', /Main-Class: Hello/],
    ['jar without Main-Class', makeJar({ mainClass: false }), 'jar', /java archive/],
    ['apk', makeApk(), 'apk', /android package/],
    ['webextension', makeWebExtension(), 'xpi', /manifest_version/],
    [
      'firefox add-on',
      makeZip([
        { name: 'META-INF/mozilla.rsa', data: 'sig' },
        { name: 'a.js', data: '1' },
      ]),
      'xpi',
      /firefox/,
    ],
    ['docx', makeOoxml(), 'docx', null],
    ['xlsx', makeOoxml({ app: 'xl' }), 'xlsx', null],
    ['pptx', makeOoxml({ app: 'ppt' }), 'pptx', null],
    ['docm without a vba part', makeOoxml({ macroEnabled: true }), 'docm', null],
    [
      'docm with a vba project',
      makeOoxml({ macroEnabled: true, vbaProject: true }),
      'docm',
      /vba project \(`word\/vbaProject.bin`\)/,
    ],
    ['xlsm with a vba project', makeOoxml({ app: 'xl', macroEnabled: true, vbaProject: true }), 'xlsm', /vba project/],
    ['odt', makeOdt(), 'odt', null],
    ['odt with basic macros', makeOdt({ macros: true }), 'odt', /opendocument file with macros/],
    [
      'a manifest.json that is not an extension',
      makeZip([{ name: 'manifest.json', data: '{"files": []}' }]),
      'zip',
      null,
    ],
  ])('%s', (_, bytes, kind, active) => {
    const listing = readZipDirectory(bytes);
    expect(listing).not.toBeNull();
    const found = classifyZip(bytes, listing ?? { entries: [], start: 0 });
    expect(found.kind).toBe(kind);
    if (active === null) expect(found.active).toBeNull();
    else expect(found.active).toMatch(active);
  });
});

describe('entry names quoted into messages', () => {
  test('a right-to-left override in a class file name is escaped, so the message reads as the bytes are', () => {
    // `\u202e` would display `Hello.class` written as `evil\u202essalc.olleH` reversed to the reader
    const zip = makeZip([{ name: 'evil\u202essalc.olleH.class', data: 'x' }]);
    const listing = readZipDirectory(zip);
    expect(listing).not.toBeNull();
    const kind = classifyZip(zip, listing as NonNullable<typeof listing>);
    expect(kind.active).toBe('a java archive (`evil\\u202essalc.olleH.class`)');
    expect(kind.active).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });
});
