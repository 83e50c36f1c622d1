// PDF active content (DESIGN §5): the names of `activePdfNames` (pdf-names.ts) anywhere in the object layer, also `#xx`-escaped
// (PDF 1.2+ name escapes, `/J#61vaScript`), `/URI` targets with a script scheme (pdf-uri-target.ts), inside
// FlateDecode object streams (PDF 1.5+ ObjStm) and in object streams stored in object streams, at any depth up
// to `maxObjectStreamNesting` (deeper withholds).
// Every pass is linear in what it reads: names are found by one byte loop, the stream walk never goes
// back past the previous stream, and inflating is capped in bytes and in streams (each inflate has a
// fixed zlib set-up cost, so 100,000 tiny streams would otherwise cost as much as a large file).
import { quoteValue } from '../../decision/quote-value.ts';
import { WorkBudget } from '../work-budget.ts';
import { inspectStream } from './pdf-inspect-stream.ts';
import { nextStreamKeyword, streamDataStart } from './pdf-lexer.ts';
import { describeName, findActiveName, type NameScanState } from './pdf-names.ts';
import { findObjectHeader } from './pdf-object-header.ts';
import { isObjectStream, type StreamDict, streamDictionary, streamEnd } from './pdf-stream-dict.ts';
import { openEncryptedPdf, type StreamDecryptor } from './pdf-decrypt.ts';
import { EncryptedStrings } from './pdf-encrypted-strings.ts';
import type { StringSkipState } from './pdf-literal-strings.ts';

/** Default budget for inflating one PDF's streams, bytes (all streams together); past it the PDF is uninterpretable. */
export const defaultMaxInflateBytes = 64 * 1024 * 1024;

/** Default cap on compressed streams inflated in one PDF, streams; past it the PDF is uninterpretable. */
export const defaultMaxInflatedStreams = 10_000;

/** Work one scan did, for budgets and tests (counted, never timed). */
export interface PdfWork {
  /** `stream` keywords walked */
  streams: number;
  /** streams handed to zlib */
  inflatedStreams: number;
  /** bytes zlib produced, all streams together */
  inflatedBytes: number;
  /** bytes of the object layer and of inflated or raw object streams read for names */
  scannedBytes: number;
}

/** What a PDF scan found: the first active name, or why the file cannot be checked, and the work it took. */
export interface PdfScan {
  /** decoded active name (`JavaScript`) and where it was seen, or null */
  active: string | null;
  /** why the PDF cannot be inspected (truncated, encrypted, streams over budget), or null */
  uninterpretable: string | null;
  work: PdfWork;
}

interface ScanState extends NameScanState {
  work: PdfWork;
}

