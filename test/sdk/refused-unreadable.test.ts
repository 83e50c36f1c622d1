import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createGate, type Gate } from '../../src/gate/create-gate.ts';
import { maskUri } from '../../src/link/mask-uri.ts';
import { loadPolicy } from '../../src/policy/load-policy.ts';
import { initialize, startRawHost } from '../proxy/raw-host.ts';
import { connectFault } from './fault-clients.ts';
import { linksResult, refusedUris, safeUri } from './fault-server.ts';
import { repoRoot } from './fake-gate.ts';

// A refused link hands on nothing readable (issue 39 item 3): what the proxy and the decorator hand the host for the
// fault server's tool result — `content` and `structuredContent`, text and `_meta` — holds no refused uri, raw or
// masked, no password from a userinfo, and no unescaped character that reorders or breaks the notice.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const secrets = ['pw44x', 'hunter2pw'];

/** What of `handed` (a tool result as the host got it, JSON) still names a refused uri or carries a secret. */
function readable(handed: string): string[] {
  const found: string[] = [];
  for (const uri of refusedUris) {
    // as JSON escapes them: the raw uri, and the masked form a notice used to carry
    for (const form of new Set([uri, maskUri(uri)]))
      if (handed.includes(JSON.stringify(form).slice(1, -1))) found.push(form);
  }
  for (const secret of secrets) if (handed.includes(secret)) found.push(secret);
  if (/[\u202a-\u202e\u2066-\u2069\u2028\u2029\u0085]/.test(handed))
    found.push('an unescaped bidi, C1 or line separator');
  return found;
}

function expectNothingReadable(front: string, result: Record<string, unknown>) {
  const handed = JSON.stringify(result);
  const seen = readable(handed);
  console.info(
    `[measure] ${front}: refused uris or secrets readable in the tool result: ${seen.length} (${seen.join(', ')})`,
  );
  expect(seen).toEqual([]);
  // the safe link is handed on, in content and in structuredContent
  expect((result['content'] as Record<string, unknown>[]).some((c) => c['uri'] === safeUri)).toBe(true);
  expect(JSON.stringify(result['structuredContent'])).toContain(safeUri);
}

const gateOf = async (): Promise<Gate> => createGate(await loadPolicy(path.join(repoRoot, 'policies/default.yaml')));

describe('no refused uri is readable in what a front end hands the host', () => {
  test("before any front end: the fault server's own result has every one readable", () => {
    expect(readable(JSON.stringify(linksResult())).length).toBeGreaterThanOrEqual(refusedUris.length + secrets.length);
  });

  test.each(['1.x', '2.x'] as const)('the decorator under the SDK %s Client', async (major) => {
    const client = await connectFault(major, await gateOf());
    closers.push(() => client.close());
    const result = await client.callTool('links', 30_000);
    expectNothingReadable(`decorator ${major}`, result);
  });

  test('the proxy', async () => {
    const host = startRawHost(await gateOf(), {
      kind: 'command',
      command: process.execPath,
      args: ['--import', 'tsx', path.join(repoRoot, 'test/sdk/fault-server.ts')],
    });
    closers.push(async () => {
      host.end();
      await host.exit;
    });
    await initialize(host);
    const answer = await host.request('tools/call', { name: 'links', arguments: {} });
    expectNothingReadable('proxy', answer['result'] as Record<string, unknown>);
  });
});
