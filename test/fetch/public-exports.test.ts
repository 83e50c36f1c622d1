import { describe, expect, test } from 'vitest';
import * as linkgate from '../../src/index.ts';
import { gatedFetch } from '../../src/fetch/gated-fetch.ts';
import { parseFetchRequest } from '../../src/fetch/fetch-request.ts';

describe('the public fetch surface', () => {
  test('exports the fetcher and its request check by name, as the same values the modules hold', () => {
    expect(linkgate.gatedFetch).toBe(gatedFetch);
    expect(linkgate.parseFetchRequest).toBe(parseFetchRequest);
  });

  test.each([
    { request: { url: 'https://docs.example.com/a', headers: { Authorization: 'Bearer x' } }, ok: true },
    { request: { url: 'https://docs.example.com/a', method: 'TRACE' }, ok: false },
    { request: { url: 'https://docs.example.com/a', body: 'x' }, ok: false },
    { request: { url: 'https://docs.example.com/a', headers: { 'bad header': 'x' } }, ok: false },
  ])('parseFetchRequest accepts $request → $ok', ({ request, ok }) => {
    if (ok) expect(linkgate.parseFetchRequest(request)).toEqual(request);
    else expect(() => linkgate.parseFetchRequest(request)).toThrow(/^field `[^`]+`: /);
  });

  test('a bad request is an INPUT_INVALID GateError naming the field', () => {
    expect(() => linkgate.parseFetchRequest({ url: 'https://docs.example.com/a', method: 'TRACE' })).toThrow(
      expect.objectContaining({
        name: 'GateError',
        code: 'INPUT_INVALID',
        message: 'field `method`: method not allowed',
      }),
    );
  });
});
