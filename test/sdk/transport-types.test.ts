// linkgate's transport types are structural (src/sdk/mcp-transport.ts): each SDK's transports fit `McpTransport`, and
// a `GateTransport` fits each SDK's `Transport` and its Client's `connect`. Checked by the compiler (`npm run
// typecheck`), and once at run time. test/docs/doc-snippets.real-host.test.ts checks the same from the packed
// tarball in projects that have only one SDK.
import { Client as Client2 } from '@modelcontextprotocol/client';
import type { Transport as Transport2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as Stdio2 } from '@modelcontextprotocol/client/stdio';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as Stdio1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as Http1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport as Transport1 } from '@modelcontextprotocol/sdk/shared/transport.js';
import { describe, expectTypeOf, test } from 'vitest';
import { type GatedAgentsServer, gatedAgentsServer } from '../../src/frameworks/openai-agents-server.ts';
import { type GateTransport, gateTransport } from '../../src/sdk/gate-transport.ts';
import type { McpTransport } from '../../src/sdk/mcp-transport.ts';

describe('structural transport types', () => {
  test('each SDK transport is an McpTransport, and a GateTransport is each SDK Transport', () => {
    expectTypeOf<Stdio1>().toExtend<McpTransport>();
    expectTypeOf<Http1>().toExtend<McpTransport>();
    expectTypeOf<Stdio2>().toExtend<McpTransport>();
    expectTypeOf<Transport1>().toExtend<McpTransport>();
    expectTypeOf<Transport2>().toExtend<McpTransport>();
    expectTypeOf<GateTransport>().toExtend<Transport1>();
    expectTypeOf<GateTransport>().toExtend<Transport2>();
    expectTypeOf(gateTransport).parameter(0).toEqualTypeOf<McpTransport>();
  });

  test("each SDK's Client connects through a GateTransport and is a client of the OpenAI Agents server", () => {
    expectTypeOf<Client1['connect']>().parameter(0).toExtend<Transport1>();
    expectTypeOf<GateTransport>().toExtend<Parameters<Client1['connect']>[0]>();
    expectTypeOf<GateTransport>().toExtend<Parameters<Client2['connect']>[0]>();
    expectTypeOf<Client1>().toExtend<Parameters<typeof gatedAgentsServer>[0]['client']>();
    expectTypeOf<Client2>().toExtend<Parameters<typeof gatedAgentsServer>[0]['client']>();
    expectTypeOf<ReturnType<GatedAgentsServer['listTools']>>().resolves.items.toHaveProperty('inputSchema');
  });
});
