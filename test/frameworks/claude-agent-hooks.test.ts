// The Claude Agent SDK's in-process hooks on Claude Code's own event shapes, without the SDK: the same answers as
// `linkgate hook claude-code`, records with the SDK as the host, and every failure answered closed (never a throw,
// which the SDK would by default let pass).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type ClaudeAgentHooks, claudeAgentHooks } from '../../src/frameworks/claude-agent-hooks.ts';
import { maxLinksPerEvent } from '../../src/hook/session-state.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import type { LinkRecord } from '../../src/record/link-record.ts';
import { recordKindOf } from '../../src/record/record-kind.ts';
import { callbackSink } from '../../src/record/record-sink.ts';
import { readRequested, readReturned, resourcesListed, toolReturned } from '../hook/hook-events.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

// the session state: in this process's memory (the default), or in files under `stateDir` as the hook command keeps it
type StateKind = 'memory' | 'files';

async function setup(policy: string | undefined, mode?: 'observe', state: StateKind = 'memory') {
  const dir = await mkdtemp(path.join(tmpdir(), 'linkgate-agent-hooks-'));
  dirs.push(dir);
  const records: LinkRecord[] = [];
  const hooks = claudeAgentHooks({
    policy: policy ?? (await loadPolicy('policies/default.yaml')),
    records: callbackSink((r) => {
      records.push(r);
    }),
    ...(state === 'files' ? { stateDir: path.join(dir, 'state') } : {}),
    ...(mode === undefined ? {} : { mode }),
  });
  return { hooks, records, dir };
}

// what the SDK would do: call the first matcher's callback of the event
function call(hooks: ClaudeAgentHooks, event: Record<string, unknown>): Promise<Record<string, unknown>> {
  const name = event['hook_event_name'] as Exclude<keyof ClaudeAgentHooks, 'flush'>;
  const callback = hooks[name][0]?.hooks[0];
  if (callback === undefined) throw new Error(`no hook for ${name}`);
  return callback(event, event['tool_use_id'] as string, { signal: new AbortController().signal });
}

const links = [
  { type: 'text', text: '[Resource link: readme] guide://docs/readme' },
  { type: 'text', text: '[Resource link: metadata] http://169.254.169.254/latest/meta-data/' },
];

