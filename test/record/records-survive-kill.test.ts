// Records survive a SIGKILL (issue 40 item 3): the real `linkgate proxy` over the real demo server (stdio), driven by
// the real SDK client, is killed right after the host got its answers; every answered read and every link the host
// was shown must already be in the records file.
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, test } from 'vitest';
import { demoLinks } from '../../src/demo/demo-server.ts';
import { maskUri } from '../../src/link/mask-uri.ts';
import { recordKindOf } from '../../src/record/record-kind.ts';
import { demoServer, processEnv, proxyCommandLine, shippedPolicy } from '../proxy/proxy-helpers.ts';

type Json = Record<string, unknown>;

const readsBeforeKill = 8;

async function killedAfterReads(mode: 'enforce' | 'observe') {
  const recordsFile = path.join(await mkdtemp(path.join(tmpdir(), 'linkgate-kill-')), 'records.jsonl');
  const [command, ...args] = proxyCommandLine(
    ['--policy', shippedPolicy('default'), '--server', 'demo', '--records', recordsFile, '--mode', mode],
    demoServer,
  );
  const transport = new StdioClientTransport({ command: command as string, args, env: processEnv(), stderr: 'ignore' });
  const client = new Client({ name: 'kill-host', version: '1.0.0' });
  await client.connect(transport);
  const shown = (await client.callTool({ name: 'show-links', arguments: {} })) as { content: Json[] };
  const listed = shown.content.filter((i) => i['type'] === 'resource_link').map((i) => String(i['uri']));
  // the host reads what it was shown, in order, each answer awaited: an error answer is an answer too
  const answered: string[] = [];
  for (const uri of listed.slice(0, readsBeforeKill)) {
    await client.readResource({ uri }).catch(() => undefined);
    answered.push(uri);
  }
  const pid = transport.pid;
  if (pid === null) throw new Error('the proxy has no pid');
  const gone = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  process.kill(pid, 'SIGKILL');
  await gone;
  const lines = (await readFile(recordsFile, 'utf8'))
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Json);
  return { listed, answered, lines };
}

describe('a SIGKILL of the proxy loses no record (issue 40 item 3)', () => {
  test.each(['enforce', 'observe'] as const)(
    '%s mode: every answered read and every discovered link is in the records file',
    async (mode) => {
      const { listed, answered, lines } = await killedAfterReads(mode);
      expect(answered).toHaveLength(readsBeforeKill);
      const linkRecords = lines.filter((l) => recordKindOf(l) === 'link');
      const read = new Set(linkRecords.filter((l) => l['verdict'] !== undefined).map((l) => String(l['uri'])));
      // every answered read has its own record (not only the one its discovery left)
      expect(answered.map((uri) => ({ uri, recorded: read.has(maskUri(uri)) }))).toEqual(
        answered.map((uri) => ({ uri, recorded: true })),
      );
      // every link of the tool result (all 14 in observe mode; enforce shows fewer: the refused ones are replaced)
      const recorded = new Set(
        lines.filter((l) => ['link', 'discovered'].includes(recordKindOf(l))).map((l) => String(l['uri'])),
      );
      expect(demoLinks.map((l) => ({ uri: l.uri, recorded: recorded.has(maskUri(l.uri)) }))).toEqual(
        demoLinks.map((l) => ({ uri: l.uri, recorded: true })),
      );
      if (mode === 'observe') expect(listed).toHaveLength(demoLinks.length);
    },
    60_000,
  );
});
