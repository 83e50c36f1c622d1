// Red team, surviving links in messages: a `resource_link` or embedded resource a server puts in a prompt
// (`prompts/get`, whose messages MCP lets hold links) or in a server→host `sampling/createMessage` request (one block,
// or a `tool_result` block holding a tool result's blocks, 2025-11-25) reaches the host as a tool result's would, so it
// is judged as one: a refused link becomes its notice, a withheld body its notice, in the proxy and the decorator.
// Before: the decorator passed a prompt's refused link whole, and both passed a sampling request's links and the
// blocks of its `tool_result` (an executable included) unjudged.
import { afterEach, describe, expect, test } from 'vitest';
import { call, closeAll, decorated, hostPath, link, metadata, proxied } from './scripted-host.ts';

afterEach(closeAll);

// a Windows executable's first bytes, declared as one: never delivered
const exe = {
  type: 'resource',
  resource: { uri: 'rt://tool.exe', mimeType: 'application/x-msdownload', blob: 'TVqQAAMAAAAEAAAA' },
};
const prompt = { messages: [{ role: 'user', content: link(metadata, 'creds') }] };
const toolResultBlock = { type: 'tool_result', toolUseId: 't1', content: [link(metadata, 'creds'), exe] };
const sampling = (id: string, content: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'sampling/createMessage',
  params: { maxTokens: 10, messages: [{ role: 'user', content }] },
});

describe('red team, messages: a prompt holding a refused link', () => {
  test('the decorator hands the SDK client the notice, not the link', async () => {
    const { client } = await decorated();
    const got = await client.getPrompt({ name: 'p', arguments: { result: JSON.stringify(prompt) } });
    expect(JSON.stringify(got)).not.toContain(hostPath);
    expect(JSON.stringify(got)).toContain('linkgate refused the link `creds`');
  });

  test('the proxy hands the host the notice, not the link (held)', async () => {
    const { host } = await proxied();
    const got = await host.request('prompts/get', { name: 'p', arguments: { result: prompt } });
    expect(JSON.stringify(got)).not.toContain(hostPath);
    expect(JSON.stringify(got)).toContain('linkgate refused the link `creds`');
  });
});

describe('red team, messages: a sampling request from the server', () => {
  test('proxy: a refused link as the message block becomes its notice', async () => {
    const { host } = await proxied();
    await call(host, { result: { content: [] }, before: [sampling('s1', link(metadata, 'creds'))] });
    const request = await host.waitFor((m) => m['id'] === 's1');
    expect(JSON.stringify(request)).not.toContain(hostPath);
    expect(JSON.stringify(request)).toContain('linkgate refused the link `creds`');
  });

  test('proxy: a tool_result block holding a refused link and an executable hands on neither', async () => {
    const { host } = await proxied();
    await call(host, { result: { content: [] }, before: [sampling('s2', [toolResultBlock])] });
    const request = JSON.stringify(await host.waitFor((m) => m['id'] === 's2'));
    expect(request).not.toContain(hostPath);
    expect(request).not.toContain('TVqQ');
    expect(request).toContain('linkgate withheld the embedded resource');
  });

  test('decorator: a tool_result block holding a refused link and an executable hands on neither', async () => {
    const { client, sampled, firstSampled } = await decorated();
    const args = { result: { content: [] }, before: [sampling('s3', [toolResultBlock])] };
    await client.callTool({ name: 'result', arguments: args });
    // the judged request may come after the call's answer
    await firstSampled;
    expect(sampled).toHaveLength(1);
    expect(JSON.stringify(sampled)).not.toContain(hostPath);
    expect(JSON.stringify(sampled)).not.toContain('TVqQ');
  });
});
