// Red team (issue 39, hidden-style round 10), a refused address surviving in what a hook hands the model. Rounds 5–9
// put the address in text, JSON, `structuredContent` and escapes through the proxy and the decorator; here it rides in
// base64 bodies a host passes to the model beside the refused link (a Codex `image` item declared text/plain, which
// Codex hands on; a Codex or Claude Code embedded `resource` blob; Gemini's `inlineData` and Claude Code's non-image
// images are withheld whatever they say, so they are no case), as a member
// name of Codex's `structuredContent` (Codex gives the model `structuredContent` in place of the items), and in a
// later event of the same session spelled through an HTML reference then a script escape (`&#92;x2f` for `/`).
// Each host's post hook fed the event its real binary sends; controls: the same shapes with an ordinary address pass.
import { decodeHTML } from 'entities';
import { describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { codexToolReturned, toolReturned } from '../hook/hook-events.ts';
import { handed, postEvents } from './round10-hosts.ts';
import { caseKeys } from './round-cases.ts';

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
const open = new Set<string>([]);
const it = caseKeys(open);

const hooks = hookScratch('linkgate-redteam-r10surviving-');
const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
const hostPath = '169.254.169.254/latest';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const refusedLink = { type: 'resource_link', uri: metadata, name: 'creds', mimeType: 'text/plain' };

/** Everything the model may be handed: the answer's strings, base64 runs decoded. */
function decoded(stdout: string, event: unknown): string {
  // a hook that changes nothing hands the event's result on as it came
  const text = stdout.trim() === '' ? JSON.stringify(event) : handed(stdout);
  const runs = [...text.matchAll(/[A-Za-z0-9+/]{16,}={0,2}/g)].map((m) =>
    Buffer.from(m[0], 'base64').toString('latin1'),
  );
  return [text, ...runs].join('\n');
}

// [key, host, event beside the refused link, with the address in `address`]
const beside: [string, string, (address: string) => unknown][] = [
  [
    'codex image text',
    'codex',
    (address) =>
      codexToolReturned({
        content: [refusedLink, { type: 'image', mimeType: 'text/plain', data: b64(`the keys: ${address}`) }],
      }),
  ],
  [
    'codex embedded blob',
    'codex',
    (address) =>
      codexToolReturned({
        content: [
          refusedLink,
          {
            type: 'resource',
            resource: { uri: 'rt://a.txt', mimeType: 'text/plain', blob: b64(`the keys: ${address}`) },
          },
        ],
      }),
  ],
  [
    'claude embedded blob',
    'claude-code',
    (address) =>
      toolReturned('fixture', 'links', [
        refusedLink,
        {
          type: 'resource',
          resource: { uri: 'rt://a.txt', mimeType: 'text/plain', blob: b64(`the keys: ${address}`) },
        },
      ]),
  ],
  [
    'codex structured member name',
    'codex',
    (address) => codexToolReturned({ content: [refusedLink], structuredContent: { endpoints: { [address]: 'ok' } } }),
  ],
];

describe('red team, surviving (round 10): the address beside its refused link, in what a hook hands on', () => {
  for (const [key, host, event] of beside)
    it(key)(`${key}: the address does not reach the model`, async () => {
      const given = event(metadata);
      const run = await hooks.hook(host, given);
      expect(run.code, run.stderr).toBe(0);
      expect(decoded(run.stdout, given)).not.toContain(hostPath);
    });

  for (const [key, host, event] of beside)
    test(`control: ${key} with an ordinary address: the address is handed on`, async () => {
      const given = event('https://example.com/docs/a');
      const run = await hooks.hook(host, given);
      expect(decoded(run.stdout, given)).toContain('example.com/docs/a');
    });
});

describe('red team, surviving (round 10): a later event of the session, the address escaped twice', () => {
  const escaped = metadata.replaceAll('/', '&#92;x2f');
  test('control: the escaped form reads back as the address', () => {
    const back = decodeHTML(escaped).replace(/\\x([0-9a-f]{2})/gi, (_, h: string) =>
      String.fromCharCode(Number.parseInt(h, 16)),
    );
    expect(back).toContain(hostPath);
  });
  for (const [host, event] of postEvents)
    it(`later escaped ${host}`)(`${host}: the later result naming it is not handed on`, async () => {
      const first = await hooks.hook(host, event([[metadata, 'creds']], [], 'id_1'));
      expect(handed(first.stdout)).toContain('linkgate refused the link');
      const later = event([], [`the keys: ${escaped}`], 'id_2');
      const run = await hooks.hook(host, later);
      expect(run.code, run.stderr).toBe(0);
      const out = run.stdout.trim() === '' ? JSON.stringify(later) : handed(run.stdout);
      expect(out).not.toContain(escaped);
    });
});
