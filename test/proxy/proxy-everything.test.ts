import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { shownDecision } from '../../src/flow/gate-notice.ts';
import { createGate } from '../../src/gate/create-gate.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { decisionMetaKey, gateErrorCode } from '../../src/sdk/gate-transport.ts';
import { everythingServer, processEnv, proxyCommandLine, shippedPolicy } from './proxy-helpers.ts';

type Json = Record<string, unknown>;

// what each call gave: a result, or an error's code and message
type Outcome = { ok: unknown } | { error: { code: number; message: string } };

const gzipSource = `data:text/plain;base64,${Buffer.from('linkgate proxy test\n'.repeat(20)).toString('base64')}`;

/** Every server-everything tool, with arguments that need no network. */
const toolCalls: ReadonlyArray<readonly [string, Json]> = [
  ['echo', { message: 'hello through the gate' }],
  ['get-annotated-message', { messageType: 'error', includeImage: true }],
  ['get-annotated-message', { messageType: 'success' }],
  ['get-env', {}],
  ['get-resource-links', { count: 4 }],
  ['get-resource-reference', { resourceType: 'Text', resourceId: 2 }],
  ['get-resource-reference', { resourceType: 'Blob', resourceId: 3 }],
  ['get-structured-content', { location: 'Chicago' }],
  ['get-sum', { a: 2, b: 40 }],
  ['get-tiny-image', {}],
  ['gzip-file-as-resource', { name: 'note.txt.gz', data: gzipSource, outputType: 'resourceLink' }],
  ['gzip-file-as-resource', { name: 'note2.txt.gz', data: gzipSource, outputType: 'resource' }],
  ['toggle-simulated-logging', {}],
  ['toggle-simulated-logging', {}],
  ['toggle-subscriber-updates', {}],
  ['toggle-subscriber-updates', {}],
  ['trigger-long-running-operation', { duration: 0.3, steps: 3 }],
  ['get-roots-list', {}],
  ['trigger-elicitation-request', {}],
  ['trigger-sampling-request', { prompt: 'say hi', maxTokens: 5 }],
];

async function outcome(work: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: await work() };
  } catch (error) {
    if (error instanceof McpError) return { error: { code: error.code, message: error.message } };
    throw error;
  }
}

/** Runs the whole script against one connection; returns what every step gave, by label. */
const progressSeen = new Map<string, number>();

async function runScript(command: readonly string[]): Promise<Map<string, Outcome>> {
  const [executable, ...args] = command;
  const transport = new StdioClientTransport({
    command: executable as string,
    args,
    env: processEnv(),
    stderr: 'ignore',
  });
  const client = new Client(
    { name: 'proxy-fidelity', version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
    model: 'test-model',
    role: 'assistant',
    content: { type: 'text', text: `sampled: ${JSON.stringify(request.params.messages[0]?.content)}` },
  }));
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: 'accept',
    content: { name: 'ada', age: 36, color: 'blue', pets: ['cats'] },
  }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: [{ uri: 'file:///srv/example-project', name: 'project' }],
  }));
  const notifications: string[] = [];
  client.fallbackNotificationHandler = async (n) => {
    notifications.push(n.method);
  };
  await client.connect(transport);
  const out = new Map<string, Outcome>();
  try {
    out.set('server', { ok: client.getServerVersion() });
    out.set('tools/list', await outcome(() => client.listTools()));
    for (const [name, args] of toolCalls) {
      let progress = 0;
      const label = `tools/call ${name} ${JSON.stringify(args)}`;
      out.set(
        label,
        await outcome(() =>
          client.callTool({ name, arguments: args }, undefined, {
            onprogress: () => {
              progress += 1;
            },
          }),
        ),
      );
      // how many progress notifications land before the answer depends on the server's timers: kept apart
      if (progress > 0) progressSeen.set(label, progress);
    }
    const stream = client.experimental.tasks.callToolStream({
      name: 'simulate-research-query',
      arguments: { topic: 'link gating' },
    });
    let final: unknown = null;
    for await (const message of stream) if (message.type === 'result' || message.type === 'error') final = message;
    out.set('tools/call simulate-research-query (task)', { ok: final });
    out.set('prompts/list', await outcome(() => client.listPrompts()));
    out.set('prompts/get simple-prompt', await outcome(() => client.getPrompt({ name: 'simple-prompt' })));
    out.set(
      'prompts/get args-prompt',
      await outcome(() => client.getPrompt({ name: 'args-prompt', arguments: { city: 'Oslo', state: 'none' } })),
    );
    out.set(
      'prompts/get resource-prompt',
      await outcome(() =>
        client.getPrompt({ name: 'resource-prompt', arguments: { resourceType: 'Text', resourceId: '3' } }),
      ),
    );
    out.set(
      'completion/complete',
      await outcome(() =>
        client.complete({
          ref: { type: 'ref/prompt', name: 'completable-prompt' },
          argument: { name: 'department', value: 'En' },
        }),
      ),
    );
    const resources = await client.listResources();
    out.set('resources/list', { ok: resources });
    out.set('resources/templates/list', await outcome(() => client.listResourceTemplates()));
    const uris = [
      ...resources.resources.map((r) => r.uri),
      'demo://resource/dynamic/text/7',
      'demo://resource/dynamic/blob/7',
    ];
    for (const uri of uris) out.set(`resources/read ${uri}`, await outcome(() => client.readResource({ uri })));
    out.set('resources/subscribe', await outcome(() => client.subscribeResource({ uri: uris[0] as string })));
    out.set('resources/unsubscribe', await outcome(() => client.unsubscribeResource({ uri: uris[0] as string })));
    out.set('logging/setLevel', await outcome(() => client.setLoggingLevel('debug')));
    out.set('ping', await outcome(() => client.ping()));
    out.set('notification kinds', { ok: [...new Set(notifications)].sort() });
  } finally {
    await client.close();
  }
  return out;
}

