// The real kind of decoded text: formats announced by their first characters, JSON, markup roots, or inert text.
import { isJsonText } from './json-syntax.ts';

/** Leading characters looked at to find a markup root, characters. */
export const markupHeadChars = 8192;

const internetShortcut = /^[ \t]*\[InternetShortcut\][ \t]*\r?$/im;

/** Kind ids of decoded text; `pdf`, `rtf`, `postscript`, `reg` and `shell-script` are text-encoded formats, not inert text. */
export type TextKind =
  | 'text'
  | 'json'
  | 'svg'
  | 'html'
  | 'xml'
  | 'hta'
  | 'shell-script'
  | 'reg'
  | 'url-shortcut'
  | 'postscript'
  | 'pdf'
  | 'rtf';

/** Classifies decoded text (without its BOM); short binary magics (`MZ`, `BM`) are deliberately not considered: printable text stays text. */
export function classifyText(text: string): TextKind {
  // the kernel only honours `#!` at offset 0, but a BOM-prefixed shebang is still a script to every editor and interpreter
  if (text.startsWith('#!')) return 'shell-script';
  const head = text.slice(0, markupHeadChars).trimStart();
  // behind blank lines or indentation the kernel no longer honours it, but `sh file` and editors still treat a
  // `#!/interpreter` first line as a script; the slash keeps prose such as `#! is a shebang` inert
  if (head.startsWith('#!/')) return 'shell-script';
  if (
    /^(?:REGEDIT4|Windows Registry Editor Version 5\.00)\s/i.test(head) ||
    /^(?:REGEDIT4|Windows Registry Editor Version 5\.00)$/i.test(head)
  )
    return 'reg';
  // a Windows Internet Shortcut (`.url`) is an INI file: Windows finds its section on any line
  if (internetShortcut.test(text)) return 'url-shortcut';
  // a PostScript program must start `%!PS`; other text starting `%!` is just text
  if (head.startsWith('%!PS')) return 'postscript';
  if (head.startsWith('%PDF-')) return 'pdf';
  if (head.startsWith('{\\rtf')) return 'rtf';
  if ((head.startsWith('{') || head.startsWith('[')) && isJsonText(text)) return 'json';
  if (/<hta:application\b/i.test(text)) return 'hta';
  return markupRoot(head) ?? 'text';
}

// skips the prolog (xml declaration, processing instructions, comments, doctype) and names the root element
function markupRoot(head: string): 'svg' | 'html' | 'xml' | null {
  let rest = head;
  let prolog = false;
  let doctype = '';
  for (let guard = 0; guard < 64; guard++) {
    rest = rest.trimStart();
    if (rest.startsWith('<?')) {
      const end = rest.indexOf('?>');
      if (end === -1) return prolog || rest.startsWith('<?xml') ? 'xml' : null;
      prolog = true;
      rest = rest.slice(end + 2);
    } else if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->');
      if (end === -1) return null;
      rest = rest.slice(end + 3);
    } else if (/^<!doctype\b/i.test(rest)) {
      const end = doctypeEnd(rest);
      doctype = rest.slice(0, end === -1 ? rest.length : end).toLowerCase();
      if (end === -1) break;
      rest = rest.slice(end);
      prolog = true;
    } else {
      break;
    }
  }
  if (/^<!doctype\s+html\b/.test(doctype)) return 'html';
  const root = /^<\s*(?:([a-z0-9_.-]+):)?([a-z][a-z0-9_.-]*)/i.exec(rest);
  if (root === null) return prolog ? (doctype.includes('svg') ? 'svg' : 'xml') : null;
  const name = (root[2] ?? '').toLowerCase();
  if (name === 'svg') return 'svg';
  if (
    name === 'html' ||
    name === 'head' ||
    name === 'body' ||
    name === 'frameset' ||
    name === 'script' ||
    name === 'iframe'
  )
    return 'html';
  return prolog ? 'xml' : null;
}

// a doctype may carry an internal subset in brackets, which may itself hold `>`
function doctypeEnd(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
    else if (c === '>' && depth === 0) return i + 1;
  }
  return -1;
}
