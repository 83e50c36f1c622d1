// Encoders for the PDF filters and predictors the gate undoes (LZWDecode, RunLengthDecode, the PNG and TIFF
// predictors), written from ISO 32000-2 §7.4 so test PDFs hold them as a PDF writer would; pdf.js reads every
// file they make in the tests (the oracle), so an encoder that disagrees with the standard fails there.

/** LZW with a clear code first, 9- to 12-bit codes widened `earlyChange` codes early (1: the default), and EOD. */
export function lzwEncode(data: Buffer, earlyChange: 0 | 1 = 1): Buffer {
  const bits: number[] = [];
  let table = new Map<string, number>();
  let next = 258;
  // codes written since the last clear: the decoder adds an entry for each but the first, and widens by its count
  let written = 0;
  const emit = (code: number): void => {
    written++;
    const decoderNext = 258 + Math.max(0, written - 2);
    const edge = decoderNext + earlyChange;
    const width = Math.min(12, Math.max(9, Math.floor(Math.log2(edge)) + 1));
    for (let b = width - 1; b >= 0; b--) bits.push((code >> b) & 1);
  };
  const clear = (): void => {
    emit(256);
    table = new Map();
    next = 258;
    written = 0;
  };
  clear();
  const codeOf = (text: string): number => (text.length === 1 ? text.charCodeAt(0) : (table.get(text) ?? 0));
  let w = '';
  for (const byte of data) {
    const c = String.fromCharCode(byte);
    if (w === '' || table.has(w + c)) {
      w += c;
      continue;
    }
    emit(codeOf(w));
    table.set(w + c, next++);
    w = c;
    if (next >= 4000) {
      emit(codeOf(w));
      w = '';
      clear();
    }
  }
  if (w !== '') emit(codeOf(w));
  emit(257);
  const out = Buffer.alloc(Math.ceil(bits.length / 8));
  bits.forEach((bit, i) => {
    if (bit === 1) out[i >> 3] = (out[i >> 3] ?? 0) | (0x80 >> (i & 7));
  });
  return out;
}

/** RunLength: runs of three or more equal bytes as repeats, the rest as literal runs of up to 128 bytes, then EOD. */
export function runLengthEncode(data: Buffer): Buffer {
  const out: number[] = [];
  let i = 0;
  while (i < data.length) {
    let run = 1;
    while (i + run < data.length && data[i + run] === data[i] && run < 128) run++;
    if (run >= 3) {
      out.push(257 - run, data[i] ?? 0);
      i += run;
      continue;
    }
    const start = i;
    while (i < data.length && i - start < 128 && !(data[i] === data[i + 1] && data[i] === data[i + 2])) i++;
    if (i === start) i++;
    out.push(i - start - 1, ...data.subarray(start, i));
  }
  out.push(128);
  return Buffer.from(out);
}

/** PNG predictor rows of `columns` bytes (one color, 8 bits), each row's filter type taken in turn from `types`. */
export function pngPredict(data: Buffer, columns: number, types: readonly number[] = [0, 1, 2, 3, 4]): Buffer {
  const rows = Math.ceil(data.length / columns);
  const raw = Buffer.alloc(rows * columns, 0x20);
  data.copy(raw);
  const out: Buffer[] = [];
  for (let r = 0; r < rows; r++) {
    const type = types[r % types.length] ?? 0;
    const line = Buffer.alloc(columns + 1);
    line[0] = type;
    for (let i = 0; i < columns; i++) {
      const x = raw[r * columns + i] ?? 0;
      const left = i === 0 ? 0 : (raw[r * columns + i - 1] ?? 0);
      const up = r === 0 ? 0 : (raw[(r - 1) * columns + i] ?? 0);
      const upLeft = r === 0 || i === 0 ? 0 : (raw[(r - 1) * columns + i - 1] ?? 0);
      const predicted = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][type] ?? 0;
      line[i + 1] = (x - predicted) & 0xff;
    }
    out.push(line);
  }
  return Buffer.concat(out);
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/** TIFF predictor 2 at 8 bits: each byte less the one `colors` before it in its row of `columns` pixels. */
export function tiffPredict(data: Buffer, columns: number, colors: number): Buffer {
  const rowBytes = columns * colors;
  const rows = Math.ceil(data.length / rowBytes);
  const raw = Buffer.alloc(rows * rowBytes, 0x20);
  data.copy(raw);
  const out = Buffer.alloc(raw.length);
  for (let i = 0; i < raw.length; i++)
    out[i] = ((raw[i] ?? 0) - (i % rowBytes < colors ? 0 : (raw[i - colors] ?? 0))) & 0xff;
  return out;
}
