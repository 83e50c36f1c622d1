// The predictors a FlateDecode or LZWDecode stream's `/DecodeParms` names (ISO 32000-2 §7.4.4.4), undone as pdf.js's
// `PredictorStream` undoes them: the PNG filters (Predictor 10–15: each row opens with its own filter type, None,
// Sub, Up, Average or Paeth) and TIFF Predictor 2 (horizontal differencing) at 1, 2, 4, 8 or 16 bits. Undoing one
// yields whole rows (`predictedLength`), counted against the inflate budget before it runs.
import { entry, type PdfValue } from './pdf-value.ts';

/** A predictor read from `/DecodeParms`: the kind and the row geometry pdf.js derives from it. */
export interface Predictor {
  kind: 'png' | 'tiff';
  colors: number;
  bits: number;
  columns: number;
}

/** Largest `/Colors` a predictor is undone with; more: not undone (the stream is uninterpretable). */
export const maxColors = 32;
/** Largest `/Columns` a predictor is undone with; more: not undone (the stream is uninterpretable). */
export const maxColumns = 1 << 20;
/** Largest predictor row, bytes; longer: not undone (the stream is uninterpretable). */
export const maxRowBytes = 1 << 20;

/** The predictor `parms` (one filter's `/DecodeParms`, or null) names: null for none, a string saying why it cannot be undone. */
export function predictorOf(parms: PdfValue | undefined): Predictor | null | string {
  if (parms === undefined || parms === null) return null;
  // pdf.js applies no predictor unless the parameters are a dictionary; another reader may: not undone
  if (!(parms instanceof Map)) return 'decode parameters that are not a dictionary';
  const predictor = numberOr(entry(parms, 'Predictor'), 1);
  if (predictor === null) return 'a predictor that is not a number';
  if (predictor <= 1) return null;
  if (predictor !== 2 && (predictor < 10 || predictor > 15)) return `predictor ${predictor}`;
  const colors = numberOr(entry(parms, 'Colors'), 1);
  const bits = numberOr(entry(parms, 'BitsPerComponent') ?? entry(parms, 'BPC'), 8);
  const columns = numberOr(entry(parms, 'Columns'), 1);
  if (colors === null || bits === null || columns === null) return 'predictor parameters that are not numbers';
  if (!Number.isInteger(colors) || colors < 1 || colors > maxColors) return `predictor with ${colors} colors`;
  if (![1, 2, 4, 8, 16].includes(bits)) return `predictor with ${bits} bits per component`;
  if (!Number.isInteger(columns) || columns < 1 || columns > maxColumns) return `predictor with ${columns} columns`;
  if (rowBytesOf(columns, colors, bits) > maxRowBytes) return `predictor rows over ${maxRowBytes} bytes`;
  return { kind: predictor === 2 ? 'tiff' : 'png', colors, bits, columns };
}

function rowBytesOf(columns: number, colors: number, bits: number): number {
  return Math.ceil((columns * colors * bits) / 8);
}

/** Bytes undoing `predictor` on `length` bytes yields: whole rows (a short last row is filled out). */
export function predictedLength(length: number, predictor: Predictor): number {
  const rowBytes = rowBytesOf(predictor.columns, predictor.colors, predictor.bits);
  const stride = predictor.kind === 'png' ? rowBytes + 1 : rowBytes;
  return Math.ceil(length / stride) * rowBytes;
}

// pdf.js reads `params.get(key) || fallback`: absent, 0 or null take the fallback
function numberOr(value: PdfValue | undefined, fallback: number): number | null {
  if (value === undefined || value === null || value === 0 || value === false) return fallback;
  return typeof value === 'number' ? value : null;
}

/** `data` with `predictor` undone, or null when a PNG row names a filter type pdf.js does not know (it stops there). */
export function unpredict(data: Buffer, predictor: Predictor): Buffer | null {
  const rowBytes = rowBytesOf(predictor.columns, predictor.colors, predictor.bits);
  const pixBytes = (predictor.colors * predictor.bits + 7) >> 3;
  return predictor.kind === 'png' ? unpredictPng(data, rowBytes, pixBytes) : unpredictTiff(data, rowBytes, predictor);
}