// dynamic resources name the time they were made, tasks get random ids: compare them without either
function withoutClock(value: unknown): unknown {
  // base64 bodies of dynamic resources hold the time too: compare them decoded
  const decoded = JSON.stringify(value, (k, v: unknown) =>
    k === 'blob' && typeof v === 'string'
      ? `base64:${Buffer.from(v, 'base64').toString('latin1')}`
      : k === 'taskId' && typeof v === 'string'
        ? '<task id>'
        : v,
  );
  return JSON.parse(
    decoded
      .replace(/\d{1,2}:\d{2}:\d{2}\s?[AP]M/g, '<time>')
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>'),
  );
}

// the proxy adds its link decision under each resource_link's `_meta`; take it out to compare with the direct answer
function withoutDecisions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDecisions);
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '_meta' && v !== null && typeof v === 'object' && decisionMetaKey in v) {
      const { [decisionMetaKey]: _, ...rest } = v as Json;
      if (Object.keys(rest).length > 0) out[k] = rest;
    } else out[k] = withoutDecisions(v);
  }
  return out;
}

// a short account of one answer for the comparison table: the content item types, or the error code
function brief(o: Outcome | undefined): string {
  if (o === undefined) return 'no answer';
  if ('error' in o) return `error ${o.error.code}`;
  if (Array.isArray(o.ok)) return o.ok.join(', ');
  const value = o.ok as Json | null;
  const content = value !== null && typeof value === 'object' ? value['content'] : undefined;
  if (Array.isArray(content)) {
    const types = (content as Json[]).map((i) => String(i['type']));
    const counted = [...new Set(types)].map((t) => {
      const n = types.filter((x) => x === t).length;
      return n === 1 ? t : `${t}×${n}`;
    });
    return `${counted.join(', ') || 'no content'}${value?.['structuredContent'] === undefined ? '' : ' + structured'}${value?.['isError'] === true ? ' (isError)' : ''}`;
  }
  if (value !== null && typeof value === 'object' && Array.isArray(value['contents']))
    return `contents×${(value['contents'] as unknown[]).length}`;
  return value !== null && typeof value === 'object' ? `{${Object.keys(value).slice(0, 3).join(', ')}}` : String(value);
}

/** Set `LINKGATE_PROXY_TABLE=1` to print the comparison of every step, directly and through the proxy. */
const printTable = process.env['LINKGATE_PROXY_TABLE'] === '1';

