// The launcher's key-past-controls check (`Exec\r=` in a `[Desktop Entry]` text: a key to GLib's reader) reads the
// text only when the bytes may hold its `[` and a form feed or carriage return, answered from the text scan's marks
// (scanUtf8Marking) where it has them and by a search otherwise: the same answer as reading every text (property).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { TextBody } from '../../../src/content/consumers/content-consumer.ts';
import { launcherConsumer } from '../../../src/content/consumers/desktop-launcher.ts';
import { scanUtf8Marking } from '../../../src/content/text/unsafe-utf8.ts';

// the parts the check reads: the body's kind and extension, its text, and whether its bytes may hold a byte
function bodyOf(text: string, mayHold: (byte: number) => boolean): TextBody {
  return { kind: 'text', extension: null, text: () => text, mayHold } as unknown as TextBody;
}

function marked(text: string): (byte: number) => boolean {
  const bytes = Buffer.from(text, 'utf8');
  const { mayHold } = scanUtf8Marking(bytes, 0, true);
  return (byte) => mayHold(byte) && bytes.indexOf(byte) !== -1;
}

const part = fc.constantFrom(
  '[Desktop Entry]',
  '[desktop entry]',
  '[Other]',
  'Exec',
  'exec[en]',
  'URL',
  'Name',
  '=',
  '\r',
  '\f',
  '\n',
  '\r\n',
  ' ',
  '\t',
  '[',
  ']',
  '\\',
  'sh -c id',
  'café ',
  'words and more words ',
);
const text = fc.array(part, { maxLength: 60 }).map((parts) => parts.join(''));

describe('launcherConsumer.readsText', () => {
  test('answers as the check that reads every text does (property)', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(launcherConsumer.readsText(bodyOf(t, marked(t)))).toBe(
          launcherConsumer.readsText(bodyOf(t, () => true)),
        );
      }),
      { numRuns: 4000 },
    );
  });

  test.each([
    ['a carriage return before the `=`', '[Desktop Entry]\nExec\r=touch x\n', true],
    ['a form feed before the `=`', '[Desktop Entry]\nExec\f=touch x\n', true],
    ['a form feed, the group after it', 'URL\f=smb://h/s\n[desktop entry]\n', true],
    ['no group', 'Exec\r=touch x\n', false],
    ['no control before the `=`', '[Desktop Entry]\r\nName=x\r\n', false],
  ])('%s', (_, t, reads) => {
    expect(launcherConsumer.readsText(bodyOf(t, marked(t)))).toBe(reads);
  });
});
