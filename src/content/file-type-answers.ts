// file-type (the npm package) is asynchronous and our detectors are not: a sniff that needs its answer stops,
// says at which offset, and runs again once the answer is in.
import { knownSignatureKind } from './binary-kind.ts';

/** A sniff that cannot go on until file-type has named the bytes from `fileTypeAt` (a byte offset) on. */
export interface NeedsFileType {
  fileTypeAt: number;
}

/** file-type answers gathered so far, by byte offset into the item (null: it named nothing). */
export type FileTypeAnswers = ReadonlyMap<number, string | null>;

/** The binary kind of the bytes from `at` on: our signatures, else file-type's answer if it was asked (undefined: not yet). */
export function binaryAt(bytes: Buffer, at: number, answers: FileTypeAnswers): string | null | undefined {
  return knownSignatureKind(at === 0 ? bytes : bytes.subarray(at)) ?? answers.get(at);
}
