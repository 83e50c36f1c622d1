// A refused link's notice in a hook names the link by its name unless the name spells an address the same event
// refused (one ledger per event, as the proxy and the decorator keep one per message: src/flow/message-ledger.ts).
// Each host's post event is the one its real binary sent (test/real-host/observed/), with the links tool's items
// changed: a name that spells the address of a link refused beside it is left out; an ordinary name that spells an
// address nobody refused is what the server called its link, and is shown.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maxLinksPerEvent } from '../../src/hook/session-state.ts';
import { runCli } from '../helpers/run-cli.ts';

type Json = Record<string, unknown>;
const observedDir = join(import.meta.dirname, '../real-host/observed');
function observedEvent(host: string, pick: (e: Json) => boolean): Json {
  const events = JSON.parse(readFileSync(join(observedDir, host, 'hook-events.json'), 'utf8')) as unknown;
  const list = Array.isArray(events) ? (events as Json[]) : Object.values(events as Record<string, Json>);
  const found = list.filter((e) => typeof e === 'object' && e !== null).find(pick);
  if (found === undefined) throw new Error(`no observed ${host} event`);
  return structuredClone(found);
}

const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
const internal = 'http://10.20.30.40/admin/keys';
const ordinaryName = 'mirror of https://docs.example/guide';

