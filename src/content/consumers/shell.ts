// Shells, interpreters and the operating system's loaders: a `#!` script, a registry import, a PostScript program,
// an HTML application, executables and archives that carry code run when opened or piped to an interpreter.
import { describeExecutable } from '../executable-kinds.ts';
import { embeddedArchive } from '../polyglot.ts';
import type { TextKind } from '../text/text-kind.ts';
import { type BinaryReading, type ContentConsumer, foundIn } from './content-consumer.ts';

const scriptKinds: readonly TextKind[] = ['shell-script', 'reg', 'postscript', 'hta'];

/** How a shell or interpreter reads binary bodies: a code archive, an executable, a zip archive inside another format. */
const shellBinary = {
  // code an archive carries runs in an interpreter (`java -jar`, a browser's extension installer, an office macro host)
  archive: (body) => foundIn('active', body.carried ?? describeExecutable(body.kind)),
  executable: (body) => foundIn('active', describeExecutable(body.kind)),
  // a zip reader finds an archive in an image or a pdf (its directory at the end, local headers after the image)
  appendedArchive: (body, budget) => {
    const archive = embeddedArchive(body.bytes, body.end, budget);
    return foundIn('active', archive === null ? null : `the ${body.kind} is also ${archive} (polyglot)`);
  },
} as const satisfies Record<string, BinaryReading>;

/** Shells and interpreters: shebang scripts, registry imports, PostScript, HTA, executables and code archives. */
export const shellConsumer = {
  id: 'shell',
  optIn: false,
  coverage: [
    {
      consumer: 'shells and interpreters',
      reaches:
        'a `#!` first line, registry imports, PostScript, HTA, executables and archives that carry code (jar, apk, extensions, macro documents), a zip archive inside an image',
      judged: 'executable: denied',
      notCovered: 'plain-text source without a shebang (shown as text; never executed by a consumer of the profile)',
    },
  ],
  leftOut:
    'scripts sent as text are text; executables and code archives stay denied by their type unless `content.allow` admits it',
  textKinds: scriptKinds,
  readsText: (body) => scriptKinds.includes(body.kind),
  judgeText: (body) => [{ slot: 'active', message: describeExecutable(body.kind) ?? `a \`${body.kind}\`` }],
  binaryReadings: shellBinary,
} as const satisfies ContentConsumer;
