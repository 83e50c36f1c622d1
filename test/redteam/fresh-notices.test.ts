// Red team (issue 39, fresh session 3), notices: nothing the proxy or the decorator hands the host for a refused link
// (its notice, the decision under `_meta`, an error, the records) carries the link's address or its credentials, in
// any spelling a uri parser would read back as that address: a password in a uri no parser accepts, a name that is
// the uri percent-encoded or written with ideographic full stops (IDNA maps U+3002 to `.`), and the decision's own
// reason messages for a uri that is all host.
import { afterEach, describe, expect, test } from 'vitest';
import { call, closeAll, decorated, link, proxied } from './scripted-host.ts';

afterEach(closeAll);

// refused uris whose password must stay out of everything: parsed, unparsable (a bad port, a zone id, a bad IDNA
// label), a second `@`, a tab inside, a backslash for the slashes
const withPasswords: [string, string][] = [
  ['a parsed uri', 'http://admin:PWa1x9@169.254.169.254/latest/'],
  ['a port out of range', 'http://admin:PWa2x9@169.254.169.254:99999/latest/'],
  ['an IPv6 zone id', 'http://admin:PWa3x9@[fe80::1%25eth0]/latest/'],
  ['a second @ in the userinfo', 'http://admin@x:PWa4x9@10.1.2.3/latest/'],
  ['a tab inside the password', 'http://admin:PWa5\tx9@10.1.2.3/latest/'],
  ['backslashes for the slashes', 'http:\\\\admin:PWa6x9@10.1.2.3\\latest\\'],
  ['an invalid IDNA label', 'http://admin:PWa7x9@xn--a.xn--/latest/'],
];

describe('red team, notices (fresh): a refused uri with a password, through the proxy', () => {
  for (const [label, uri] of withPasswords)
    test(label, async () => {
      const { host } = await proxied();
      const answer = JSON.stringify(await call(host, { result: { content: [link(uri, 'creds')] } }));
      const secret = /PWa\d/.exec(uri)?.[0] as string;
      expect(answer).toContain('linkgate refused the link');
      // the tool result, the records and the proxy's stderr
      expect(answer).not.toContain(secret);
      expect(JSON.stringify(host.records)).not.toContain(secret);
      expect(host.stderr()).not.toContain(secret);
    });
});

const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
// ASCII `!`…`~` as their fullwidth forms (U+FF01…U+FF5E), which NFKC and IDNA fold back
const fullwidth = (text: string) =>
  text.replace(/[!-~]/g, (c) => String.fromCharCode((c.codePointAt(0) as number) + 0xfee0));
// a name that a parser, a browser or a model reads back as the refused address
const readBack: [string, string, RegExp][] = [
  ['the uri percent-encoded', encodeURIComponent(metadata), /169\.254\.169\.254%2Flatest/i],
  ['the uri with ideographic full stops', metadata.replaceAll('.', '\u3002'), /169\u3002254\u3002169\u3002254\/latest/],
  ['the uri in fullwidth letters and digits', fullwidth(metadata), new RegExp(fullwidth('169.254.169.254/latest'))],
];

for (const [front, answer] of [
  ['proxy', async (result: unknown) => call((await proxied()).host, { result })],
  [
    'decorator',
    async (result: unknown) => (await decorated()).client.callTool({ name: 'result', arguments: { result } }),
  ],
] as const)
  describe(`red team, notices (fresh): what the ${front} hands the host for a refused link`, () => {
    for (const [label, name, shown] of readBack)
      test(`a name that is ${label} is not shown`, async () => {
        const got = JSON.stringify(await answer({ content: [link(metadata, name)] }));
        expect(got).toContain('linkgate refused the link');
        expect(got).not.toMatch(shown);
      });

    test('a refused uri that is all host: the decision under `_meta` does not name it', async () => {
      const got = JSON.stringify(await answer({ content: [link('http://10.11.12.13/', 'lan')] }));
      expect(got).toContain('linkgate refused the link `lan`');
      expect(got).not.toContain('10.11.12.13');
    });
  });

// prose beside a refused link naming its address in a spelling a parser or a browser reads back as the same address
const proseSpellings: [string, string][] = [
  ['percent-encoded path characters', 'http://169.254.169.254/%6catest/meta-data/iam/security-credentials/'],
  ['backslashes for the slashes', 'http:\\\\169.254.169.254\\latest\\meta-data\\iam\\security-credentials\\'],
  ['fullwidth', fullwidth(metadata)],
  ['ideographic full stops', metadata.replaceAll('.', '\u3002')],
];

for (const [front, answer] of [
  ['proxy', async (result: unknown) => call((await proxied()).host, { result })],
  [
    'decorator',
    async (result: unknown) => (await decorated()).client.callTool({ name: 'result', arguments: { result } }),
  ],
] as const)
  describe(`red team, notices (fresh): prose beside a refused link, through the ${front}`, () => {
    for (const [label, spelled] of proseSpellings)
      test(`its address spelled with ${label} does not survive`, async () => {
        const got = JSON.stringify(
          await answer({
            content: [link(metadata, 'creds'), { type: 'text', text: `the keys are at ${spelled} now` }],
          }),
        );
        expect(got).not.toContain(JSON.stringify(spelled).slice(1, -1));
      });
  });
