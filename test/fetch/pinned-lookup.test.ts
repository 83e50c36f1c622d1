import * as http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { memoizeResolver, pinnedLookup } from '../../src/fetch/pinned-lookup.ts';
import { resolveWithin } from '../../src/link/resolve-name.ts';
import { startServer, type LocalServer } from './support/local-server.ts';

describe('pinned lookup', () => {
  test.each([
    { address: '127.0.0.1', family: 4 },
    { address: '93.184.215.14', family: 4 },
    { address: '::1', family: 6 },
    { address: '2001:db8::1', family: 6 },
  ])('answers any name with `$address` (family $family), single and `all` forms', async ({ address, family }) => {
    const lookup = pinnedLookup(address);
    const single = await new Promise<unknown[]>((done) =>
      lookup('whatever.example', { family: 0 }, (...args: unknown[]) => done(args)),
    );
    expect(single).toEqual([null, address, family]);
    const all = await new Promise<unknown[]>((done) =>
      lookup('other.example', { all: true }, (...args: unknown[]) => done(args)),
    );
    expect(all).toEqual([null, [{ address, family }]]);
  });

  test.each(['example.com', '', '999.1.1.1'])('refuses `%s`, which is not an ip address', (address) => {
    expect(() => pinnedLookup(address)).toThrow(/is not an ip address/);
  });

  describe('over a real connection', () => {
    let server: LocalServer;
    beforeAll(async () => {
      server = await startServer();
      server.handle((_request, response) => response.end('pinned'));
    });
    afterAll(() => server.close());

    test('a name the system cannot resolve reaches the pinned loopback server', async () => {
      const body = await new Promise<string>((resolve, reject) => {
        const request = http.get(
          {
            host: 'never-resolved.invalid',
            port: server.port,
            path: '/p',
            lookup: pinnedLookup('127.0.0.1'),
            agent: false,
          },
          (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.on('end', () => resolve(text));
          },
        );
        request.on('error', reject);
      });
      expect(body).toBe('pinned');
      expect(server.seen.at(-1)?.headers.host).toBe(`never-resolved.invalid:${server.port}`);
    });
  });
});

describe('resolution memo', () => {
  test('asks the real resolver once per name, also when asked concurrently', async () => {
    const calls: string[] = [];
    const memo = memoizeResolver(async (name) => {
      calls.push(name);
      return calls.length === 1 ? ['93.184.215.14'] : ['127.0.0.1'];
    });
    const answers = await Promise.all([
      memo.resolver('a.example.com'),
      memo.resolver('a.example.com'),
      memo.resolver('a.example.com'),
    ]);
    expect(answers).toEqual([['93.184.215.14'], ['93.184.215.14'], ['93.184.215.14']]);
    expect(calls).toEqual(['a.example.com']);
    expect(memo.answersFor('a.example.com')).toEqual(['93.184.215.14']);
  });

  test.each([
    { asked: 'a.example.com', lookedUp: 'a.example.com.', found: true },
    { asked: 'a.example.com.', lookedUp: 'a.example.com', found: true },
    { asked: 'a.example.com', lookedUp: 'b.example.com', found: false },
  ])('answers asked for `$asked` serve `$lookedUp`: $found', async ({ asked, lookedUp, found }) => {
    const memo = memoizeResolver(async () => ['93.184.215.14']);
    await memo.resolver(asked);
    expect(memo.answersFor(lookedUp)).toEqual(found ? ['93.184.215.14'] : undefined);
  });

  test('a failed resolution leaves no answers', async () => {
    const memo = memoizeResolver(async () => {
      throw new Error('SERVFAIL');
    });
    await expect(memo.resolver('a.example.com')).rejects.toThrow('SERVFAIL');
    expect(memo.answersFor('a.example.com')).toBeUndefined();
  });
});

describe('resolution deadline (fail closed)', () => {
  test.each([
    { name: 'answers', resolver: async () => ['93.184.215.14'], want: ['93.184.215.14'] },
    { name: 'rejects', resolver: async () => Promise.reject(new Error('NXDOMAIN')), want: undefined },
    { name: 'never answers', resolver: () => new Promise<string[]>(() => {}), want: undefined },
  ])('a resolver that $name gives $want', async ({ resolver, want }) => {
    expect(await resolveWithin(resolver, 'a.example.com', 50)).toEqual(want);
  });

  test('an abort ends the wait', async () => {
    const controller = new AbortController();
    // the caller aborts while the resolver is asked and never answers
    const never = () => {
      controller.abort();
      return new Promise<string[]>(() => {});
    };
    expect(await resolveWithin(never, 'a.example.com', 60_000, controller.signal)).toBeUndefined();
  });
});