describe('claudeAgentHooks', () => {
  test('every matcher blocks the action when a callback fails, whatever the SDK default', async () => {
    const { hooks } = await setup(undefined);
    for (const event of ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'] as const)
      expect(hooks[event]).toEqual([{ hooks: [expect.any(Function)], onFailure: 'block' }]);
    // `flush` is no event: the SDK, which reads the option's keys, never sees it
    expect(Object.keys(hooks)).toEqual(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);
    expect(typeof hooks.flush).toBe('function');
  });

  test('a refused link is denied before the read, an allowed one is read and its body delivered, with records', async () => {
    const { hooks, records } = await setup(undefined);
    // the tool's result hands the refused link on as a notice, never as a link the model could ask for again
    const returned = await call(hooks, toolReturned('docs', 'links', links));
    expect(returned).toMatchObject({ hookSpecificOutput: { hookEventName: 'PostToolUse' } });
    expect(JSON.stringify(returned)).toContain('linkgate refused the link `metadata`');
    expect(JSON.stringify(returned)).toContain('[Resource link: readme] guide://docs/readme');
    const denied = await call(
      hooks,
      readRequested('docs', 'http://169.254.169.254/latest/meta-data/', { toolUseId: 'toolu_meta' }),
    );
    expect(denied).toMatchObject({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' },
    });
    expect(JSON.stringify(denied)).toContain('uri.non-public-address');
    expect(await call(hooks, readRequested('docs', 'guide://docs/readme'))).toEqual({});
    const body = [{ uri: 'guide://docs/readme', mimeType: 'text/plain', text: 'how to pack\n' }];
    expect(await call(hooks, readReturned('docs', 'guide://docs/readme', body))).toEqual({});
    const finished = records.filter((r) => recordKindOf(r) === 'link');
    expect(new Set(finished.map((r) => JSON.stringify([r.uri, r.verdict, r.host?.name])))).toEqual(
      new Set([
        JSON.stringify(['http://169.254.169.254/latest/meta-data/', 'link-only', 'claude-agent-sdk']),
        JSON.stringify(['guide://docs/readme', 'body-obtained', 'claude-agent-sdk']),
      ]),
    );
  });

  test.each<StateKind>(['memory', 'files'])(
    'one record per link (state in %s): a discovery record as the tool result goes out, superseded by the later record of the read or of flush',
    async (state) => {
      const { hooks, records } = await setup(undefined, undefined, state);
      const listed = [...links, { type: 'text', text: '[Resource link: guide] guide://docs/guide' }];
      await call(hooks, toolReturned('docs', 'links', listed));
      // every link listed has its discovery record before any read: the refused one with its refusal
      expect(records.map((r) => [recordKindOf(r), r.uri, r.verdict])).toEqual([
        ['discovered', 'guide://docs/readme', 'link-only'],
        ['discovered', 'http://169.254.169.254/latest/meta-data/', 'link-only'],
        ['discovered', 'guide://docs/guide', 'link-only'],
      ]);
      await call(hooks, readRequested('docs', 'guide://docs/readme'));
      const body = [{ uri: 'guide://docs/readme', mimeType: 'text/plain', text: 'how to pack\n' }];
      await call(hooks, readReturned('docs', 'guide://docs/readme', body));
      await call(hooks, readRequested('docs', 'http://169.254.169.254/latest/meta-data/', { toolUseId: 'toolu_meta' }));
      await hooks.flush();
      // one finished record per link: the read, the refused read, and the guide listed and never read
      const finished = records.filter((r) => recordKindOf(r) === 'link');
      expect(finished.map((r) => [r.uri, r.verdict, r.stages.requested === null, r.host?.toolUseIds])).toEqual([
        ['guide://docs/readme', 'body-obtained', false, { discovered: 'toolu_docs_links', requested: 'toolu_read' }],
        [
          'http://169.254.169.254/latest/meta-data/',
          'link-only',
          true,
          { discovered: 'toolu_docs_links', requested: 'toolu_meta' },
        ],
        ['guide://docs/guide', 'link-only', true, { discovered: 'toolu_docs_links', requested: null }],
      ]);
      // a second flush writes nothing more
      await hooks.flush();
      expect(records.filter((r) => recordKindOf(r) === 'link')).toHaveLength(3);
    },
  );

  test('a body the policy does not allow is replaced by the notice', async () => {
    const { hooks, records } = await setup(undefined);
    await call(hooks, toolReturned('docs', 'links', links));
    await call(hooks, readRequested('docs', 'guide://docs/readme'));
    const html = '<html><body><script>fetch("https://evil.example/")</script></body></html>';
    const answer = await call(
      hooks,
      readReturned('docs', 'guide://docs/readme', [{ uri: 'guide://docs/readme', mimeType: 'text/html', text: html }]),
    );
    expect(answer).toMatchObject({ hookSpecificOutput: { hookEventName: 'PostToolUse' } });
    const output = JSON.stringify(answer);
    expect(output).toContain('linkgate withheld');
    expect(output).not.toContain('evil.example');
    const finished = records.filter((r) => recordKindOf(r) === 'link' && r.uri === 'guide://docs/readme');
    expect(finished.map((r) => r.verdict)).toEqual(['link-only']);
  });

  test('a policy that does not load denies every read and withholds every result; nothing throws', async () => {
    const { hooks, records } = await setup('/no/such/policy.yaml');
    const pre = await call(hooks, readRequested('docs', 'guide://docs/readme'));
    expect(pre).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } });
    expect(JSON.stringify(pre)).toContain('the hook failed: cannot read policy');
    const post = await call(
      hooks,
      readReturned('docs', 'guide://docs/readme', [{ uri: 'guide://docs/readme', mimeType: 'text/plain', text: 'x' }]),
    );
    expect(post).toMatchObject({
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        updatedToolOutput: { contents: [{ text: expect.stringContaining('linkgate withheld this tool result') }] },
      },
    });
    const tool = await call(hooks, toolReturned('docs', 'links', links));
    expect(JSON.stringify(tool)).toContain('linkgate withheld this tool result');
    expect(JSON.stringify(tool)).not.toContain('169.254.169.254');
    expect(records).toEqual([]);
  });

  test('an event that is no object, or lacks its fields, is answered closed', async () => {
    const { hooks } = await setup(undefined);
    const callback = hooks.PreToolUse[0]?.hooks[0];
    const signal = new AbortController().signal;
    expect(await callback?.('not an event', undefined, { signal })).toMatchObject({ decision: 'block' });
    const pre = await callback?.({ hook_event_name: 'PreToolUse', tool_name: 'ReadMcpResourceTool' }, undefined, {
      signal,
    });
    expect(pre).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });

  test('observe mode answers nothing and records what enforcing would have done', async () => {
    const { hooks, records } = await setup(undefined, 'observe');
    await call(hooks, toolReturned('docs', 'links', links));
    const uri = 'http://169.254.169.254/latest/meta-data/';
    expect(await call(hooks, readRequested('docs', uri))).toEqual({});
    expect(await call(hooks, readReturned('docs', uri, [{ uri, mimeType: 'text/plain', text: 'secret' }]))).toEqual({});
    const metadata = records.filter((r) => r.uri === uri);
    expect(metadata.length).toBeGreaterThan(0);
    for (const r of metadata) expect(r.wouldDeny).toBe(true);
  });
});

