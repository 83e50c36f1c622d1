import { describe, expect, test } from 'vitest';
import * as linkgate from '../../src/index.ts';
import { gatedFetch } from '../../src/fetch/gated-fetch.ts';
import { fetchRequestSchema } from '../../src/fetch/fetch-request.ts';

describe('the public fetch surface', () => {
  test('exports the fetcher and its request schema by name, as the same values the modules hold', () => {
    expect(linkgate.gatedFetch).toBe(gatedFetch);
    expect(linkgate.fetchRequestSchema).toBe(fetchRequestSchema);
  });

  test.each([
    { request: { url: 'https://docs.example.com/a', headers: { Authorization: 'Bearer x' } }, ok: true },
    { request: { url: 'https://docs.example.com/a', method: 'TRACE' }, ok: false },
    { request: { url: 'https://docs.example.com/a', body: 'x' }, ok: false },
    { request: { url: 'https://docs.example.com/a', headers: { 'bad header': 'x' } }, ok: false },
  ])('fetchRequestSchema accepts $request → $ok', ({ request, ok }) => {
    expect(linkgate.fetchRequestSchema.safeParse(request).success).toBe(ok);
  });
});
