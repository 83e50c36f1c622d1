// What one stream holds for the active-content scan: its inflated bytes (FlateDecode; for an object stream, a
// chain of ASCIIHex, ASCII85 and FlateDecode around one; within the inflate budget and stream cap), a raw object
// stream as is, or nothing (pixels, fonts, xref); an object stream that cannot be read is uninterpretable.
import { quoteValue } from '../../decision/quote-value.ts';
import { decodeChain, isFlate, undoableChain } from './pdf-filters.ts';
import { filterNames, isObjectStream, type StreamDict } from './pdf-stream-dict.ts';

const OVER_BUDGET = 'pdf streams inflate past the inspection budget';

/** What `inspectStream` made of one stream. */
export interface StreamVerdict {
  /** bytes to read for names: the inflated stream, or a raw object stream; null when skipped */
  data: Buffer | null;
  /** bytes zlib produced; null when zlib was not asked */
  inflated: number | null;
  uninterpretable: string | null;
}

const skipped: StreamVerdict = Object.freeze({ data: null, inflated: null, uninterpretable: null });

/** Inspects one stream's data; `budget`: inflate bytes left; `refuse`: why no more streams may be inflated (the stream cap), or null. */
export function inspectStream(stream: StreamDict, data: Buffer, budget: number, refuse: string | null): StreamVerdict {
  // an object stream is read whatever other keys claim (`/Subtype /Image` on an ObjStm hides nothing from a
  // reader), and so is any stream with a `/First` key: pdf.js reads `/N` and `/First` (signed, or by reference)
  // from whichever stream an xref entry names as the holder of compressed objects, whatever its `/Type`; either
  // reading of the dictionary makes it one
  const objectStream = isObjectStream(stream.keys) || isObjectStream(stream.span);
  // pixel data and font programs are not PDF syntax; scanning them only yields chance matches. Only the
  // dictionary pdf.js reads may say so: a key in a string or a guessed dictionary skips nothing
  const keys = stream.keys;
  if (
    objectStream || !stream.exact
      ? false
      : /\/Subtype\s*\/Image\b/.test(keys) ||
        /\/Length[123]\b/.test(keys) ||
        /\/Subtype\s*\/(?:Type1C|CIDFontType0C|OpenType)\b/.test(keys)
  )
    return skipped;
  if (!objectStream && stream.exact && /\/Type\s*\/XRef\b/.test(keys)) return skipped;
  const named = filterNames(keys);
  // no filter in the dictionary read: any filter written since the object header is taken (conservative)
  const dict = named.length > 0 ? keys : stream.span;
  const filters = named.length > 0 ? named : filterNames(stream.span);
  if (filters.length === 0) return objectStream ? { data, inflated: null, uninterpretable: null } : skipped;
  // a single FlateDecode is undone for any stream; a chain around a FlateDecode (`[/ASCII85Decode /FlateDecode]`,
  // Flate twice) only for an object stream, whose objects pdf.js reads through every filter it names
  const undoable = objectStream ? undoableChain(filters) : filters.length === 1 && isFlate(filters[0]);
  if (!undoable) {
    return objectStream
      ? {
          ...skipped,
          uninterpretable: `pdf object stream with filter ${quoteValue(filters.join(' '))} cannot be inspected`,
        }
      : skipped;
  }
  const predictor = /\/Predictor\s+(\d+)/.exec(dict);
  // parameters by reference may name a predictor we cannot see
  if ((predictor !== null && Number(predictor[1]) > 1) || /\/(?:DecodeParms|DP)\s+\d/.test(dict)) {
    return objectStream
      ? { ...skipped, uninterpretable: 'pdf object stream with a predictor cannot be inspected' }
      : skipped;
  }
  if (budget <= 0) return { ...skipped, uninterpretable: OVER_BUDGET };
  if (refuse !== null) return { ...skipped, uninterpretable: refuse };
  const decoded = decodeChain(filters, data, budget);
  if (decoded.short === 'over-budget') return { data: null, inflated: budget, uninterpretable: OVER_BUDGET };
  // a stream cut short (a lying `/Length`, or a fake `endstream` inside the data when the length is a reference)
  // hides the rest of its objects: what it yields is kept, and an object stream is marked uninterpretable because
  // its end was never seen; a stream that does not inflate fails closed, whatever it is
  if (decoded.data === null)
    return {
      data: null,
      inflated: decoded.produced,
      uninterpretable: objectStream ? 'pdf object stream does not inflate' : 'pdf stream does not inflate',
    };
  return {
    data: decoded.data,
    inflated: decoded.produced,
    uninterpretable:
      decoded.short === 'cut' && objectStream ? 'pdf object stream ends before its compressed data does' : null,
  };
}
