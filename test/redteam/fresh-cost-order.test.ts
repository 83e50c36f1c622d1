// Red team (issue 39, fresh session 3), cost and order through the proxy (in process, before the real scripted stdio
// server) and the decorator (a real SDK client): one crafted answer must not keep a front end busy past a host's
// timeout (the SDK's default request timeout is 60 s: each test's own timeout) or stop it answering the next request,
// and answers the host cancelled, or task answers the gate does not judge, must not carry a refused link through.
// Speeds are printed, not asserted; what is asserted is that the answer came, holds nothing refused, and the front
// end still answers after it.
import { afterEach, describe, expect, test } from 'vitest';
import { call, closeAll, decorated, hostPath, link, metadata, proxied, settled } from './scripted-host.ts';

afterEach(closeAll);

// JSON text of `inner` inside `depth` arrays (written, not stringified: JSON.stringify recurses)
const nested = (depth: number, inner: unknown) => `${'['.repeat(depth)}${JSON.stringify(inner)}${']'.repeat(depth)}`;

async function timed<T>(label: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const value = await run();
  console.info(`[measure] ${label}: ${Math.round(performance.now() - started)} ms`);
  return value;
}

describe('red team, cost (fresh): the proxy', () => {
  test('structuredContent nested 100 000 deep around a refused link: answered, nothing refused, still up', {
    timeout: 60_000,
  }, async () => {
    const { host } = await proxied();
    const rawResult = `{"content":[${JSON.stringify(link(metadata))}],"structuredContent":{"deep":${nested(100_000, metadata)}}}`;
    const answer = JSON.stringify(await timed('structuredContent 100 000 deep', () => call(host, { rawResult })));
    expect(answer).not.toContain(hostPath);
    expect(await host.request('ping')).toHaveProperty('result');
  });

  test('a JSON text item nested 100 000 deep beside a refused link: answered, nothing refused, still up', {
    timeout: 60_000,
  }, async () => {
    const { host } = await proxied();
    const text = nested(100_000, metadata);
    const result = { content: [link(metadata), { type: 'text', text }] };
    const answer = JSON.stringify(await timed('JSON text 100 000 deep', () => call(host, { result })));
    expect(answer).not.toContain(hostPath);
    expect(await host.request('ping')).toHaveProperty('result');
  });

  test('20 000 refused links in one result: answered before the host gives up, nothing refused, still up', {
    timeout: 60_000,
  }, async () => {
    const { host } = await proxied();
    const content = Array.from({ length: 20_000 }, (_, i) =>
      link(`http://10.9.${i % 250}.${Math.floor(i / 250)}/secret-${i}`, `l${i}`),
    );
    const answer = JSON.stringify(await timed('20 000 refused links', () => call(host, { result: { content } })));
    expect(answer).not.toContain('/secret-');
    expect(await host.request('ping')).toHaveProperty('result');
  });

  test('a refused uri of 1 MiB beside 2 000 prose items: answered, nothing refused, still up', {
    timeout: 60_000,
  }, async () => {
    const { host } = await proxied();
    const long = `${metadata}${'a'.repeat(1 << 20)}`;
    const content: unknown[] = [link(long)];
    for (let i = 0; i < 2000; i += 1) content.push({ type: 'text', text: `prose ${i} ${'x'.repeat(500)}` });
    const answer = JSON.stringify(
      await timed('1 MiB refused uri, 2 000 prose', () => call(host, { result: { content } })),
    );
    expect(answer).not.toContain(hostPath);
    expect(await host.request('ping')).toHaveProperty('result');
  });

  test('a sampling request of 5 000 messages, each a refused link: judged, nothing refused reaches the host', {
    timeout: 60_000,
  }, async () => {
    const { host } = await proxied();
    const messages = Array.from({ length: 5000 }, (_, i) => ({
      role: 'user',
      content: link(`http://10.8.${i % 250}.${Math.floor(i / 250)}/secret-${i}`, `m${i}`),
    }));
    const request = {
      jsonrpc: '2.0',
      id: 's-big',
      method: 'sampling/createMessage',
      params: { maxTokens: 1, messages },
    };
    await call(host, { result: { content: [] }, before: [request] });
    const got = JSON.stringify(await timed('sampling of 5 000 links', () => host.waitFor((m) => m['id'] === 's-big')));
    expect(got).not.toContain('/secret-');
  });

  test('2 000 reads the server never answers: a ping and a tool call still answer at once', {
    timeout: 60_000,
  }, async () => {
    const { host } = await proxied();
    for (let i = 0; i < 2000; i += 1)
      host.send({ jsonrpc: '2.0', id: `h${i}`, method: 'resources/read', params: { uri: `rt://hold/${i}` } });
    expect(await timed('ping behind 2 000 held reads', () => host.request('ping'))).toHaveProperty('result');
    const answer = JSON.stringify(await call(host, { result: { content: [link(metadata)] } }));
    expect(answer).not.toContain(hostPath);
  });
});

describe('red team, cost (fresh): the decorator', () => {
  test('a refused link with a 1 MiB name of bidi controls: one short notice, answered', {
    timeout: 60_000,
  }, async () => {
    const { client } = await decorated();
    const name = '\u202e'.repeat(1 << 20);
    const result = { content: [link(metadata, name)] };
    const got = (await client.callTool({ name: 'result', arguments: { result } })) as { content: { text: string }[] };
    expect(got.content[0]?.text.length).toBeLessThanOrEqual(1500);
    expect(JSON.stringify(got)).not.toContain(hostPath);
  });
});

describe('red team, order (fresh): answers around a cancel, and task answers', () => {
  test('the answer to a call the host cancelled, holding a refused link, never reaches the host', async () => {
    const { host } = await proxied();
    host.send({
      jsonrpc: '2.0',
      id: 'c1',
      method: 'tools/call',
      params: {
        name: 'result',
        arguments: {
          answer: false,
          after: [{ jsonrpc: '2.0', id: '$id', result: { content: [link(metadata)] } }],
        },
      },
    });
    host.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1' } });
    expect(await settled(host)).not.toContain(hostPath);
  });

  for (const method of ['tasks/list', 'tasks/cancel'])
    test(`a \`${method}\` answer whose task carries a result with a refused link hands on none of it`, async () => {
      const { host } = await proxied();
      const task = { taskId: 't9', status: 'completed', result: { content: [link(metadata)] } };
      await call(host, { tasks: { t9: { get: task } } });
      const got = JSON.stringify(await host.request(method, method === 'tasks/list' ? {} : { taskId: 't9' }));
      expect(got).toContain('t9');
      expect(got).not.toContain(hostPath);
    });
});
