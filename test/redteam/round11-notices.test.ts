// Red team (issue 39, hidden-style round 11), what a notice hands the model beyond the refused link's own name. A
// withheld body's notice shows its reasons' messages, and a content reason may quote the body (a stylesheet a page
// loads: `a <link rel="stylesheet"> to "<href>"`): once the session refused the metadata address, a page whose
// stylesheet points there is withheld, and its notice must not spell the address (the hook's read notice searches the
// link's name for the session's refused addresses, not the rest of the notice). Then the per-event notice ledger where
// round 10 did not take it: a refused link in `structuredContent` named by the address of a refused link in `content`
// (one message, two places), and an event past the 1 024-link state cap, where the capped link's address is in no
// ledger and only the broad rule stands (an IPv6 host in a name). Through Claude Code's and Codex's hooks fed their
// real read events, each host's post hook, and the proxy and the decorator over the real answering server.
// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`).
// Mended: read notice quotes the body claude-code, read notice quotes the body codex — a hook's read notice showed its
// reasons' messages (src/content/svg-html/css-import.ts quotes the href) and searched only the link's name; it now
// shows a reason's message only where the policy wrote it (`showsMessage`, src/flow/gate-notice.ts), the record keeps
// the rest. Mended: capped name claude-code, capped name codex, capped name gemini-cli — an event past the 1 024-link cap words
// its notices with the broad rule (src/flow/gate-notice.ts), which did not see a bracketed IPv6 host with no scheme
// (`[fd00::1]/admin/keys` was shown); it now sees IPv6 literals, bracketed or bare, and hosts with a path or a port
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { codexToolReturned, readRequested, readReturned, toolReturned } from '../hook/hook-events.ts';
import { callWith, fronts, noticesIn } from './hidden-fronts.ts';
import { handed, type Linked, postEvents } from './round10-hosts.ts';
import { closeAll, hostPath, link, metadata } from './scripted-host.ts';
import { caseKeys } from './round-cases.ts';

const open = new Set<string>([]);
const it = caseKeys(open);

afterEach(closeAll);
const hooks = hookScratch('linkgate-redteam-r11notices-');

const page = 'https://docs.example/guide.md';
/** A page whose stylesheet the browser fetches from `href`. */
const styled = (href: string) =>
  `<!doctype html><html><head><link rel="stylesheet" href="${href}"></head><body>guide</body></html>`;
const body = (href: string) => [{ uri: page, mimeType: 'text/markdown', text: styled(href) }];
const pageLink = { ...link(page, 'guide'), mimeType: 'text/markdown' };

// [host, the three events of one session: the tool result listing `links`, the read's pre event, its post event]
const readingHosts: [
  string,
  {
    listed: (links: unknown[]) => unknown;
    pre: () => unknown;
    post: (contents: unknown[]) => unknown;
  },
][] = [
  [
    'claude-code',
    {
      listed: (links) => toolReturned('fixture', 'links', links, { toolUseId: 't_links' }),
      pre: () => readRequested('fixture', page),
      post: (contents) => readReturned('fixture', page, contents),
    },
  ],
  [
    'codex',
    {
      listed: (links) => codexToolReturned({ content: links }, { toolUseId: 'c_links' }),
      // Codex's `read_mcp_resource`, its result a JSON text (as the real binary sent it)
      pre: () => ({
        ...codexToolReturned(undefined, { toolUseId: 'c_read' }),
        hook_event_name: 'PreToolUse',
        tool_name: 'read_mcp_resource',
        tool_input: { server: 'fixture', uri: page },
        tool_response: undefined,
      }),
      post: (contents) => ({
        ...codexToolReturned(JSON.stringify({ server: 'fixture', uri: page, contents }), { toolUseId: 'c_read' }),
        tool_name: 'read_mcp_resource',
        tool_input: { server: 'fixture', uri: page },
      }),
    },
  ],
];

