// What one stream holds for the active-content scan: its inflated bytes (FlateDecode; for an object stream, a
// chain of ASCIIHex, ASCII85, FlateDecode, LZWDecode and RunLengthDecode, with the predictors `/DecodeParms` names;
// within the inflate budget and stream cap), a raw object stream as is, or nothing (pixels, fonts, xref); an object
// stream that cannot be read is uninterpretable.
import { quoteValue } from '../../decision/quote-value.ts';
import { decodeChain, type FilterParms, isFlate, isLzw, noParms, takesParms, undoableChain } from './pdf-filters.ts';
import { predictorOf } from './pdf-predictor.ts';
import { filterNames, isObjectStream, type StreamDict } from './pdf-stream-dict.ts';
import { entry, type PdfValue, readPdfValue } from './pdf-value.ts';

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
  // a single FlateDecode is undone for any stream; any chain of the filters pdf-filters.ts undoes
  // (`[/ASCII85Decode /FlateDecode]`, LZW, RunLength) only for an object stream, whose objects pdf.js reads through
  // every filter it names
  const undoable = objectStream ? undoableChain(filters) : filters.length === 1 && isFlate(filters[0]);
  if (!undoable) {
    return objectStream
      ? {
          ...skipped,
          uninterpretable: `pdf object stream with filter ${quoteValue(filters.join(' '))} cannot be inspected`,
        }
      : skipped;
  }
  const parms = chainParms(dict, filters);
  if (typeof parms === 'string')
    return objectStream
      ? { ...skipped, uninterpretable: `pdf object stream with ${parms} cannot be inspected` }
      : skipped;
  if (budget <= 0) return { ...skipped, uninterpretable: OVER_BUDGET };
  if (refuse !== null) return { ...skipped, uninterpretable: refuse };
  const decoded = decodeChain(filters, data, budget, parms);
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

// Each filter's `/DecodeParms` as pdf.js reads them (`/DP` before `/DecodeParms`; by index for a filter array), or
// why they cannot be read: parameters by reference, a dictionary that does not parse, a predictor pdf.js refuses
function chainParms(dict: string, filters: readonly string[]): FilterParms[] | string {
  const named = /\/(?:DecodeParms|DP)(?![^\0\t\n\f\r /[\]<>(){}%])/.test(dict);
  if (!named) return filters.map(() => noParms);
  const read = readPdfValue(dict, dict.indexOf('<<'));
  if (read === null || !(read.value instanceof Map)) return 'decode parameters outside a readable dictionary';
  const value = entry(read.value, 'DP') ?? entry(read.value, 'DecodeParms');
  // named, but not a key of the dictionary read: a reader of another dictionary in the text may find them
  if (value === undefined) return 'decode parameters outside a readable dictionary';
  if (value === null) return filters.map(() => noParms);
  const own: (PdfValue | undefined)[] =
    filters.length === 1 ? [value] : Array.isArray(value) ? value : filters.map(() => value);
  const parms: FilterParms[] = [];
  for (const [i, filter] of filters.entries()) {
    const p = own[i];
    if (p !== null && typeof p === 'object' && 'ref' in p) return 'decode parameters by reference';
    if (!takesParms(filter)) {
      parms.push(noParms);
      continue;
    }
    const predictor = predictorOf(p);
    if (typeof predictor === 'string') return predictor;
    // a dictionary shared by every filter of an array reaches none of them in pdf.js: another reader may apply it
    if (predictor !== null && filters.length > 1 && !Array.isArray(value)) return 'decode parameters not per filter';
    const early = p instanceof Map && isLzw(filter) ? (entry(p, 'EarlyChange') ?? 1) : 1;
    if (early !== 0 && early !== 1) return 'an lzw early change other than 0 or 1';
    parms.push({ predictor, earlyChange: early });
  }
  return parms;
}
