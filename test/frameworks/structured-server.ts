// An MCP server whose tools answer with `structuredContent` (stdio; run with tsx), for the framework suites: `plain`
// has no link, `allowed` lists a link the default policy allows (in `content` and in `structuredContent`), `refused`
// lists one it refuses, only inside `structuredContent`. Each text carries a marker, so a test sees what reached the
// model. Every request it receives is appended to the file LINKGATE_REQUEST_LOG names.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { serveLoggingRequests } from '../real-host/logged-stdio-server.ts';
import { structuredAnswers } from './structured-answers.ts';

const server = new McpServer({ name: 'structured', version: '1.0.0' }, { capabilities: { tools: {} } });
for (const [name, answer] of Object.entries(structuredAnswers))
  server.registerTool(
    name,
    {
      description: `answers with structuredContent (${name})`,
      outputSchema: { summary: z.string(), next: z.unknown().optional() },
    },
    async () => structuredClone(answer) as never,
  );

await serveLoggingRequests(server);
