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
        'a `[Desktop Entry]` group with an `Exec` key, an `[InternetShortcut]` section, `.lnk`; a group shown only in code blocks of a document not named `.desktop`/`.url` is code',
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
