// How each executable kind is named in reason messages.
import { familyOf } from './kinds.ts';

const descriptions: Readonly<Record<string, string>> = Object.freeze({
  pe: 'a windows pe executable',
  elf: 'an elf executable',
  macho: 'a mach-o executable',
  'java-class': 'a java class file',
  jar: 'a java archive',
  apk: 'an android package',
  dex: 'android dalvik bytecode',
  wasm: 'a webassembly module',
  msi: 'a windows installer package',
  deb: 'an installable debian package',
  rpm: 'an installable rpm package',
  lnk: 'a windows shortcut (.lnk)',
  chm: 'a compiled html help file',
  swf: 'a flash movie',
  reg: 'a windows registry import',
  'url-shortcut': 'a windows internet shortcut (.url)',
  'desktop-launcher': 'a linux desktop launcher (`[Desktop Entry]` with `Exec=` or `URL=`)',
  scf: 'a windows shell command file (.scf: explorer reads it when its folder is shown)',
  'library-ms': 'a windows library description (.library-ms: explorer opens its locations when its folder is shown)',
  postscript: 'a postscript program',
  crx: 'a chrome extension',
  xpi: 'a browser extension',
  hta: 'an html application (hta)',
  'shell-script': 'a shebang script',
  javascript: 'a javascript program',
  python: 'a python program',
});

/** One-line description of an executable kind for reason messages; null when the kind is not executable. */
export function describeExecutable(kind: string): string | null {
  if (familyOf(kind) !== 'executable') return null;
  return descriptions[kind] ?? `executable content of kind \`${kind}\``;
}
