// Red team (issue 39, hidden-style round 10), notices the hooks hand the model. The proxy and the decorator name a
// refused link from a ledger of the message's refused addresses; the hooks keep a broad rule instead (a name is left
// out when it spells `scheme://host` or a dotted IPv4 host). Addresses that rule does not see: a sibling refused link
// named by another refused link's address with no authority (`file:///etc/shadow`), an IPv6 host (`[fd00::1]`), a
// decimal IPv4 host (`2852039166`, the metadata address as one number). A notice that shows such a name hands the
// sibling's address to a shell or fetch tool the gate does not cover. And credentials in a uri that a uri parser reads
// as userinfo only after it strips tabs (`pw<TAB>44x`), or with two `@`: masked in what the hook hands on and in its
// records. Each host's post hook (Claude Code, Codex, Gemini CLI) fed the event its real binary sends; controls: an
// ordinary name is shown, and a plain userinfo is masked.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { handed, type Linked, postEvents } from './round10-hosts.ts';
import { caseKeys } from './round-cases.ts';

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

const hooks = hookScratch('linkgate-redteam-r10notices-');
const records = () => {
  try {
    return readFileSync(path.join(hooks.dir, 'r.jsonl'), 'utf8');
  } catch {
    return '';
  }
};

// [key, the sibling's refused uri, what of it must not be handed on]
const siblings: [string, string, string][] = [
  ['file path sibling', 'file:///etc/shadow', '/etc/shadow'],
  ['ipv6 sibling', 'http://[fd00::1]/admin/keys', 'fd00::1'],
  ['decimal ipv4 sibling', 'http://2852039166/latest/meta-data/', '2852039166'],
];

for (const [host, event] of postEvents)
  describe(`red team, notices (round 10) through the ${host} hook`, () => {
    for (const [key, uri, secret] of siblings)
      it(`${key} ${host}`)(
        `a refused link named by a sibling's refused address (${key}): the notice does not hand it on`,
        async () => {
          const links: Linked[] = [
            [uri, 'notes'],
            ['http://169.254.169.254/latest/meta-data/', uri],
          ];
          const run = await hooks.hook(host, event(links));
          expect(run.code, run.stderr).toBe(0);
          const out = handed(run.stdout);
          expect(out).toContain('linkgate refused the link');
          expect(out.toLowerCase()).not.toContain(secret);
        },
      );

    test(`control: an ordinary name beside a refusal is shown by the ${host} hook`, async () => {
      const run = await hooks.hook(host, event([['http://169.254.169.254/latest/meta-data/', 'Q3 report draft']]));
      expect(handed(run.stdout)).toContain('Q3 report draft');
    });

    // [key, a refused uri with credentials a parser reads as userinfo]
    const credentials: [string, string][] = [
      ['tab in password', 'http://admin:pw\t44x@169.254.169.254/latest/'],
      ['two at signs', 'http://admin:pw44x@x@169.254.169.254/latest/'],
    ];
    for (const [key, uri] of credentials)
      it(`${key} ${host}`)(
        `credentials read as userinfo (${key}): masked in what the ${host} hook hands on and in its records`,
        async () => {
          const run = await hooks.hook(host, event([[uri, 'creds']]));
          expect(run.code, run.stderr).toBe(0);
          const squeeze = (s: string) => s.replace(/\s|\\t/g, '');
          expect(handed(run.stdout)).toContain('linkgate refused the link');
          expect(squeeze(handed(run.stdout))).not.toContain('pw44x');
          expect(squeeze(records())).not.toContain('pw44x');
        },
      );

    test(`control: a plain userinfo is masked by the ${host} hook`, async () => {
      const run = await hooks.hook(host, event([['http://admin:pw44x@169.254.169.254/latest/', 'creds']]));
      expect(handed(run.stdout)).not.toContain('pw44x');
      expect(records()).not.toContain('pw44x');
    });
  });