/** Scans PDF bytes for active content without rendering: object layer, then inflated non-image streams. Linear in the bytes plus the inflated bytes; every step is spent from `budget` (throws `WorkExhausted` when it runs out, nothing else). */
export function scanPdf(
  bytes: Buffer,
  maxInflateBytes: number = defaultMaxInflateBytes,
  maxInflatedStreams: number = defaultMaxInflatedStreams,
  budget: WorkBudget = WorkBudget.unlimited(),
): PdfScan {
  budget.spend('pdf', bytes.length);
  const s = bytes.toString('latin1');
  const state: ScanState = {
    work: { streams: 0, inflatedStreams: 0, inflatedBytes: 0, scannedBytes: 0 },
    encrypted: false,
    budget,
    uriByReference: false,
    scriptString: null,
  };
  const out: PdfScan = { active: null, uninterpretable: null, work: state.work };
  // an encrypted file opens with the empty user password in every viewer: its streams are decrypted and read
  const opening = s.includes('/Encrypt') ? openEncryptedPdf(s) : null;
  const decrypt = opening?.ok === true ? opening : null;
  const shared: Shared = { state, out, inflateLeft: maxInflateBytes, maxInflatedStreams, strings: { off: false } };
  const strings = decrypt === null ? null : new EncryptedStrings(s, decrypt.strings, budget);
  const walk: Walk = { s, bytes, shared, decrypt, stored: 0, strings };
  const found = walkObjects(walk, 0, bytes.length, 0);
  if (found !== null) return { ...out, active: found };
  // a `/URI` target given by reference: a string anywhere with a script scheme may be it (in an encrypted file, read
  // decrypted, which is searched for only then)
  if (state.uriByReference && state.scriptString === null && decrypt !== null)
    state.scriptString = new EncryptedStrings(s, decrypt.strings, budget).firstScriptString(bytes);
  if (state.uriByReference && state.scriptString !== null)
    return {
      ...out,
      active: `pdf active content \`/URI\` whose target by reference may be a ${quoteValue(state.scriptString)} string`,
    };
  // an encrypted file that does not open says so first: its streams were never read in the clear
  if (state.encrypted && decrypt === null)
    out.uninterpretable = `encrypted pdf: strings and streams cannot be inspected (${opening?.ok === false ? opening.why : 'no encryption dictionary'})`;
  const tail = s.slice(Math.max(0, s.length - 1024));
  if (!tail.includes('%%EOF') && out.uninterpretable === null) out.uninterpretable = 'truncated pdf: no `%%EOF` marker';
  return out;
}

/** Deepest nesting of objects stored inside another stream's data that is followed; deeper is uninterpretable. */
export const maxHiddenObjectDepth = 4;

/** Deepest nesting of object streams stored in another object stream's data that is read; deeper is uninterpretable. */
export const maxObjectStreamNesting = 4;

// what every walk of one scan shares: the counts, the findings, the inflate bytes left
interface Shared {
  state: ScanState;
  out: PdfScan;
  /** inflate bytes left */
  inflateLeft: number;
  maxInflatedStreams: number;
  /** whether the object layer's literal strings may still be passed over for names (pdf-literal-strings.ts) */
  strings: StringSkipState;
}

interface Walk {
  /** the data walked: the file, or the decoded data of an object stream */
  s: string;
  bytes: Buffer;
  shared: Shared;
  /** the empty-password opening of an encrypted file, or null (objects in an object stream are not encrypted again) */
  decrypt: { decrypt: StreamDecryptor; encryptMetadata: boolean } | null;
  /** object streams the data is stored in: 0 for the file itself */
  stored: number;
  /** the file's strings as a viewer decrypts them, when it is encrypted and opens; null otherwise */
  strings: EncryptedStrings | null;
}

