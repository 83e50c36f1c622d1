import type { ConfiguredServer } from './doctor-report.ts';

/** Milliseconds doctor gives a server to start and list its tools before it judges it without them. */
export const listToolsTimeoutMs = 15_000;

/**
 * A server's own tool names (`tools/list`), with `changing` when it declares `tools.listChanged` (the names are only its
 * first list: the host lists again when told, so a matcher must cover every name it may add), or why they could not be
 * had (one lowercase line).
 */
export type ServerTools =
  | { readonly names: readonly string[]; readonly changing?: true }
  | { readonly unknown: string };

/**
 * Starts `server` as its host would (its command with the host's environment plus its `env`, in `cwd`; a remote one
 * over streamable http) and lists its tools, so hook matchers are judged against the names the host will give them.
 * Never throws: a server that does not start, answer or list within `listToolsTimeoutMs` is `unknown`.
 */
export async function listServerTools(
  server: ConfiguredServer,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ServerTools> {
  let close: (() => Promise<void>) | undefined;
  const work = async (): Promise<ServerTools> => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const client = new Client({ name: 'linkgate-doctor', version: '1' }, { capabilities: {} });
    close = () => client.close();
    if (server.argv.length > 0) {
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      const [command = '', ...args] = server.argv;
      const merged: Record<string, string> = {};
      for (const [k, v] of Object.entries({ ...env, ...server.env })) if (v !== undefined) merged[k] = v;
      await client.connect(new StdioClientTransport({ command, args, env: merged, cwd, stderr: 'ignore' }), {
        timeout: listToolsTimeoutMs,
      });
    } else {
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url ?? '')), {
        timeout: listToolsTimeoutMs,
      });
    }
    const names: string[] = [];
    let cursor: string | undefined;
    // a bounded number of pages: a server that pages forever is judged without its list
    for (let page = 0; page < 100; page++) {
      const listed = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: listToolsTimeoutMs });
      names.push(...listed.tools.map((t) => t.name));
      cursor = listed.nextCursor;
      // a list the server says will change is its first one only: the host lists again when told
      if (cursor === undefined)
        return client.getServerCapabilities()?.tools?.listChanged === true ? { names, changing: true } : { names };
    }
    return { unknown: 'it pages its tool list without end' };
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    const late = new Promise<ServerTools>((resolve) => {
      timer = setTimeout(
        () => resolve({ unknown: `it did not list its tools within ${listToolsTimeoutMs} ms` }),
        listToolsTimeoutMs,
      );
    });
    return await Promise.race([work(), late]);
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    return { unknown: `it did not start or list its tools: ${message.toLowerCase()}` };
  } finally {
    clearTimeout(timer);
    await close?.().catch(() => undefined);
  }
}
