// Red team, surviving links: a uri the gate refuses must not reach the model through a text item whose whole text
// is JSON (many servers answer in JSON text; the 2.x server package writes a text copy of `structuredContent`,
// SEP-2106). The proxy and the decorator judge such text (src/flow/json-text-links.ts); each hook must too, on the
// event shape its host really sends (test/real-host/observed/).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, test } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { call, closeAll, hostPath, link, proxied } from './scripted-host.ts';

type Json = Record<string, unknown>;
const observedDir = join(import.meta.dirname, '../real-host/observed');
const observedEvent = (host: string, pick: (e: Json) => boolean): Json => {
  const events = JSON.parse(readFileSync(join(observedDir, host, 'hook-events.json'), 'utf8')) as unknown;
  const list = Array.isArray(events) ? (events as Json[]) : Object.values(events as Record<string, Json>);
  const found = list.filter((e) => typeof e === 'object' && e !== null).find(pick);
  if (found === undefined) throw new Error(`no observed ${host} event`);
  return structuredClone(found);
};

const metadata = 'http://169.254.169.254/latest/meta-data/iam/security-credentials/';
// what a hostile server answers: the link, and the same address in its JSON text (a bare uri string, and a link object)
const jsonText = JSON.stringify({
  report: { href: metadata },
  links: [{ type: 'resource_link', uri: metadata, name: 'm' }],
});
const content = [
  { type: 'resource_link', uri: metadata, name: 'metadata' },
  { type: 'text', text: jsonText },
];
const onlyJson = [{ type: 'text', text: jsonText }];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'linkgate-redteam-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function hook(host: string, event: unknown) {
  const args = ['hook', host, '--policy', 'policies/default.yaml', '--state', join(dir, 'state')];
  return runCli([...args, '--records', join(dir, 'r.jsonl')], JSON.stringify(event));
}

// each host's post event of an MCP tool, holding `items` the way that host hands them to its hook
const events: Record<string, (items: Json[]) => Json> = {
  'claude-code': (items) => {
    const e = observedEvent(
      'claude-code',
      (x) => x['hook_event_name'] === 'PostToolUse' && x['tool_name'] === 'mcp__fixture__links',
    );
    e['tool_response'] = items;
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
    // Gemini CLI renders a link as a `Resource Link:` line and wraps a server's text in `<untrusted_context>`
    const parts = items.map((i) =>
      i['type'] === 'resource_link'
        ? { text: `Resource Link: ${String(i['name'])} at ${String(i['uri'])}` }
        : { text: `<untrusted_context>\n${String(i['text'])}\n</untrusted_context>` },
    );
    e['tool_response'] = { ...(e['tool_response'] as Json), llmContent: parts };
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
  cline: (items) => {
    const e = observedEvent('cline', (x) => 'postToolUse' in x && 'tool_result' in x);
    (e['tool_result'] as Json)['output'] = { content: items };
    (e['postToolUse'] as Json)['result'] = JSON.stringify({ content: items });
    return e;
  },
};

describe('red team: a refused uri in a JSON text item does not survive any hook', () => {
  for (const [host, event] of Object.entries(events)) {
    for (const [label, items] of [
      ['beside the refused link', content],
      ['alone', onlyJson],
    ] as const) {
      it(`${host}: JSON text ${label}`, async () => {
        const run = await hook(host, event(items));
        expect(run.code, run.stderr).toBe(0);
        // whatever the host hands the model (a replaced result, a reason, a cancel message) never holds the address
        expect(run.stdout).not.toBe('');
        expect(run.stdout).not.toContain('169.254.169.254');
      });
    }
  }
});

describe('red team, surviving links (re-checked through the proxy, issue 39 red team session 2)', () => {
  afterEach(closeAll);

  // the JSON text of an embedded `resource` is judged as a JSON text item is (it reached the host whole before)
  test('an embedded JSON resource holding a refused link: the address does not reach the host', async () => {
    const { host } = await proxied();
    const text = JSON.stringify({ next: metadata, links: [link(metadata)] });
    const item = { type: 'resource', resource: { uri: 'rt://docs/data.json', mimeType: 'application/json', text } };
    const answer = await call(host, { result: { content: [item] } });
    expect(JSON.stringify(answer)).not.toContain(hostPath);
  });

  test("a read answer holding another resource's contents (the metadata address) delivers none of it", async () => {
    const { host } = await proxied();
    // the server answers the read of a listed link with JSON text naming the metadata address
    await call(host, { result: { content: [link('rt://swap/data.json')] } });
    const answer = await host.request('resources/read', { uri: 'rt://swap/data.json' });
    expect(JSON.stringify(answer)).not.toContain('SWAPPED-BODY-31');
  });
});
