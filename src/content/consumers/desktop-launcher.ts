// Desktop launchers and shortcuts: a freedesktop `.desktop` file runs its `Exec=` line when opened (`gio launch`, a
// file manager) and a `Type=Link` entry opens its `URL=`, a Windows `.url` shortcut opens its target, a `.lnk` runs
// its command, and Explorer reads a `.scf` shell command file and a `.library-ms` library description as soon as the
// folder holding them is shown (an icon or a location on an SMB share hands over the user's NTLM hash). GLib's key
// file reader and Windows find the group on any line (text/text-kind.ts); a group shown only in code blocks of a
// document not named `.desktop`/`.url`/`.scf` is code. Explorer and the Finder read `.scf`, `.library-ms`,
// `.searchConnector-ms` and `.webloc` by their name, so a uri naming one reaches them whatever its bytes.
import { describeExecutable } from '../executable-kinds.ts';
import type { TextKind } from '../text/text-kind.ts';
import { type BinaryReading, type ContentConsumer, foundIn, type TextBody } from './content-consumer.ts';

/** How a launcher reads binary bodies: a `.lnk` runs its command. */
const launcherBinary = {
  executable: (body) => foundIn('active', describeExecutable(body.kind)),
} as const satisfies Record<string, BinaryReading>;

const launcherKinds: readonly TextKind[] = ['url-shortcut', 'desktop-launcher', 'scf', 'library-ms'];

// the shortcut formats Windows Explorer and the macOS Finder read by their file's name, whatever the bytes (a `.url` or
// `.desktop` file is one by its group: without it, Windows and GLib open nothing)
const launcherExtensions: Readonly<Record<string, string>> = {
  scf: 'a windows shell command file (.scf: explorer reads it when its folder is shown)',
  'library-ms': 'a windows library description (.library-ms: explorer opens its locations when its folder is shown)',
  'searchconnector-ms':
    'a windows search connector (.searchConnector-ms: explorer opens its location when its folder is shown)',
  webloc: 'a macos internet location (.webloc: the finder opens its url)',
};

/** The shortcut a uri's extension names (`.scf`, `.library-ms`, `.searchConnector-ms`, `.webloc`), described; null for any other. */
export function launcherNamed(extension: string | null): string | null {
  return extension === null ? null : (launcherExtensions[extension] ?? null);
}

/** Desktop launchers and shortcuts: `[Desktop Entry]` with `Exec` or `URL`, `[InternetShortcut]`, `[Shell]` with `Command`, Windows library roots, `.lnk`, and the shortcut formats by name. */
export const launcherConsumer = {
  id: 'launcher',
  optIn: false,
  coverage: [
    {
      consumer: 'desktop launchers and shortcuts',
      reaches:
        "a `[Desktop Entry]` group with an `Exec` or a `URL` key (a `Type=Link` entry opens its url), an `[InternetShortcut]` section, a `[Shell]` section with a `Command` key (`.scf`), a `libraryDescription` or `searchConnectorDescription` root in Microsoft's 2009 namespaces (`.library-ms`, `.searchConnector-ms`), `.lnk`; a group shown only in code blocks of a document not named `.desktop`/`.url`/`.scf` is code, unless GLib's key file reader reads the whole document (a launcher in indented code under `#` headings runs under `gio launch` whatever its name); a uri named `.scf`, `.library-ms`, `.searchConnector-ms` or `.webloc`, whatever its bytes",
      judged: 'executable: denied',
      notCovered:
        'other Windows shell formats Explorer opens by name (`.settingcontent-ms`, `.appref-ms`, `.application`), and a `.webloc` property list by its bytes under another name',
    },
  ],
  leftOut:
    'a `.desktop`, `.url`, `.scf` or `.library-ms` body sent as text is text; `.lnk` files stay denied by their type unless allowed',
  textKinds: launcherKinds,
  readsText: (body) =>
    launcherKinds.includes(body.kind) || launcherNamed(body.extension) !== null || keyPastControls(body),
  judgeText: (body) => [
    {
      slot: 'active',
      message:
        describeExecutable(body.kind) ??
        launcherNamed(body.extension) ??
        (keyPastControls(body) ? describeExecutable('desktop-launcher') : null) ??
        `a \`${body.kind}\``,
    },
  ],
  binaryReadings: launcherBinary,
} as const satisfies ContentConsumer;

// GLib's key file reader ends a line at a line feed only and drops the ASCII white space around a key
// (`g_ascii_isspace`: a carriage return or form feed too, not a vertical tab: `gio launch` refuses `Exec\v=`), so `Exec\r=touch x` is an `Exec` key to
// `gio launch`, where a reader of lines ended by a carriage return sees none
const groupLine = /(?:^|\n)[\t\f\r ]*\[desktop entry\]/i;
const keyBeforeControls = /(?:^|\n)[\t\f\r ]*(?:exec|url)(?:\[[^\]\n]*\])?[\t ]*[\f\r][\t\f\r ]*=/i;

/** True when the text holds a `[Desktop Entry]` group and an `Exec` or `URL` key that a carriage return or form feed separates from its `=` (a key to GLib, no key line to a reader of lines). */
function keyPastControls(body: TextBody): boolean {
  // both expressions must match: the group's `[` first (the text scan notes it, no search), then a form feed (noted
  // by the scan too) or a carriage return (one search); an 8 MiB text had two searches of all its bytes for nothing
  if (!body.mayHold(0x5b) || (!body.mayHold(0x0c) && !body.mayHold(0x0d))) return false;
  const text = body.text();
  return keyBeforeControls.test(text) && groupLine.test(text);
}

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