describe('server-everything through the proxy answers as it does directly (SDK 1.x Client)', () => {
  let direct: Map<string, Outcome>;
  let proxied: Map<string, Outcome>;
  beforeAll(async () => {
    direct = await runScript(everythingServer);
    progressSeen.clear();
    proxied = await runScript(proxyCommandLine(['--policy', shippedPolicy('default')], everythingServer));
  }, 120_000);

  test('the same steps answered, in the same order', () => {
    expect([...proxied.keys()]).toEqual([...direct.keys()]);
    expect(direct.size).toBeGreaterThan(toolCalls.length);
  });

  test('every tool, prompt, resource and notification answers the same, except what the gate withholds', async () => {
    const gate = createGate(await loadPolicy(shippedPolicy('default')));
    const withheld: string[] = [];
    const table: string[] = ['| step | direct | through the proxy |', '|---|---|---|'];
    for (const [label, want] of direct) {
      const got = proxied.get(label);
      const shown = label.replace(gzipSource, 'DATA');
      table.push(
        `| ${shown} | ${brief(want)} | ${withoutClock(withoutDecisions(got)) !== null && JSON.stringify(withoutClock(withoutDecisions(got))) === JSON.stringify(withoutClock(want)) ? 'same' : brief(got)} |`,
      );
      // a read the policy denies is answered by the proxy with -32080; the direct read shows what was withheld
      if (label.startsWith('resources/read ') && 'ok' in want) {
        const uri = label.slice('resources/read '.length);
        const link = { type: 'resource_link', uri, name: uri };
        const linkDecision = await gate.decide({ stage: 'link', link });
        const readDecision = await gate.decide({ stage: 'read', link, result: want.ok });
        if (linkDecision.effect === 'deny' || readDecision.effect === 'deny') {
          expect({ label, code: got !== undefined && 'error' in got ? got.error.code : null }).toEqual({
            label,
            code: gateErrorCode,
          });
          withheld.push(label);
          continue;
        }
      }
      if ('error' in want || got === undefined || 'error' in got) {
        expect({ label, got: withoutClock(got) }).toEqual({ label, got: withoutClock(want) });
        continue;
      }
      // embedded resources the policy does not allow are replaced by a text item naming the reason
      const wantValue = structuredClone(want.ok) as Json;
      const items = Array.isArray(wantValue['content']) ? (wantValue['content'] as Json[]) : [];
      for (const [i, item] of items.entries()) {
        if (item['type'] === 'resource_link') {
          // a link the policy denies is not handed on as a link: the flow's text item names it, with the decision
          const decision = await gate.decide({ stage: 'link', server: 'default', readFrom: 'default', link: item });
          if (decision.effect !== 'deny') continue;
          const replaced = ((got.ok as Json)['content'] as Json[])[i] as Json;
          expect(replaced['type']).toBe('text');
          expect(replaced['text']).toContain(`refused the link \`${String(item['name'])}\``);
          // the decision as its notice shows it: a declared type is the server's text (the record keeps it)
          expect((replaced['_meta'] as Json)[decisionMetaKey]).toEqual(shownDecision(decision, String(item['uri'])));
          items[i] = replaced;
          withheld.push(`${label} #${i}`);
          continue;
        }
        if (item['type'] !== 'resource') continue;
        const decision = await gate.decideEmbedded(item['resource']);
        if (decision.effect === 'allow') continue;
        const replaced = ((got.ok as Json)['content'] as Json[])[i] as Json;
        expect(replaced['type']).toBe('text');
        expect(replaced['text']).toContain(decision.reasons[0]?.code);
        const uri = String((item['resource'] as Json)['uri']);
        expect((replaced['_meta'] as Json)[decisionMetaKey]).toEqual(shownDecision(decision, uri));
        items[i] = replaced;
        withheld.push(`${label} #${i}`);
      }
      expect({ label, got: withoutClock(withoutDecisions(got.ok)) }).toEqual({
        label,
        got: withoutClock(withoutDecisions(wantValue)),
      });
    }
    if (printTable) process.stdout.write(`${table.join('\n')}\nwithheld: ${withheld.join('; ')}\n`);
    // gzip is not a type the default policy lets reach a model, embedded or read
    // (a link declaring gzip is refused by its link decision, so it is not handed on as a link either)
    expect(withheld.map((l) => l.replace(gzipSource, 'DATA'))).toEqual([
      'tools/call gzip-file-as-resource {"name":"note.txt.gz","data":"DATA","outputType":"resourceLink"} #0',
      'tools/call gzip-file-as-resource {"name":"note2.txt.gz","data":"DATA","outputType":"resource"} #0',
      'resources/read demo://resource/session/note.txt.gz',
      'resources/read demo://resource/session/note2.txt.gz',
    ]);
  });

  test('progress notifications pass through', () => {
    expect(
      progressSeen.get('tools/call trigger-long-running-operation {"duration":0.3,"steps":3}'),
    ).toBeGreaterThanOrEqual(2);
  });

  test('each resource_link in a tool result carries its link decision', () => {
    const result = proxied.get('tools/call get-resource-links {"count":4}');
    const links = ((result as { ok: Json }).ok['content'] as Json[]).filter((i) => i['type'] === 'resource_link');
    expect(links).toHaveLength(4);
    for (const link of links) expect((link['_meta'] as Json)[decisionMetaKey]).toEqual({ effect: 'allow' });
  });
});

describe('a denied read through the proxy', () => {
  let client: Client;
  beforeAll(async () => {
    const [executable, ...args] = proxyCommandLine(['--policy', shippedPolicy('strict')], everythingServer);
    client = new Client({ name: 'proxy-deny', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: executable as string, args, env: processEnv(), stderr: 'ignore' }),
    );
  }, 60_000);
  afterAll(() => client.close());

  test('is answered with -32080 naming the reason codes and the next boundary, the decision in error.data', async () => {
    const error = await client.readResource({ uri: 'demo://resource/dynamic/text/1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    const e = error as McpError;
    expect(e.code).toBe(gateErrorCode);
    expect(e.message).toMatch(/linkgate refused to read (?:`[^`]*` )?\(scheme `demo`\): .+; next boundary: policy: /);
    const decision = (e.data as Json)[decisionMetaKey] as Json;
    expect(decision['effect']).toBe('deny');
    for (const reason of decision['reasons'] as Json[]) expect(e.message).toContain(String(reason['code']));
  });
});
