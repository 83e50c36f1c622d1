// Red team (issue 39, hidden-style round 8), what reaches the model from a refused link's notice. The notice names the
// link by its quoted name unless the name holds the link's own address (as written or read back); round 8 names the
// link by its address in forms read-back does not decode (base64, markdown backslash escapes, JavaScript `\x2f`), and
// by the address of another link refused in the same result or earlier in the session (the check looks at the
// subject's own uri only). Through the proxy and the decorator over the real answering server, and the Claude Code,
// Codex and Gemini CLI hook commands on their event shapes (Gemini's `llmContent` rendered line; its answer's reason
// is what the model gets).
import { decodeHTML } from 'entities';
import MarkdownIt from 'markdown-it';
import { afterEach, describe, expect, test } from 'vitest';
import { hookScratch } from '../hook/hook-args.ts';
import { codexToolReturned, toolReturned } from '../hook/hook-events.ts';
import { callWith, fronts, noticesIn } from './hidden-fronts.ts';
import { closeAll, hostPath, link, metadata } from './scripted-host.ts';
import { caseKeys } from './round-cases.ts';

afterEach(closeAll);

// Cases that got through when this round was written, each `test.fails` until its fix lands (then `test`): none now.
// Mended: a name with `\x2f` escapes (readBack decodes script escapes), a name in base64 (blobText or its base64 runs
// read back too), notices8; a refused link named by a sibling refused link's address (`describeSubject` asked only
// whether the name holds the link's own address): a notice shows no name that spells an address the same answer
// refused (its ledger, notices39; c7c840a's broader rule left out any name spelling any address).
const open = new Set<string>([]);
const it = caseKeys(open);

const markdownIt = new MarkdownIt({ linkify: true });
const other = 'http://10.0.0.7/admin/keys';

/** The notices' text as each reader reads it: written, base64 runs decoded, markdown rendered, `\x2f` decoded. */
function read(notices: string[]): string {
  const text = notices.join('\n');
  const b64 = [...text.matchAll(/[A-Za-z0-9+/]{16,}={0,2}/g)].map((m) => Buffer.from(m[0], 'base64').toString());
  const md = decodeHTML(markdownIt.render(text).replace(/<[^>]*>/g, ''));
  const js = text.replace(/\\\\x([0-9a-f]{2})|\\x([0-9a-f]{2})/gi, (_, a?: string, b?: string) =>
    String.fromCharCode(Number.parseInt((a ?? b) as string, 16)),
  );
  return [text, ...b64, md, js].join('\n').toLowerCase();
}

// names of a refused link (its uri the metadata address) that spell its address
const names: [string, string][] = [
  ['base64', Buffer.from(metadata).toString('base64')],
  ['markdown escapes', `http\\://${metadata.slice(7).replaceAll('.', '\\.')}`],
  ['JavaScript escapes', metadata.replaceAll('/', '\\x2f')],
];

describe('red team, notices (round 8): the oracle reads each name as the address', () => {
  for (const [label, name] of names)
    test(`control: ${label}`, () => {
      expect(read([name])).toContain(hostPath);
      expect(name.toLowerCase()).not.toContain(hostPath);
    });
});

for (const [front, start] of fronts)
  describe(`red team, notices (round 8) through the ${front}`, () => {
    for (const [label, name] of names)
      it(`named ${label} ${front}`)(
        `a refused link named by its address as ${label}: the notice does not spell it`,
        async () => {
          const f = await start();
          const answer = await callWith(f, { result: { content: [link(metadata, name)] } });
          const notices = noticesIn(answer);
          expect(notices.join('\n')).toContain('linkgate refused the link');
          expect(read(notices)).not.toContain(hostPath);
          expect(read([await f.got()])).not.toContain(hostPath);
        },
      );

    it(`named by a sibling ${front}`)(
      "two refused links, one named by the other's address: no notice names the address",
      async () => {
        const f = await start();
        const answer = await callWith(f, { result: { content: [link(metadata, 'creds'), link(other, metadata)] } });
        expect(noticesIn(answer).length).toBeGreaterThanOrEqual(2);
        expect(JSON.stringify(answer).toLowerCase()).not.toContain(hostPath);
      },
    );

    it(`named by an address nobody refused ${front}`)(
      "a refused link named by an address no link of the answer was refused for: the notice shows the name (the message's ledger)",
      async () => {
        const f = await start();
        const name = 'mirror of https://docs.example/guide';
        const answer = await callWith(f, { result: { content: [link(metadata, 'creds'), link(other, name)] } });
        expect(noticesIn(answer).join('\n')).toContain(`\`${name}\``);
        expect(JSON.stringify(answer).toLowerCase()).not.toContain(hostPath);
      },
    );

    it(`named by an earlier refusal ${front}`)(
      'a refused link named by the address refused earlier in the session: its notice does not name it',
      async () => {
        const f = await start();
        await callWith(f, { result: { content: [link(metadata, 'creds')] } });
        const answer = await callWith(f, { result: { content: [link(other, `mirror: ${metadata}`)] } });
        expect(JSON.stringify(answer)).toContain('linkgate');
        expect(JSON.stringify(answer).toLowerCase()).not.toContain(hostPath);
      },
    );
  });

const hooks = hookScratch('linkgate-redteam-r8notices-');

/** A Gemini CLI AfterTool event of an MCP tool whose rendered `llmContent` lists `links` ([name, uri]). */
const geminiReturned = (links: [string, string][]) => ({
  session_id: 'g1',
  transcript_path: '/tmp/linkgate-no-such-session.jsonl',
  cwd: '/tmp',
  hook_event_name: 'AfterTool',
  timestamp: '2026-12-03T08:04:19.232Z',
  tool_name: 'mcp_fixture_links',
  tool_input: {},
  tool_response: {
    llmContent: [
      { text: `<untrusted_context>\n${links.length} links follow\n</untrusted_context>` },
      ...links.map(([name, uri]) => ({ text: `Resource Link: ${name} at ${uri}` })),
    ],
    returnDisplay: `${links.length} links follow\n${links.map(([n, u]) => `[Link to ${n}: ${u}]`).join('\n')}`,
  },
  mcp_context: { server_name: 'fixture', tool_name: 'links', command: 'node', args: ['server.js'] },
});

describe('red team, notices (round 8): the hooks name a refused link', () => {
  for (const [label, name] of [...names, ['by a sibling', metadata] as [string, string]]) {
    const content = label === 'by a sibling' ? [link(metadata, 'creds'), link(other, name)] : [link(metadata, name)];
    it(`claude ${label}`)(
      `Claude Code: a refused link named ${label}: the answer does not spell the address`,
      async () => {
        const run = await hooks.hook('claude-code', toolReturned('fixture', 'links', content));
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).toContain('linkgate refused the link');
        expect(read([run.stdout])).not.toContain(hostPath);
      },
    );
    it(`codex ${label}`)(`Codex: a refused link named ${label}: the answer does not spell the address`, async () => {
      const run = await hooks.hook('codex', codexToolReturned({ content }));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('linkgate');
      expect(read([run.stdout])).not.toContain(hostPath);
    });
    it(`gemini ${label}`)(
      `Gemini CLI: a refused link named ${label}: the answer does not spell the address`,
      async () => {
        const links = content.map((l) => [l.name, l.uri] as [string, string]);
        const run = await hooks.hook('gemini-cli', geminiReturned(links));
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).toContain('linkgate');
        expect(read([run.stdout])).not.toContain(hostPath);
      },
    );
  }
});
