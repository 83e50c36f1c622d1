// How `linkgate hook` words a failure: one line, and never a second throw in the catch that answers closed (a hook
// whose catch throws exits 1, which hosts do not honour as a block).
import { describe, expect, test } from 'vitest';
import { failClosed, failureLine } from '../../src/cli/hook-failure.ts';
import type { CliIo } from '../../src/cli/cli-io.ts';
import { GateError } from '../../src/errors.ts';

const unprintables: [string, () => unknown][] = [
  ['a value with no string form', () => Object.create(null)],
  [
    'a value whose toString throws',
    () => ({
      toString() {
        throw new Error('no');
      },
    }),
  ],
  [
    'a revoked proxy',
    () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    },
  ],
];

describe('failureLine', () => {
  test.each(unprintables)('%s is named without throwing, and failClosed answers 2', (_what, make) => {
    const value = make();
    expect(typeof failureLine(value)).toBe('string');
    const written: string[] = [];
    const io = { stderr: { write: (s: string) => written.push(s) } } as unknown as CliIo;
    expect(failClosed(io, value)).toBe(2);
    expect(written.join('')).toMatch(/^linkgate hook: /);
  });

  test('a policy error gives its first diagnostic as file:line:col', () => {
    const error = new GateError('POLICY_INVALID', 'bad policy', {
      diagnostics: [
        { severity: 'error', code: 'schema', file: 'p.yaml', line: 3, col: 5, message: 'links.allow: expected a list' },
      ],
    });
    expect(failureLine(error)).toBe('p.yaml:3:5: links.allow: expected a list');
  });

  test('a message over several lines is one line', () => {
    expect(failureLine(new Error('first\n  second'))).toBe('first second');
  });
});
