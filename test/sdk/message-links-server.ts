// A stdio MCP server whose prompt, sampling request and resource listing carry links (one to a cloud metadata
// address each), for test/sdk/message-link-records.test.ts. JSON-RPC written by hand. The prompt `twice` and the
// tool `sample-twice` carry the same refused link at the first place of each of their messages (and of a sampling
// `tool_result` block).
import { jsonRpcLine, readStdinMessages } from '../fixtures/servers/stdio-lines.ts';

type Json = Record<string, unknown>;
/** The refused address each message carries. */
export const metadataUri = 'http://169.254.169.254/latest/meta-data/iam/';
const send = (message: Json) => process.stdout.write(jsonRpcLine(message));
const meta = { type: 'resource_link', uri: metadataUri, name: 'meta' };
const readme = { type: 'resource_link', uri: 'guide://docs/readme', name: 'readme' };

if (process.argv[1]?.endsWith('message-links-server.ts'))
  readStdinMessages((message) => {
    const { id, method } = message as { id?: string | number; method?: string };
    if (id === undefined || typeof method !== 'string') return;
    if (method === 'initialize')
      return void send({
        id,
        result: {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {}, resources: {}, prompts: {} },
          serverInfo: { name: 'message-links', version: '1.0.0' },
        },
      });
    const name = (message as { params?: { name?: unknown } }).params?.name;
    if (method === 'prompts/get' && name === 'twice')
      return void send({
        id,
        result: {
          messages: [
            { role: 'user', content: meta },
            { role: 'user', content: meta },
          ],
        },
      });
    if (method === 'prompts/get')
      return void send({
        id,
        result: {
          messages: [
            { role: 'user', content: meta },
            { role: 'user', content: { type: 'text', text: 'read this' } },
            { role: 'user', content: readme },
          ],
        },
      });
    if (method === 'resources/list')
      return void send({
        id,
        result: {
          resources: [
            { uri: readme.uri, name: 'readme' },
            { uri: metadataUri, name: 'meta' },
          ],
        },
      });
    if (method === 'resources/templates/list')
      return void send({
        id,
        result: {
          resourceTemplates: [
            '{+url}',
            'https://docs.example.com/{+path}',
            'https://{host}/guide/{page}',
            'guide://docs/{name}{?lang}',
            'http://169.254.169.254/latest/{path}',
            'http://127.0.0.1:{port}/admin',
            'file:///{+path}',
          ].map((uriTemplate, i) => ({ uriTemplate, name: `t${i}` })),
        },
      });
    if (method === 'tools/call') {
      const toolResult = { type: 'tool_result', toolUseId: 'call-1', content: [meta] };
      const messages =
        name === 'sample-twice'
          ? [
              { role: 'user', content: [meta] },
              { role: 'user', content: [meta] },
              { role: 'user', content: [toolResult] },
            ]
          : [{ role: 'user', content: [meta] }];
      send({ id: 'sample-1', method: 'sampling/createMessage', params: { messages, maxTokens: 10 } });
      return void send({ id, result: { content: [{ type: 'text', text: 'asked' }] } });
    }
    send({ id, error: { code: -32601, message: `method not found: ${method}` } });
  });
