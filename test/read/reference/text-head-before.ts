// The head of a text as `classifyUtf8` read it before it decoded a quarter more bytes than code units first (the
// reference of test/read/scanner-differential.test.ts): a copy of `headOf` of src/content/text/text-kind.ts at that
// point, kept so the new `textHead` is compared with it over generated and corpus bodies.
import { markupHeadChars } from '../../../src/content/text/text-kind.ts';

/** The first `markupHeadChars` UTF-16 code units of the text `bytes` hold from byte `from` on, as `headOf` read them. */
export function textHeadBefore(bytes: Buffer, from: number): string {
  let end = Math.min(bytes.length, from + 4 * markupHeadChars);
  while (end < bytes.length && end > from && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.toString('utf8', from, end).slice(0, markupHeadChars);
}