// pdf.js `readBlockPng`: a filter-type byte, then a row (a short last row is filled out with zeros)
function unpredictPng(data: Buffer, rowBytes: number, pixBytes: number): Buffer | null {
  const rows = Math.ceil(data.length / (rowBytes + 1));
  const out = Buffer.alloc(rows * rowBytes);
  let at = 0;
  let j = 0;
  for (let row = 0; row < rows; row++) {
    const type = data[at++];
    const raw = data.subarray(at, at + rowBytes);
    at += rowBytes;
    if (raw.length === 0) return out.subarray(0, j);
    const start = j;
    const up = (i: number): number => (row === 0 ? 0 : (out[start - rowBytes + i] ?? 0));
    for (let i = 0; i < rowBytes; i++, j++) {
      // past a short last row pdf.js writes zeros (its sums over missing bytes are NaN)
      if (i >= raw.length) continue;
      const c = raw[i] ?? 0;
      const left = i < pixBytes ? 0 : (out[j - pixBytes] ?? 0);
      switch (type) {
        case 0:
          out[j] = c;
          break;
        case 1:
          out[j] = left + c;
          break;
        case 2:
          out[j] = up(i) + c;
          break;
        case 3:
          out[j] = ((up(i) + left) >> 1) + c;
          break;
        case 4: {
          const upLeft = i < pixBytes ? 0 : up(i - pixBytes);
          out[j] = paeth(left, up(i), upLeft) + c;
          break;
        }
        default:
          return null;
      }
    }
  }
  return out.subarray(0, j);
}

function paeth(left: number, up: number, upLeft: number): number {
  const p = left + up - upLeft;
  const pa = Math.abs(p - left);
  const pb = Math.abs(p - up);
  const pc = Math.abs(p - upLeft);
  if (pa <= pb && pa <= pc) return left;
  return pb <= pc ? up : upLeft;
}

// pdf.js `readBlockTiff`: each component less the one a pixel before it in the row, at its bit depth
function unpredictTiff(data: Buffer, rowBytes: number, predictor: Predictor): Buffer {
  const { colors, bits, columns } = predictor;
  const rows = Math.ceil(data.length / rowBytes);
  const out = Buffer.alloc(rows * rowBytes);
  for (let row = 0; row < rows; row++) {
    const raw = data.subarray(row * rowBytes, (row + 1) * rowBytes);
    const base = row * rowBytes;
    if (bits === 8) {
      for (let i = 0; i < raw.length; i++)
        out[base + i] = (i < colors ? 0 : (out[base + i - colors] ?? 0)) + (raw[i] ?? 0);
    } else if (bits === 16) {
      const pixel = colors * 2;
      for (let i = 0; i < rowBytes; i += 2) {
        const before = i < pixel ? 0 : ((out[base + i - pixel] ?? 0) << 8) + (out[base + i - pixel + 1] ?? 0);
        const sum = ((raw[i] ?? 0) << 8) + (raw[i + 1] ?? 0) + before;
        out[base + i] = (sum >> 8) & 0xff;
        out[base + i + 1] = sum & 0xff;
      }
    } else {
      // components packed below a byte: each summed with the same component of the pixel before, modulo its depth
      const sums = new Array<number>(colors).fill(0);
      const mask = (1 << bits) - 1;
      let bit = 0;
      for (let i = 0; i < columns * colors; i++) {
        const k = i % colors;
        const byte = base + (bit >> 3);
        const shift = 8 - bits - (bit & 7);
        const value = (((raw[bit >> 3] ?? 0) >> shift) + (sums[k] ?? 0)) & mask;
        sums[k] = value;
        out[byte] = ((out[byte] ?? 0) & ~(mask << shift)) | (value << shift);
        bit += bits;
      }
    }
  }
  return out;
}
