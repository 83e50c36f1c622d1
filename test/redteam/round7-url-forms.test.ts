// Red team (issue 39, hidden-style round 7), the refused address in prose as spellings the WHATWG URL parser (and curl)
// read back to the very same address, which the earlier rounds did not try: a trailing dot after a dotted IPv4 host
// (the IPv4 parser drops the empty last part), the scheme's default port and dot segments in the path (`/./`, `x/../`).
// The oracle is the parser itself: every http(s) url of what the host gets, parsed, must not be the refused address.
// After the refusal and beside it, through the proxy and the decorator over the real answering server.
import { afterEach, describe, expect, test } from 'vitest';
import { callWith, fronts } from './hidden-fronts.ts';
import { closeAll, hostPath, link, metadata } from './scripted-host.ts';
import { caseKeys, prose } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): prose is
// matched against the address's forms as text read back by `readBack` (src/flow/read-back.ts: NFKC,
// percent-decoding, `\\`, numeric and bracketed hosts), which keeps a default port (`:80`) and dot segments (`/./`,
// `x/../`) that curl and every URL parser remove (the forms, src/flow/address-search.ts:30, are of the address alone).
const open = new Set<string>([]);
const it = caseKeys(open);

/** Every http(s) url in `answer`'s strings as the WHATWG parser reads it. */
function parsed(answer: unknown): string {
  const strings: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') strings.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(answer);
  return strings
    .flatMap((s) => s.match(/https?:[^\s"'<>`]+/g) ?? [])
    .map((u) => URL.parse(u)?.href ?? '')
    .join('\n');
}

const spellings: [string, string][] = [
  ['a trailing dot after the host', metadata.replace('169.254.169.254', '169.254.169.254.')],
  ['the default port', metadata.replace('169.254.169.254', '169.254.169.254:80')],
  ['a dot segment', metadata.replace('/latest/', '/./latest/')],
  ['a parent segment', metadata.replace('/latest/', '/x/../latest/')],
];

for (const [front, start] of fronts)
  describe(`red team, url forms (round 7) through the ${front}`, () => {
    test(`control: the parser oracle reads each spelling as the refused address (${front})`, () => {
      for (const [, spelled] of spellings) expect(parsed(prose(spelled))).toContain(hostPath);
    });

    for (const [label, spelled] of spellings) {
      it(`beside ${label} ${front}`)(`${label}, beside the refused link, does not survive`, async () => {
        const f = await start();
        const answer = await callWith(f, { result: { content: [link(metadata, 'creds'), prose(`try ${spelled}`)] } });
        expect(JSON.stringify(answer)).toContain('linkgate refused the link');
        expect(parsed(answer)).not.toContain(hostPath);
      });

      it(`after ${label} ${front}`)(`${label}, in a later result, does not survive`, async () => {
        const f = await start();
        await callWith(f, { result: { content: [link(metadata, 'creds')] } });
        expect(parsed(await callWith(f, { result: { content: [prose(`try ${spelled}`)] } }))).not.toContain(hostPath);
      });
    }
  });
