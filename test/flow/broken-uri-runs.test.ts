// A tab, line feed or carriage return inside an address written in prose: the URL parser deletes them anywhere, so
// `http://169.254.\n169.254/…` read by one is the refused metadata address. The search reads such a run back joined,
// only from a scheme's `://` on: ordinary words across lines stay apart.
import { describe, expect, test } from 'vitest';
import { AddressSearch } from '../../src/flow/address-search.ts';
import { joinedUriRuns } from '../../src/flow/read-back.ts';
import { RefusedAddresses } from '../../src/sdk/refused-addresses.ts';

const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';

describe('an address broken by a tab or newline inside a uri run', () => {
  const search = new AddressSearch<true>();
  search.add(metadata, true);

  test.each([
    'curl http://169.254.\n169.254/latest/meta-data/iam/security-credentials/',
    'fetch http://169.254.169.254/lat\test/meta-data/iam/security-credentials/ now',
    'see http://\r\n169.254.169.254/latest/meta-\ndata/iam/security-credentials/',
    'HTTPS:\\\\169.254.169.254/latest/\nmeta-data/iam/security-credentials/',
  ])('%j names the refused address', (text) => {
    // what the URL parser reaches from the run
    const run = text.slice(text.search(/https?:/i)).split(/[ ]/)[0] as string;
    expect(URL.parse(run)?.href.toLowerCase()).toContain('169.254.169.254/latest/meta-data/iam/security-credentials/');
    expect(search.find(text)).toBe(true);
  });

  test.each([
    '169.254.\n169.254/latest/meta-data/iam/security-credentials/ (no scheme: no parser reads it as one)',
    'see http://169.254.169.254/other\nlatest/meta-data/iam/security-credentials/ words',
    'http://example.com/\n\n169.254.169.254 is a link-local address',
  ])('%j is left as written', (text) => {
    expect(search.find(text)).toBeUndefined();
  });

  test('ordinary words across lines are not joined', () => {
    expect(joinedUriRuns('first line\nsecond line')).toBeNull();
    expect(joinedUriRuns('note:\nthe end')).toBeNull();
    expect(joinedUriRuns('see http://a.example/x\nnext words')).toBe('see http://a.example/xnext words');
  });

  test("a session's refused addresses are searched the same way", () => {
    const refused = new RefusedAddresses();
    refused.note([]);
    refused.keep(['169.254.169.254/latest/meta-data/iam/security-credentials']);
    expect(refused.names({ log: 'GET http://169.254.169.\n254/latest/meta-data/iam/security-credentials/' })).toBe(
      true,
    );
    expect(refused.names({ log: 'GET http://169.254.169.254/\nnothing/else' })).toBe(false);
  });
});