// The per-event link cap fails closed in the in-process state as in the hook command's files (issue 39 item 1, the
// same case as test/hook/link-cap.test.ts): a link over `maxLinksPerEvent` is withheld, and the state keeps that it
// could not keep links of that server, so a read of it from another server is `server.mismatch`.
describe.each<StateKind>(['memory', 'files'])('claudeAgentHooks: the per-event link cap, state in %s', (state) => {
  const vault = 'vault://keys/prod';
  const padding = (count: number) => Array.from({ length: count }, (_, i) => `guide://pad/${i}`);
  const denied = (answer: Record<string, unknown>) => {
    expect(answer).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    return JSON.stringify(answer);
  };

  test.each([0, maxLinksPerEvent])(
    'with %i padding links, a read from another server is server.mismatch',
    async (pad) => {
      const { hooks } = await setup(undefined, undefined, state);
      const listed = [...padding(pad), vault].map((uri, i) => ({
        type: 'text',
        text: `[Resource link: l${i}] ${uri}`,
      }));
      const returned = await call(hooks, toolReturned('docs', 'get', listed));
      if (pad > 0) expect(JSON.stringify(returned)).toMatch(/linkgate withheld [^"]*content\.too-many-items/);
      expect(denied(await call(hooks, readRequested('other', vault)))).toContain('server.mismatch');
      // the server that returned it still reads it
      expect(await call(hooks, readRequested('docs', vault, { toolUseId: 'toolu_2' }))).toEqual({});
    },
  );

  test('a resource list over the cap: an entry it could not keep is not readable from another server', async () => {
    const { hooks } = await setup(undefined, undefined, state);
    const entries = [...padding(maxLinksPerEvent), vault].map((uri) => ({ server: 'docs', uri, name: uri }));
    expect(await call(hooks, resourcesListed(entries))).toEqual({});
    expect(denied(await call(hooks, readRequested('other', vault)))).toContain('server.mismatch');
  });

  test('a pending read is taken once: a second result of the same read has no pending step', async () => {
    const { hooks, records, dir } = await setup(undefined, undefined, state);
    await call(hooks, toolReturned('docs', 'links', links));
    expect(await call(hooks, readRequested('docs', 'guide://docs/readme'))).toEqual({});
    const body = [{ uri: 'guide://docs/readme', mimeType: 'text/plain', text: 'how to pack\n' }];
    expect(await call(hooks, readReturned('docs', 'guide://docs/readme', body))).toEqual({});
    const read = () => records.filter((r) => recordKindOf(r) === 'link' && r.uri === 'guide://docs/readme');
    expect(read().map((r) => r.verdict)).toEqual(['body-obtained']);
    // a replayed result finds no pending read: judged as a read the hook never let through, never as that one (its
    // requested stage is made when the replay comes, so the clock is let pass the first one's millisecond: within
    // one, the two stages read the same whichever way the replay was judged)
    const first = read()[0]?.stages.requested?.at;
    while (new Date().toISOString() === first) await new Promise((resolve) => setImmediate(resolve));
    await call(hooks, readReturned('docs', 'guide://docs/readme', body));
    expect(read().length).toBe(2);
    expect(read()[1]?.stages.requested).not.toEqual(read()[0]?.stages.requested);
    // memory keeps no file; files are where the hook command keeps them
    const kept = await readdir(dir);
    expect(kept).toEqual(state === 'files' ? ['state'] : []);
  });
});

// The SDK hands a post event of an MCP tool whose result has `structuredContent` and no link that value as a JSON
// string, which the model reads (claude-agent-structured.test.ts measures it on the real SDK)
describe('claudeAgentHooks: a result the SDK hands as its structuredContent, a JSON string', () => {
  const metadataLink = { type: 'resource_link', uri: 'http://169.254.169.254/latest/meta-data/iam/', name: 'creds' };
  const returned = (value: unknown) => ({
    ...toolReturned('docs', 'lookup', []),
    tool_response: JSON.stringify(value),
  });

  test.each([
    ['no link', { summary: 'ORDINARY-7f3a' }],
    [
      'an allowed link',
      { summary: 'ORDINARY-7f3a', next: { type: 'resource_link', uri: 'guide://docs/a', name: 'a' } },
    ],
    ['an allowed address as a string', { summary: 'ORDINARY-7f3a', see: 'guide://docs/a' }],
  ])('holding %s: handed on as it came', async (_name, value) => {
    const { hooks } = await setup(undefined);
    expect(await call(hooks, returned(value))).toEqual({});
  });

  test('holding a refused link: the model reads its notice in the JSON, never its address, and the rest', async () => {
    const { hooks } = await setup(undefined);
    const answer = JSON.stringify(await call(hooks, returned({ summary: 'ORDINARY-7f3a', next: metadataLink })));
    expect(answer).toContain('linkgate refused the link');
    expect(answer).toContain('ORDINARY-7f3a');
    expect(answer).not.toContain('169.254.169.254');
  });

  test('a refused link at the top, or in a list: withheld the same', async () => {
    const { hooks } = await setup(undefined);
    for (const value of [metadataLink, { items: [metadataLink] }]) {
      const answer = JSON.stringify(await call(hooks, returned(value)));
      expect(answer).toContain('linkgate');
      expect(answer).not.toContain('169.254.169.254');
    }
  });

  test('an object that is no result (not a string) is still withheld whole: content.shape', async () => {
    const { hooks } = await setup(undefined);
    const answer = JSON.stringify(
      await call(hooks, { ...toolReturned('docs', 'lookup', []), tool_response: { summary: 'SECRET' } }),
    );
    expect(answer).toContain('content.shape');
    expect(answer).not.toContain('SECRET');
  });
});
