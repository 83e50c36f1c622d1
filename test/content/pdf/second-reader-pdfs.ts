// PDFs that poppler or MuPDF read differently from pdf.js (issue 41 item 1): a relative URI action resolved against
// the catalog's `/URI /Base` (both readers prepend it), link targets written as UTF-16LE or UTF-8 strings with a byte
// order mark (MuPDF decodes both, pdf.js a GoToR file's UTF-8), and the benign forms of each.

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

/** A one-page PDF whose catalog holds `catalogExtra` and whose page holds one link annotation running `action`. */
export function linkPdf(catalogExtra: string, action: string): Buffer {
  const objects = [
    `<< /Type /Catalog /Pages 2 0 R ${catalogExtra} >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Annots [4 0 R] >>',
    `<< /Type /Annot /Subtype /Link /Rect [10 10 200 40] /A ${action} >>`,
  ];
  let text = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) text += `${String(at).padStart(10, '0')} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return latin1(text);
}

/** `text` as a hex string with a UTF-16LE byte order mark. */
export const utf16le = (text: string): string => `<fffe${Buffer.from(text, 'utf16le').toString('hex')}>`;
/** `text` as a hex string with a UTF-8 byte order mark. */
export const utf8 = (text: string): string => `<efbbbf${Buffer.from(text, 'utf8').toString('hex')}>`;

const uri = (target: string): string => `<< /S /URI /URI ${target} >>`;
const relative = uri('(app.alert\\(1\\))');

/** Documents a second reader finds a script-scheme link in: name and bytes. */
export const secondReaderAttacks: [string, Buffer][] = [
  ['a relative URI under a javascript: /Base', linkPdf('/URI << /Base (javascript:) >>', relative)],
  ['a relative URI under a hex javascript: /Base', linkPdf('/URI << /Base <6a617661 73637269 70743a> >>', relative)],
  ['a relative URI under a /Base with an escaped name', linkPdf('/URI << /B#61se (JavaScript:) >>', relative)],
  [
    'a URI opening with a colon under a /Base with no colon',
    linkPdf('/URI << /Base (javascript) >>', uri('(:app.alert\\(1\\))')),
  ],
  ['a relative URI under a UTF-16LE /Base', linkPdf(`/URI << /Base ${utf16le('javascript:')} >>`, relative)],
  ['a relative URI under a UTF-8 /Base', linkPdf(`/URI << /Base ${utf8('javascript:')} >>`, relative)],
  ['a UTF-16LE URI', linkPdf('', uri(utf16le('javascript:app.alert(1)')))],
  ['a UTF-8 URI', linkPdf('', uri(utf8('javascript:app.alert(1)')))],
  [
    'a GoToR URL file specification in UTF-8',
    linkPdf('', `<< /S /GoToR /F << /FS /URL /F ${utf8('javascript:app.alert(1)')} >> /D [0 /Fit] >>`),
  ],
];

/** Benign documents of the same shapes: name and bytes. */
export const secondReaderControls: [string, Buffer][] = [
  ['a relative URI under an https /Base', linkPdf('/URI << /Base (https://example.com/docs/) >>', uri('(guide.html)'))],
  ['a UTF-8 https URI', linkPdf('', uri(utf8('https://example.com/guide')))],
  ['a UTF-16LE https URI', linkPdf('', uri(utf16le('https://example.com/guide')))],
  [
    'a /Base naming a site whose path says javascript',
    linkPdf('/URI << /Base (https://example.com/javascript:/) >>', relative),
  ],
];
