// PDFs whose active names stand next to, or inside, literal strings (issue 41: names inside strings are text): the
// ordinary shape (a link whose https target spells `/JavaScript/` and `/Launch`) and the shapes that would get a real
// name past a scan that passes over strings without reading them as every reader does. Each attack opens with a
// JavaScript OpenAction pdf.js runs; each control holds the same names only where pdf.js reads a string.

const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');

/** The script every attack's OpenAction runs. */
export const stringAttackScript = 'app.alert(1)';

/**
 * A PDF of the objects `bodies` (object n is `bodies[n - 1]`; object 1 is the catalog, 2 the page tree, 3 the page)
 * with a cross-reference table. An object whose body is null is written nowhere of its own: its offset is where its
 * header (`n 0 obj`) first stands in the text, inside another object.
 */
export function rawPdf(bodies: (string | null)[]): Buffer {
  let text = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(text.length);
    if (body !== null) text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  bodies.forEach((body, i) => {
    if (body === null) offsets[i] = text.indexOf(`${i + 1} 0 obj`);
  });
  const xref = text.length;
  text += `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) text += `${String(at).padStart(10, '0')} 00000 n \n`;
  text += `trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return latin1(text);
}

const page = (annots = ''): string =>
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792]${annots === '' ? '' : ` /Annots [${annots}]`} >>`;

/** A one-page PDF whose catalog's OpenAction is object 4, written as `action` (null: inside `others`), then `others`. */
export function openActionPdf(action: string | null, ...others: (string | null)[]): Buffer {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    page(),
    action,
    ...others,
  ]);
}

const js = `/S /JavaScript /JS (${stringAttackScript.replace(/[()]/g, '\\$&')})`;

/**
 * A PDF with no usable cross-reference table (`startxref` pointing at `startxref`), so pdf.js rebuilds it from the
 * text (`XRef.indexObjects`), whose object 3 is one literal string `(text…)` holding a trailer whose catalog opens with
 * a JavaScript action: the rebuild finds `xref`, `trailer` and `endobj` at boundaries a lexer does not.
 */
function rebuildPdf(text: string, startxref = '999999'): Buffer {
  const catalog = `/Root << /Type /Catalog /Pages 1 0 R /OpenAction << ${js} >> >> >>`;
  return latin1(
    '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n' +
      '1 0 obj\n<< /Type /Pages /Kids [2 0 R] /Count 1 >>\nendobj\n' +
      '2 0 obj\n<< /Type /Page /Parent 1 0 R /MediaBox [0 0 612 792] >>\nendobj\n' +
      `3 0 obj\n(${text} ${catalog}\n%)\nendobj\nstartxref\n${startxref}\n%%EOF\n`,
  );
}

/** Shapes that hide a live JavaScript OpenAction behind strings read some other way: name and bytes. */
export const stringNameAttacks: [string, Buffer][] = [
  ['a real action after a string spelling the names', openActionPdf(`<< /T (https://x.test/JavaScript/) ${js} >>`)],
  [
    'a string whose last byte is an escaped backslash, not an escaped `)`',
    openActionPdf(`<< /T (a\\\\) ${js} /U (b) >>`),
  ],
  ['a real action after nested parentheses', openActionPdf(`<< /T (a (b) c) ${js} /U (d) >>`)],
  ['a `(` in a comment before the action', openActionPdf(`<< /T 1 % see (\n${js} /U (x) >>\n% )`)],
  ['a `(` in a hex string before the action', openActionPdf(`<< /T <41(> ${js} /U (x) >>\n% )`)],
  [
    'an object pdf.js reads from its header inside another object\u2019s string',
    openActionPdf(null, `<< /T (4 0 obj << ${js} >> endobj % )\n>>`),
  ],
  ['an inline image whose data holds a `(`', openActionPdf(`<< /X BI /W 1 /H 1 /BPC 8 /CS /G ID ( EI ${js} >>\n% )`)],
  // the xref rebuild's own token boundaries (found in review): `xref` before a byte JavaScript's \\s takes, a
  // `trailer` inside a word, after `endobj.`, or before `<<` after any byte
  ['a string: xref and U+00A0, xtrailer (rebuilt)', rebuildPdf('see xref\xa00 0 xtrailer << /Size 4')],
  ['a string: xref and VT, xtrailer (rebuilt)', rebuildPdf('see xref\x0b0 0 xtrailer << /Size 4')],
  ['a string: xref and U+00A0, startxref 0 (rebuilt)', rebuildPdf('see xref\xa00 0 xtrailer << /Size 4', '0')],
  ['a string: endobj.trailer (rebuilt)', rebuildPdf('see endobj.trailer << /Size 4')],
  ['a string: see.trailer<<1 (rebuilt)', rebuildPdf('see.trailer<<1 /Size 4')],
  [
    'a string across a `stream` keyword, resumed behind a comment and a hex string',
    openActionPdf(`<< /A (>> stream\nendstream % ) /B <\n( > ${js} >>\n% )`),
  ],
];

/** A one-page PDF with a link annotation to `uri` (a literal string) whose text is `contents`. */
export function linkPdf(uri: string, contents: string): Buffer {
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    page('4 0 R'),
    `<< /Type /Annot /Subtype /Link /F 4 /Border [0 0 0] /Rect [10 10 200 40] /Contents ${contents} /A << /Type /Action /S /URI /URI ${uri} >> >>`,
  ]);
}

/** Ordinary documents whose strings spell active names that no reader takes for names: name and bytes. */
export const stringNameControls: [string, Buffer][] = [
  [
    'a link to MDN\u2019s JavaScript pages and a /Launch path',
    linkPdf(
      '(https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Global_Objects/Launch)',
      '(see /JavaScript and /JS and /EmbeddedFile)',
    ),
  ],
  ['a string whose `)` is escaped, so the names are inside it', linkPdf('(https://x.test/)', `(x\\) ${js})`)],
  ['names inside nested parentheses', linkPdf('(https://x.test/a/JavaScript/)', `(a (b ${js}) c)`)],
  ['a name after an escaped backslash inside a string', linkPdf('(https://x.test/)', '(a\\\\ /Launch b)')],
];
