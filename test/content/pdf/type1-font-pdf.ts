// A one-page PDF that shows the letter `H` in an embedded Type 1 font, with the font dictionary's `/FontMatrix`
// written as given: the fixture of the font-matrix round (CVE-2024-4367). The font program is a minimal Type 1 font
// (one box glyph, eexec- and charstring-encrypted as Adobe's Type 1 spec says) whose header has no `/FontMatrix`, so
// pdf.js takes the dictionary's.

// a Type 1 charstring number (Type 1 spec §6.2)
function charNumber(n: number): number[] {
  if (n >= -107 && n <= 107) return [n + 139];
  if (n >= 108 && n <= 1131) return [((n - 108) >> 8) + 247, (n - 108) & 0xff];
  if (n >= -1131 && n <= -108) return [((-n - 108) >> 8) + 251, (-n - 108) & 0xff];
  return [255, (n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
}

const operators: Readonly<Record<string, number>> = { hsbw: 13, rmoveto: 21, rlineto: 5, closepath: 9, endchar: 14 };

// Type 1 encryption (spec §7): eexec (r = 55665) and charstrings (r = 4330), four leading bytes
function encrypt(plain: readonly number[], key: number): Buffer {
  let r = key;
  const out = Buffer.alloc(plain.length + 4);
  [0, 0, 0, 0, ...plain].forEach((p, i) => {
    const c = p ^ (r >> 8);
    r = ((c + r) * 52845 + 22719) & 0xffff;
    out[i] = c;
  });
  return out;
}

const charstring = (parts: readonly (number | string)[]): Buffer =>
  encrypt(
    parts.flatMap((p) => (typeof p === 'number' ? charNumber(p) : [operators[p] ?? 0])),
    4330,
  );

/** A Type 1 font program with one glyph `H` and no `/FontMatrix` in its header, and its three part lengths. */
export function type1Font(): { bytes: Buffer; length1: number; length2: number; length3: number } {
  const notdef = charstring([0, 500, 'hsbw', 'endchar']);
  const box = charstring([
    0,
    600,
    'hsbw',
    50,
    0,
    'rmoveto',
    500,
    0,
    'rlineto',
    0,
    700,
    'rlineto',
    -500,
    0,
    'rlineto',
    'closepath',
    'endchar',
  ]);
  const clear = Buffer.from(
    '%!PS-AdobeFont-1.0: Box 001\n11 dict begin\n/FontName /Box def\n/PaintType 0 def\n/FontType 1 def\n/Encoding StandardEncoding def\n/FontBBox {0 0 600 700} readonly def\ncurrentdict end\ncurrentfile eexec\n',
    'latin1',
  );
  const privateDict = Buffer.concat([
    Buffer.from(
      'dup /Private 8 dict dup begin\n/RD{string currentfile exch readstring pop}executeonly def\n/ND{noaccess def}executeonly def\n/NP{noaccess put}executeonly def\n/lenIV 4 def\n/BlueValues [] def\n/Subrs 0 array ND\n2 index /CharStrings 2 dict dup begin\n',
      'latin1',
    ),
    Buffer.from(`/.notdef ${notdef.length} RD `, 'latin1'),
    notdef,
    Buffer.from(` ND\n/H ${box.length} RD `, 'latin1'),
    box,
    Buffer.from(
      ' ND\nend\nend\nreadonly put\nnoaccess put\ndup /FontName get exch definefont pop\nmark currentfile closefile\n',
      'latin1',
    ),
  ]);
  const encrypted = encrypt([...privateDict], 55665);
  const trailer = Buffer.from(`\n${`${'0'.repeat(64)}\n`.repeat(8)}cleartomark\n`, 'latin1');
  return {
    bytes: Buffer.concat([clear, encrypted, trailer]),
    length1: clear.length,
    length2: encrypted.length,
    length3: trailer.length,
  };
}

/** The PDF: `fontEntries` is written into the font dictionary as is (a `/FontMatrix …` entry, or nothing). */
export function pdfWithType1Font(fontEntries: string): Buffer {
  const font = type1Font();
  const content = 'BT /F1 24 Tf 10 50 Td (H) Tj ET';
  const objects: (string | Buffer)[] = [
    '<</Type/Catalog/Pages 2 0 R>>',
    '<</Type/Pages/Kids[3 0 R]/Count 1>>',
    '<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 100]/Resources<</Font<</F1 5 0 R>>>>/Contents 4 0 R>>',
    `<</Length ${content.length}>>\nstream\n${content}\nendstream`,
    `<</Type/Font/Subtype/Type1/BaseFont/Box/FirstChar 72/LastChar 72/Widths[600]/FontDescriptor 6 0 R${fontEntries}>>`,
    '<</Type/FontDescriptor/FontName/Box/Flags 32/FontBBox[0 0 600 700]/ItalicAngle 0/Ascent 700/Descent 0/CapHeight 700/StemV 80/FontFile 7 0 R>>',
    Buffer.concat([
      Buffer.from(
        `<</Length ${font.bytes.length}/Length1 ${font.length1}/Length2 ${font.length2}/Length3 ${font.length3}>>\nstream\n`,
        'latin1',
      ),
      font.bytes,
      Buffer.from('\nendstream', 'latin1'),
    ]),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n', 'latin1')];
  let length = parts[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const part = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    parts.push(part);
    length += part.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}trailer\n<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}
