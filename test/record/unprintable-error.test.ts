// Issue 39: a records failure is described in one line whatever the sink rejected with. A value with no string form
// (`Object.create(null)`, a throwing `toString` or `Symbol.toPrimitive`, a revoked Proxy, an Error whose `message`
// getter throws) made `recordErrorMessage` throw inside the catch that should withhold, so the front end rejected.
import { describe, expect, test } from 'vitest';
import { maxErrorLineChars } from '../../src/decision/error-line.ts';
import { recordErrorMessage, recordWithheldError } from '../../src/record/record-error.ts';

const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};
const throwingMessage = () => {
  const error = new Error('hidden');
  Object.defineProperty(error, 'message', {
    get() {
      throw new Error('no message');
    },
  });
  return error;
};
const unprintable: [string, () => unknown][] = [
  ['Object.create(null)', () => Object.create(null)],
  [
    'a throwing toString',
    () => ({
      toString() {
        throw new Error('no');
      },
    }),
  ],
  [
    'a throwing Symbol.toPrimitive',
    () => ({
      [Symbol.toPrimitive]() {
        throw new Error('no');
      },
    }),
  ],
  ['a revoked Proxy', revoked],
  ['an Error whose message getter throws', throwingMessage],
];

describe('a records failure with no string form', () => {
  test.each(unprintable)('%s: described in one line, never thrown', (_, make) => {
    const message = recordErrorMessage(make());
    expect(message).toMatch(
      /^linkgate could not write the record, so it passes on none of it \(onRecordError: withhold\): \S/,
    );
    expect(message).not.toContain('\n');
    expect(recordWithheldError(make()).message).toBe(message);
  });

  test('Object.create(null) is named by its type tag', () => {
    expect(recordErrorMessage(Object.create(null))).toContain('[object Object]');
  });

  test('a sink message is one line, its controls and bidi characters escaped, and cut', () => {
    const message = recordErrorMessage(new Error(`disk \u001b[31mfull\u202e ok\u0085x\nsecond line`));
    expect(message).toContain('disk \\u001b[31mfull\\u202e ok\\u0085x');
    expect(message).not.toContain('second line');
    expect(message).not.toMatch(/[\u001b\u202e\u0085]/u);
    const long = recordErrorMessage(new Error('x'.repeat(5000)));
    expect(long.length).toBeLessThan(maxErrorLineChars + 120);
    expect(long.endsWith('…')).toBe(true);
  });
});
