// Desktop launchers and shortcuts: a freedesktop `.desktop` file runs its `Exec=` line when opened (`gio launch`, a
// file manager), a Windows `.url` shortcut opens its target, a `.lnk` runs its command. GLib's key file reader and
// Windows find the group on any line (text/text-kind.ts); a group shown only in code blocks of a document not named
// `.desktop`/`.url` is code.
import { describeExecutable } from '../executable-kinds.ts';
import { type BinaryReading, type ContentConsumer, foundIn } from './content-consumer.ts';

/** How a launcher reads binary bodies: a `.lnk` runs its command. */
const launcherBinary = {
  executable: (body) => foundIn('active', describeExecutable(body.kind)),
} as const satisfies Record<string, BinaryReading>;

/** Desktop launchers and shortcuts: `[Desktop Entry]` with `Exec`, `[InternetShortcut]`, `.lnk`. */
export const launcherConsumer = {
  id: 'launcher',
  optIn: false,
  coverage: [
    {
      consumer: 'desktop launchers and shortcuts',
      reaches:
        "a `[Desktop Entry]` group with an `Exec` key, an `[InternetShortcut]` section, `.lnk`; a group shown only in code blocks of a document not named `.desktop`/`.url` is code, unless GLib's key file reader reads the whole document (a launcher in indented code under `#` headings runs under `gio launch` whatever its name)",
      judged: 'executable: denied',
      notCovered: 'launchers in other desktop formats (`.command`, `.webloc`)',
    },
  ],
  leftOut: 'a `.desktop` or `.url` body sent as text is text; `.lnk` files stay denied by their type unless allowed',
  textKinds: ['url-shortcut', 'desktop-launcher'],
  readsText: (body) => body.kind === 'url-shortcut' || body.kind === 'desktop-launcher',
  judgeText: (body) => [{ slot: 'active', message: describeExecutable(body.kind) ?? `a \`${body.kind}\`` }],
  binaryReadings: launcherBinary,
} as const satisfies ContentConsumer;

/**
 * True when GLib's key file reader (`g_key_file_load_from_data`, what `gio launch` and file managers load a launcher
 * with) reads the whole text without an error: every line, its leading ASCII white space skipped, is blank, a `#`
 * comment, a `[group]` or a `key=value` pair after the first group. A document whose launcher stands in indented
 * code under `#` headings is such a file, and `gio launch` runs its `Exec` whatever the file's name.
 */
export function readsAsKeyFile(text: string): boolean {
  let grouped = false;
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    let at = start;
    while (at < end && isAsciiSpace(text.charCodeAt(at))) at++;
    const first = text.charCodeAt(at);
    if (at < end && first !== 0x23) {
      if (first === 0x5b && isGroupLine(text.slice(at, end))) grouped = true;
      else if (!grouped || text.indexOf('=', at + 1) === -1 || text.indexOf('=', at + 1) >= end) return false;
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  return grouped;
}

// GLib's `g_ascii_isspace`: space, tab, line feed, vertical tab, form feed, carriage return
function isAsciiSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

// `[name]` then only spaces and tabs (a carriage return before the line feed is dropped by the reader)
function isGroupLine(line: string): boolean {
  const close = line.indexOf(']');
  return close > 1 && /^[ \t]*\r?$/.test(line.slice(close + 1));
}
