import { describe, expect, test } from 'vitest';
import {
  allowedKindIds,
  declaredTypeAllowed,
  familyOf,
  isKnownMime,
  declaredXmlDocument,
  kindCovers,
  readsAnyTextAsDocument,
  kindOfFileType,
  kindOfMime,
  normalizeMime,
  realKindAllowed,
} from '../../src/content/kinds.ts';

describe('kinds table', () => {
  test.each([
    ['text/plain; charset=utf-8', 'text/plain'],
    ['  IMAGE/PNG ', 'image/png'],
    ['', ''],
    ['image/png', 'image/png'],
    ['Image/Png', 'image/png'],
    ['text/plain;charset=x', 'text/plain'],
    ['\u00a0text/plain', 'text/plain'],
    ['TEXT/\u00c9', 'text/\u00e9'],
    ['application/vnd.ms-word.document.macroEnabled.12', 'application/vnd.ms-word.document.macroenabled.12'],
  ])('normalizeMime(%j) = %j', (mime, normal) => {
    expect(normalizeMime(mime)).toBe(normal);
  });

  test.each([
    ['image/jpg', 'jpeg'],
    ['image/x-ms-bmp', 'bmp'],
    ['application/xhtml+xml', 'html'],
    ['application/x-msdownload', 'pe'],
    ['application/vnd.ms-word.document.macroEnabled.12', 'docm'],
  ])('kindOfMime(%j) is %s', (mime, id) => {
    expect(kindOfMime(mime)?.id).toBe(id);
    expect(isKnownMime(mime)).toBe(true);
  });

  test('unknown mime types name no kind', () => {
    expect(kindOfMime('application/x-made-up')).toBeUndefined();
    expect(isKnownMime('application/x-made-up')).toBe(false);
  });

  test.each([
    ['jpg', 'image/jpeg', 'jpeg'],
    ['exe', 'application/x-msdownload', 'pe'],
    ['tar.gz', 'application/gzip', 'gzip'],
    ['class', 'application/java-vm', 'java-class'],
    ['apng', 'image/apng', 'apng'],
    ['nes', 'application/x-nintendo-nes-rom', 'nes'],
  ])('kindOfFileType(%s)', (ext, mime, id) => {
    expect(kindOfFileType(ext, mime)).toBe(id);
  });

  test.each([
    ['text', 'markdown', true],
    ['text', 'json', true],
    ['csv', 'text', true],
    ['png', 'apng', true],
    ['apng', 'png', true],
    ['octet-stream', 'pe', true],
    ['png', 'jpeg', false],
    // a page has no magic bytes to contradict a text label: it is judged as a page by its consumers (DESIGN §5)
    ['text', 'html', true],
    ['markdown', 'xhtml', true],
    // shown as text under a text label, and read for script by the browser whatever the label (issue 41 item 5)
    ['text', 'svg', true],
    ['svg', 'xml', false],
    ['xml', 'text', false],
  ])('kindCovers(%s, %s) = %s', (label, real, expected) => {
    expect(kindCovers(label, real)).toBe(expected);
  });

  // a page type takes any text as a page (the HTML parser renders it; application/xhtml+xml, which browsers read with
  // their XML parser, is read by both parsers and its type check is the page's)
  test.each([
    ['text/html', true, false],
    ['Text/HTML; charset=utf-8', true, false],
    ['application/xhtml+xml', true, true],
    ['application/xml', false, true],
    ['text/xml', false, true],
    ['text/plain', false, false],
  ])('%s: reads any text %s, an XML parser %s', (mime, anyText, xml) => {
    expect(readsAnyTextAsDocument(mime)).toBe(anyText);
    expect(declaredXmlDocument(mime)).toBe(xml);
  });

  test.each([
    [['text/plain'], 'markdown', true],
    [['text/plain'], 'json', true],
    [['application/json'], 'text', false],
    [['image/png'], 'apng', true],
    [['image/png'], 'gif', false],
    [['image/svg+xml'], 'xml', false],
  ])('realKindAllowed(%j, %s) = %s', (allow, real, expected) => {
    expect(realKindAllowed(allowedKindIds(allow), real)).toBe(expected);
  });

  test('declared types compare by kind, not by string', () => {
    expect(declaredTypeAllowed(['image/jpeg'], 'image/pjpeg')).toBe(true);
    expect(declaredTypeAllowed(['image/jpeg'], 'image/png')).toBe(false);
  });

  test.each([
    ['pe', 'executable'],
    ['shell-script', 'executable'],
    ['svg', 'markup'],
    ['unknown', 'binary'],
  ])('familyOf(%s) = %s', (id, family) => {
    expect(familyOf(id)).toBe(family);
  });
});
