// GateError carries a `Symbol.for` brand (STYLE.md, after undici's errors): an error made by a second copy of
// linkgate's code (another bundle of the same module) is still `instanceof GateError`, and nothing else is.
import { describe, expect, test } from 'vitest';
import { GateError } from '../src/errors.ts';

describe('GateError across copies', () => {
  test('an error from a second copy of the module is a GateError; its class is another', async () => {
    // @ts-expect-error: the query has vite load the module a second time, as another bundle would hold it
    const second = (await import('../src/errors.ts?copy')) as typeof import('../src/errors.ts');
    expect(second.GateError).not.toBe(GateError);
    const error = new second.GateError('USAGE', 'from the other copy');
    expect(error instanceof GateError).toBe(true);
    expect(new GateError('USAGE', 'x') instanceof second.GateError).toBe(true);
    expect(error.code).toBe('USAGE');
  });

  test('other errors, plain objects and values are not; a revoked proxy answers false without throwing', () => {
    expect(new Error('x') instanceof GateError).toBe(false);
    expect({ name: 'GateError', code: 'USAGE' } instanceof GateError).toBe(false);
    expect((null as unknown) instanceof GateError).toBe(false);
    expect(('GateError' as unknown) instanceof GateError).toBe(false);
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(proxy instanceof GateError).toBe(false);
  });

  test('the brand is not enumerable: it is never serialised', () => {
    const error = new GateError('USAGE', 'x');
    expect(Object.keys(error)).not.toContain(Symbol.for('linkgate.GateError').toString());
    expect(Object.getOwnPropertySymbols(error)).toEqual([Symbol.for('linkgate.GateError')]);
    expect(Object.getOwnPropertyDescriptor(error, Symbol.for('linkgate.GateError'))?.enumerable).toBe(false);
  });
});
