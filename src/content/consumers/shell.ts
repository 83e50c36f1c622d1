// Shells, interpreters and the operating system's loaders: a `#!` script, a registry import, a PostScript program,
// an HTML application, executables and archives that carry code run when opened or piped to an interpreter.
import { describeExecutable } from '../executable-kinds.ts';
import type { TextKind } from '../text/text-kind.ts';
import type { ContentConsumer } from './content-consumer.ts';

const scriptKinds: readonly TextKind[] = ['shell-script', 'reg', 'postscript', 'hta'];

/** Shells and interpreters: shebang scripts, registry imports, PostScript, HTA, executables and code archives. */
export const shellConsumer: ContentConsumer = {
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
};