describe('red team, notices (round 11): a withheld body quoted in its notice', () => {
  for (const [host, events] of readingHosts) {
    it(`read notice quotes the body ${host}`)(
      `${host}: after the metadata link was refused, a page styled from there: the notice does not spell it`,
      async () => {
        await hooks.hook(host, events.listed([link(metadata, 'creds'), pageLink]));
        await hooks.hook(host, events.pre());
        const run = await hooks.hook(host, events.post(body(`${metadata}site.css`)));
        expect(run.code, run.stderr).toBe(0);
        expect(handed(run.stdout)).toContain('linkgate');
        expect(handed(run.stdout)).not.toContain(hostPath);
      },
    );

    test(`control: ${host}: a page styled from an ordinary host: withheld by its code, the record says from where`, async () => {
      await hooks.hook(host, events.listed([link(metadata, 'creds'), pageLink]));
      await hooks.hook(host, events.pre());
      const run = await hooks.hook(host, events.post(body('https://cdn.example/site.css')));
      expect(handed(run.stdout)).toContain('linkgate withheld the body of `guide`');
      expect(handed(run.stdout)).toContain('content.remote-load');
      expect(handed(run.stdout)).not.toContain('cdn.example');
      expect(readFileSync(join(hooks.dir, 'r.jsonl'), 'utf8')).toContain('cdn.example/site.css');
    });
  }

  for (const [front, make] of fronts)
    test(`${front}: after the metadata link was refused, a page styled from there: the answer does not spell it`, async () => {
      const gated = await make();
      const answers = { 'resources/read': { result: { contents: body(`${metadata}site.css`) } } };
      await callWith(gated, { result: { content: [link(metadata, 'creds'), pageLink] }, answers });
      const read = await gated.request('resources/read', { uri: page });
      expect(noticesIn(read).join('\n')).toContain('linkgate');
      expect(JSON.stringify(read)).not.toContain(hostPath);
    });
});

describe('red team, notices (round 11): one ledger for content and structuredContent', () => {
  const shadow = 'file:///etc/shadow';
  // the content's refused link at `shadow`, and a refused link in structuredContent named by that address
  const result = (name: string) => ({
    content: [link(shadow, 'notes')],
    structuredContent: { next: link(metadata, name) },
  });

  for (const [front, make] of fronts) {
    test(`${front}: the structured link's notice does not spell the content link's address`, async () => {
      const answer = await callWith(await make(), { result: result(shadow) });
      expect(noticesIn(answer).length).toBeGreaterThan(1);
      expect(JSON.stringify(answer)).not.toContain('/etc/shadow');
    });
    test(`control: ${front}: an ordinary name of the structured link is shown`, async () => {
      const answer = await callWith(await make(), { result: result('Q3 report draft') });
      expect(noticesIn(answer).join('\n')).toContain('Q3 report draft');
    });
  }

  test("codex: the structured link's notice does not spell the content link's address", async () => {
    const run = await hooks.hook('codex', codexToolReturned(result(shadow)));
    expect(run.code, run.stderr).toBe(0);
    expect(handed(run.stdout)).toContain('linkgate refused the link');
    expect(handed(run.stdout)).not.toContain('/etc/shadow');
  });
  test('control: codex: an ordinary name of the structured link is shown', async () => {
    const run = await hooks.hook('codex', codexToolReturned(result('Q3 report draft')));
    expect(handed(run.stdout)).toContain('Q3 report draft');
  });
});

describe('red team, notices (round 11): an event past the state cap', () => {
  // [the address of the link the cap withholds, the refused link's name spelling it]: an IPv6 literal, and (reading13
  // F8) a single-label host with a path and a bare dotted name, which no rule for "any address" can tell from a name
  const cases = [
    ['http://[fd00::1]/admin/keys', '[fd00::1]/admin/keys'],
    ['http://localhost/admin/keys', 'localhost/admin/keys'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'metadata.google.internal'],
  ] as const;
  // a refused link named by the address of a link the cap withholds, 1 024 ordinary links between them
  const padded = (capped: string, name: string, cap: boolean): Linked[] => [
    [metadata, name],
    ...(cap ? Array.from({ length: 1024 }, (_, i): Linked => [`https://docs.example/p/${i}`, `page ${i}`]) : []),
    ...(cap ? [[capped, 'keys'] as Linked] : []),
  ];
  for (const [host, event] of postEvents) {
    for (const [capped, name] of cases) {
      it(`capped name ${host}`)(
        `${host}: the refused link's notice does not spell the capped link's address (${name})`,
        async () => {
          const run = await hooks.hook(host, event(padded(capped, name, true)));
          expect(run.code, run.stderr).toBe(0);
          expect(handed(run.stdout)).toContain('linkgate');
          expect(handed(run.stdout)).not.toContain(name);
        },
      );
      test(`control: ${host}: the same name with no cap reached is shown (no link has that address): ${name}`, async () => {
        const run = await hooks.hook(host, event(padded(capped, name, false)));
        expect(handed(run.stdout)).toContain(name);
      });
    }
  }
});
