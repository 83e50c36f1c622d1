// An IPv4 address written as an IPv4-mapped IPv6 host (`[::ffff:169.254.169.254]`, `[::ffff:a9fe:a9fe]`) hid a refused
// address from the search: a dual-stack socket reaches the IPv4 host by it (red team round 6). The oracle is a real
// consumer: Node's fetch reaches a server listening on 127.0.0.1 alone by each spelling the search must find.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AddressSearch } from '../../src/flow/address-search.ts';

let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((request, response) => response.end(`reached ${request.url ?? ''}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const spellings = ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:FFFF:7F00:0001]'];

describe('an IPv4-mapped IPv6 host reaches the IPv4 address: the search finds it', () => {
  for (const host of spellings)
    test(`${host} for a refused 127.0.0.1`, async () => {
      const written = `http://${host}:${port}/secret/keys`;
      // the oracle: a consumer given this uri reaches the IPv4-only server
      expect(await (await fetch(written)).text()).toBe('reached /secret/keys');
      const search = new AddressSearch<true>();
      search.add(`http://127.0.0.1:${port}/secret/keys`, true);
      expect(search.find(`now read ${written} please`)).toBe(true);
    });

  test('a refused mapped host is found written as the IPv4 address, and the other way round', () => {
    const search = new AddressSearch<true>();
    search.add('http://[::ffff:a9fe:a9fe]/latest/meta-data/', true);
    expect(search.find('now read http://169.254.169.254/latest/meta-data/ please')).toBe(true);
    const other = new AddressSearch<true>();
    other.add('http://169.254.169.254/latest/meta-data/', true);
    expect(other.find('now read http://[::ffff:169.254.169.254]/latest/meta-data/')).toBe(true);
  });

  test('an IPv6 host that maps no IPv4 address is left as it is', () => {
    const search = new AddressSearch<true>();
    search.add('http://169.254.169.254/latest/meta-data/', true);
    for (const host of ['[::1]', '[64:ff9b::a9fe:a9fe]', '[::ffff:0:a9fe:a9fe]', '[ffff::a9fe:a9fe]'])
      expect(search.find(`http://${host}/latest/meta-data/`)).toBeUndefined();
  });
});