// each host's post event of the fixture's `links` tool holding `items` the way that host hands them to its hook
const events: Record<string, (items: Json[]) => Json> = {
  'claude-code': (items) => {
    const e = observedEvent(
      'claude-code',
      (x) => x['hook_event_name'] === 'PostToolUse' && x['tool_name'] === 'mcp__fixture__links',
    );
    // Claude Code flattens a link into a `[Resource link: name] uri` text line before its hooks
    e['tool_response'] = items.map((i) =>
      i['type'] === 'resource_link'
        ? { type: 'text', text: `[Resource link: ${String(i['name'])}] ${String(i['uri'])}` }
        : i,
    );
    return e;
  },
  codex: (items) => {
    const e = observedEvent(
      'codex',
      (x) => x['hook_event_name'] === 'PostToolUse' && x['tool_name'] === 'mcp__fixture__links',
    );
    e['tool_response'] = { content: items };
    return e;
  },
  'gemini-cli': (items) => {
    const e = observedEvent(
      'gemini-cli',
      (x) => x['hook_event_name'] === 'AfterTool' && x['tool_name'] === 'mcp_fixture_links',
    );
    // Gemini CLI renders a link as a `Resource Link: name at uri` part and wraps a server's text
    const parts = items.map((i) =>
      i['type'] === 'resource_link'
        ? { text: `Resource Link: ${String(i['name'])} at ${String(i['uri'])}` }
        : { text: `<untrusted_context>\n${String(i['text'])}\n</untrusted_context>` },
    );
    e['tool_response'] = { ...(e['tool_response'] as Json), llmContent: parts };
    return e;
  },
  cline: (items) => {
    const e = observedEvent('cline', (x) => 'postToolUse' in x && 'tool_result' in x);
    (e['tool_result'] as Json)['output'] = { content: items };
    (e['postToolUse'] as Json)['result'] = JSON.stringify({ content: items });
    return e;
  },
  cursor: (items) => ({
    conversation_id: 'c1',
    generation_id: 'g1',
    workspace_roots: ['/tmp'],
    cursor_version: '1.7.0',
    hook_event_name: 'afterMCPExecution',
    tool_name: 'links',
    tool_input: '{}',
    command: 'npx docs-server',
    result_json: JSON.stringify({ content: items }),
  }),
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-notice-ledger-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function hook(host: string, event: unknown) {
  const args = ['hook', host, '--policy', 'policies/default.yaml', '--state', join(dir, 'state')];
  const run = await runCli([...args, '--records', join(dir, 'r.jsonl')], JSON.stringify(event));
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

const link = (uri: string, name: string) => ({ type: 'resource_link', uri, name, mimeType: 'text/plain' });
// a text item whose whole text is JSON holding `uri` (judged as `structuredContent` is, not as a `content` link)
const jsonLink = (uri: string) => ({ type: 'text', text: JSON.stringify({ next: uri }) });

describe('a hook words its notices with the ledger of its event', () => {
  for (const [host, event] of Object.entries(events)) {
    it(`${host}: a refused link named by the address of a link refused beside it is named by its scheme only`, async () => {
      const out = await hook(host, event([link(metadata, 'metadata'), link(internal, `see ${metadata}`)]));
      expect(out).toContain('linkgate refused the link');
      expect(out).not.toContain('169.254.169.254');
      expect(out).not.toContain('10.20.30.40');
    });

    it(`${host}: a refused link with an ordinary name spelling an address nobody refused keeps its name`, async () => {
      const out = await hook(host, event([{ type: 'text', text: '1 link follows' }, link(metadata, ordinaryName)]));
      expect(out).toContain('linkgate refused the link');
      expect(out).not.toContain('169.254.169.254');
      expect(out).toContain(`\`${ordinaryName}\``);
    });
  }
});

// each host's pre event of its resource read tool, of `uri` (the session of the post events above)
const readEvents: Record<string, (uri: string) => Json> = {
  'claude-code': (uri) => {
    const e = observedEvent(
      'claude-code',
      (x) => x['hook_event_name'] === 'PreToolUse' && x['tool_name'] === 'ReadMcpResourceTool',
    );
    e['tool_input'] = { server: 'fixture', uri };
    return e;
  },
  codex: (uri) => {
    const e = observedEvent(
      'codex',
      (x) => x['hook_event_name'] === 'PreToolUse' && x['tool_name'] === 'read_mcp_resource',
    );
    e['tool_input'] = { server: 'fixture', uri };
    return e;
  },
  'gemini-cli': (uri) => {
    const e = observedEvent(
      'gemini-cli',
      (x) => x['hook_event_name'] === 'BeforeTool' && x['tool_name'] === 'read_mcp_resource',
    );
    e['tool_input'] = { uri };
    return e;
  },
};

describe("a hook words a read's notice with the ledger of its event and the session's refusals", () => {
  for (const [host, read] of Object.entries(readEvents)) {
    const listed = events[host] as (items: Json[]) => Json;

    it(`${host}: a refused read of a link with an ordinary name keeps the name`, async () => {
      await hook(host, listed([link(metadata, ordinaryName)]));
      const out = await hook(host, read(metadata));
      expect(out).toContain('linkgate refused to read');
      expect(out).not.toContain('169.254.169.254');
      expect(out).toContain(`\`${ordinaryName}\``);
    });

    it(`${host}: a refused read of a link named by an address the session refused is named by its scheme`, async () => {
      await hook(host, listed([link(internal, 'internal'), link(metadata, `copy of ${internal}`)]));
      const out = await hook(host, read(metadata));
      expect(out).toContain('linkgate refused to read');
      expect(out).not.toContain('169.254.169.254');
      expect(out).not.toContain('10.20.30.40');
    });
  }
});

describe('a link refused in a JSON text is not handed on by the name of a link refused beside it', () => {
  it('codex: the notice naming its address is replaced as every text naming it is', async () => {
    const out = await hook('codex', events['codex']?.([link(metadata, `see ${internal}`), jsonLink(internal)]));
    expect(out).toContain('linkgate refused the link');
    expect(out).not.toContain('169.254.169.254');
    expect(out).not.toContain('10.20.30.40');
  });
});

// an event that withheld links by a cap does not know every address they spell (a line over the split cap is not read
// for them): its notices show no name that spells any address, nor do the session's later read notices
describe('an event that withheld links by a cap words its notices with no ledger', () => {
  const padding = Array.from({ length: maxLinksPerEvent }, (_, i) => link(`guide://pad/${i}`, `pad ${i}`));

  it('codex: a capped link named by a capped sibling, and a refused link read later, are named by scheme', async () => {
    const out = await hook(
      'codex',
      events['codex']?.([
        link(metadata, `copy of ${internal}`),
        ...padding,
        link(internal, 'x'),
        link('guide://b', internal),
      ]),
    );
    // the metadata link is refused; the last padding link and both after it are over the cap
    expect(out.split('linkgate withheld the link').slice(1)).toHaveLength(3);
    expect(out).not.toContain('10.20.30.40');
    const read = await hook('codex', readEvents['codex']?.(metadata));
    expect(read).toContain('linkgate refused to read');
    expect(read).not.toContain('10.20.30.40');
  });

  it("claude-code: a line over the split cap: a refused sibling's notice does not spell its address", async () => {
    const line = `[Resource link: k${'] y'.repeat(70)}] ${internal}`;
    const e = events['claude-code']?.([link(metadata, `copy of ${internal}`)]) as Json;
    (e['tool_response'] as Json[]).push({ type: 'text', text: line });
    const out = await hook('claude-code', e);
    expect(out).toContain('linkgate');
    expect(out).not.toContain('10.20.30.40');
  });

  // a name no rule for 'any address' sees an address in (a single-label host with a path), spelling the address of
  // the link the cap withheld unjudged: the capped event's notices name no link, nor does a later read's
  const named = 'localhost/admin/keys';
  for (const [host, read] of Object.entries(readEvents)) {
    const listed = events[host] as (items: Json[]) => Json;
    it(`${host}: a refused read in a session an event of which hit the cap names no link`, async () => {
      const out = await hook(host, listed([link(metadata, named), ...padding, link(`http://${named}`, 'keys')]));
      expect(out).toContain('linkgate');
      expect(out).not.toContain(named);
      const refused = await hook(host, read(metadata));
      expect(refused).toContain('linkgate refused to read');
      expect(refused).not.toContain(named);
    });
    it(`control: ${host}: the same name in a session that kept all its links is shown`, async () => {
      await hook(host, listed([link(metadata, named)]));
      expect(await hook(host, read(metadata))).toContain(`\`${named}\``);
    });
  }
});
