import { describe, expect, test } from 'vitest';
import { classifyResult, describeRpcError, isNotFoundError } from '../../src/read/result-outcome.ts';

describe('classifyResult', () => {
  test.each([
    ['absent resultType is complete', { contents: [] }, 'complete'],
    ['complete', { resultType: 'complete', contents: [] }, 'complete'],
    ['input_required', { resultType: 'input_required', requestState: 'x' }, 'input-required'],
    ['task', { resultType: 'task' }, 'task'],
    ['unknown', { resultType: 'partial' }, 'unknown-type'],
    ['non-string resultType', { resultType: 7 }, 'unknown-type'],
    ['json-rpc error', { error: { code: -32602, message: 'not found' } }, 'error'],
    ['error wins over contents', { error: { code: -32603, message: 'x' }, contents: [] }, 'error'],
  ])('%s', (_, result, kind) => {
    expect(classifyResult(result).kind).toBe(kind);
  });

  test.each([
    [7, '7'],
    [null, 'null'],
    [['complete'], '(an array)'],
    [{ kind: 'complete' }, '(an object)'],
    [JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), '(an array)'],
  ])('names a non-string result type %#', (resultType, named) => {
    const outcome = classifyResult({ resultType });
    expect(outcome.kind === 'unknown-type' ? outcome.resultType : undefined).toBe(named);
  });

  test.each([
    [{ error: { code: -32602, message: 'm' } }, -32602],
    [{ error: { code: -32002, message: 'm' } }, -32002],
    [{ error: { code: -32601, message: 'm' } }, -32601],
    [{ error: { code: -32603, message: 'm' } }, -32603],
    [{ error: { code: 1234, message: 'm' } }, 1234],
    [{ error: { code: 'x' } }, null],
    [{ error: 'boom' }, null],
  ])('keeps the error code of %j', (result, code) => {
    const outcome = classifyResult(result);
    expect(outcome.kind === 'error' ? outcome.code : undefined).toBe(code);
  });

  test.each([
    [-32602, /`-32602` \(invalid params\)/],
    [-32002, /`-32002` \(resource not found \(legacy/],
    [-32601, /method not found/],
    [-32603, /internal error/],
    [42, /`42`$/],
    [null, /without a valid code/],
  ])('describes %j', (code, message) => {
    expect(describeRpcError(code)).toMatch(message);
  });

  test.each([
    [{ code: -32602, message: 'Resource not found', data: { uri: 'era://x' } }, true],
    [{ code: -32002, message: 'm' }, true],
    [{ code: -32602, message: 'Resource not found' }, false],
    [{ code: -32602, message: 'm', data: { uri: 7 } }, false],
    [{ code: -32603, message: 'm', data: { uri: 'era://x' } }, false],
    ['boom', false],
    [null, false],
  ])('not found: %j is %s', (error, notFound) => {
    expect(isNotFoundError(error)).toBe(notFound);
    const outcome = classifyResult({ error });
    expect(outcome.kind === 'error' && outcome.notFound).toBe(notFound);
  });

  test('describes a -32602 that names its uri as resource not found', () => {
    expect(describeRpcError(-32602, true)).toMatch(/`-32602` \(resource not found\)$/);
    expect(describeRpcError(-32002, true)).toMatch(/legacy code/);
  });
});