// the object layer in [from, to) and every stream starting there (a stream's data may run past `to`). A reader
// finds an object wherever its xref offset points, or, rebuilding a broken xref, wherever `N G obj` stands:
// also inside another stream's raw data (an image's pixels, a font program, an unfiltered content stream).
// Raw stream data holding an object header is therefore walked as objects too, `depth` levels deep. In an object
// stream's decoded data (`w.stored` > 0) only the streams are walked: its names were read whole already.
function walkObjects(w: Walk, from: number, to: number, depth: number): string | null {
  const { s, bytes, shared } = w;
  const { state, out } = shared;
  let pos = from;
  for (;;) {
    const at = nextStreamKeyword(s, pos, to, state.budget);
    const inside = at !== -1;
    // an encrypted file's own strings (not those of a decrypted object stream) are read decrypted
    state.openString = w.strings === null ? undefined : (at) => (w.strings as EncryptedStrings).open(at);
    const found = w.stored > 0 ? null : findActiveName(bytes, pos, inside ? at : to, state, shared.strings);
    state.openString = undefined;
    if (found !== null)
      return describeName(
        found,
        depth === 0 ? 'in the object layer' : "in an object stored inside another stream's data",
      );
    if (!inside) return null;
    if (w.stored > maxObjectStreamNesting) {
      if (out.uninterpretable === null)
        out.uninterpretable = `pdf nests object streams inside object streams more than ${maxObjectStreamNesting} deep`;
      return null;
    }
    state.work.streams++;
    state.budget.spend('pdf', 64);
    const dict = streamDictionary(s, at, pos, state.budget);
    const dataStart = streamDataStart(s, at + 6);
    const dataEnd = streamEnd(s, dataStart, dict.keys);
    const refuse =
      state.work.inflatedStreams < shared.maxInflatedStreams
        ? null
        : `pdf has more than ${shared.maxInflatedStreams} compressed streams to inspect`;
    const data = streamData(w, dict, bytes.subarray(dataStart, dataEnd));
    const verdict = dict.ambiguous
      ? {
          data: null,
          inflated: null,
          uninterpretable: 'pdf stream has more than one object header before its dictionary',
        }
      : data === null
        ? { data: null, inflated: null, uninterpretable: 'encrypted pdf stream does not decrypt' }
        : inspectStream(dict, data, shared.inflateLeft, refuse);
    state.budget.spend('pdf', dataEnd - dataStart);
    if (verdict.inflated !== null) {
      state.budget.spend('pdf', verdict.inflated);
      state.work.inflatedStreams++;
      state.work.inflatedBytes += verdict.inflated;
      shared.inflateLeft -= verdict.inflated;
    }
    if (verdict.uninterpretable !== null && out.uninterpretable === null) out.uninterpretable = verdict.uninterpretable;
    if (verdict.data !== null) {
      const inner = findActiveName(verdict.data, 0, verdict.data.length, state);
      if (inner !== null)
        return describeName(
          inner,
          w.stored === 0
            ? 'inside a compressed stream'
            : `inside a compressed stream stored in an object stream ${w.stored} deep`,
        );
      // pdf.js reads stream objects out of an object stream (`allowStreams`), and an xref entry may name one as
      // the object stream holding further objects: its own filters hid them from the scan above
      if (isObjectStream(dict.keys) || isObjectStream(dict.span)) {
        const stored = walkStored(w, verdict.data);
        if (stored !== null) return stored;
      }
    }
    const hidden = w.stored > 0 ? -1 : findObjectHeader(s, dataStart, dataEnd, state.budget);
    if (hidden !== -1) {
      if (depth >= maxHiddenObjectDepth) {
        if (out.uninterpretable === null)
          out.uninterpretable = `pdf nests objects inside stream data more than ${maxHiddenObjectDepth} deep`;
      } else {
        const inner = walkObjects(w, hidden, dataEnd, depth + 1);
        if (inner !== null) return inner;
      }
    }
    const after = s.indexOf('endstream', dataEnd);
    pos = after === -1 ? s.length : after + 9;
  }
}

// the streams stored in an object stream's decoded data, one level further in
function walkStored(w: Walk, data: Buffer): string | null {
  w.shared.state.budget.spend('pdf', data.length);
  // no `stream` keyword at all: no stream object is stored there (most object streams), nothing more to read
  if (data.indexOf('stream', 0, 'latin1') === -1) return null;
  const inner: Walk = {
    s: data.toString('latin1'),
    bytes: data,
    shared: w.shared,
    decrypt: null,
    stored: w.stored + 1,
    strings: null,
  };
  return walkObjects(inner, 0, data.length, 0);
}

// a stream's data as a viewer reads it: decrypted with its object's key in an encrypted file (cross-reference
// streams, and metadata when `/EncryptMetadata false`, are stored in the clear); null when it does not decrypt
function streamData(w: Walk, dict: StreamDict, raw: Buffer): Buffer | null {
  if (w.decrypt === null || /\/Type\s*\/XRef\b/.test(dict.keys)) return raw;
  if (!w.decrypt.encryptMetadata && /\/Type\s*\/Metadata\b/.test(dict.keys)) return raw;
  if (dict.object === null) return null;
  w.shared.state.budget.spend('pdf', raw.length);
  return w.decrypt.decrypt(raw, dict.object[0], dict.object[1]);
}
